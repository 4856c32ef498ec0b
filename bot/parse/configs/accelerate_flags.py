"""accelerate launch's own flags (issue 24 item 1, round 10): the options before the script.

``accelerate launch --config_file configs/zero3.yaml train.py …`` sets the job's ZeRO stage through the
launcher's config file, ``--zero_stage 3 --offload_optimizer_device cpu`` and ``--use_fsdp
--fsdp_sharding_strategy FULL_SHARD`` set it in flags, ``--mixed_precision bf16`` the precision and
``--megatron_lm_tp_degree`` the tensor parallelism. Before, only ``--num_processes`` was read and the rest
dropped in silence (a GRPO command with ``--config_file configs/zero3.yaml`` was sized without ZeRO).

The table is every option of huggingface/accelerate v1.10.1 ``src/accelerate/commands/launch.py``
(``launch_command_parser``: its ``add_argument`` calls, read from the PyPI wheel
accelerate-1.10.1-py3-none-any.whl with ``ast``). A flag of :data:`MEANING` sets its field; any other of
:data:`ACCELERATE_LAUNCH_FLAGS` is named as not sized, one it does not have as unknown.
"""

from __future__ import annotations

from typing import Any

from bot.parse.configs.model import StackConfig

ACCELERATE_LAUNCH_FLAGS = frozenset(
    {
    "--aws_access_key_id", "--aws_secret_access_key", "--config_file", "--cpu", "--debug",
    "--deepspeed_config_file", "--deepspeed_exclusion_filter", "--deepspeed_hostfile",
    "--deepspeed_inclusion_filter", "--deepspeed_moe_layer_cls_names", "--deepspeed_multinode_launcher",
    "--downcast_bf16", "--dynamo_backend", "--dynamo_mode", "--dynamo_use_dynamic",
    "--dynamo_use_fullgraph", "--dynamo_use_regional_compilation", "--enable_cpu_affinity", "--env",
    "--fp8_amax_compute_algo", "--fp8_amax_history_len", "--fp8_backend", "--fp8_format", "--fp8_interval",
    "--fp8_margin", "--fp8_opt_level", "--fp8_override_linear_precision", "--fp8_use_autocast_during_eval",
    "--fsdp_activation_checkpointing", "--fsdp_auto_wrap_policy", "--fsdp_backward_prefetch",
    "--fsdp_cpu_ram_efficient_loading", "--fsdp_forward_prefetch", "--fsdp_min_num_params",
    "--fsdp_offload_params", "--fsdp_reshard_after_forward", "--fsdp_sharding_strategy",
    "--fsdp_state_dict_type", "--fsdp_sync_module_states", "--fsdp_transformer_layer_cls_to_wrap",
    "--fsdp_use_orig_params", "--fsdp_version", "--gpu_ids", "--gradient_accumulation_steps",
    "--gradient_clipping", "--help", "--log_dir", "--machine_rank", "--main_process_ip",
    "--main_process_port", "--main_training_function", "--max_restarts", "--megatron_lm_gradient_clipping",
    "--megatron_lm_num_micro_batches", "--megatron_lm_pp_degree", "--megatron_lm_recompute_activations",
    "--megatron_lm_sequence_parallelism", "--megatron_lm_tp_degree",
    "--megatron_lm_use_distributed_optimizer", "--mixed_precision", "--module", "--monitor_interval",
    "--mpirun_ccl", "--mpirun_hostfile", "--multi_gpu", "--no_python", "--no_tpu_cluster",
    "--num_cpu_threads_per_process", "--num_machines", "--num_processes", "--offload_optimizer_device",
    "--offload_optimizer_nvme_path", "--offload_param_device", "--offload_param_nvme_path",
    "--parallelism_config_cp_comm_strategy", "--parallelism_config_cp_size",
    "--parallelism_config_dp_replicate_size", "--parallelism_config_dp_shard_size",
    "--parallelism_config_tp_size", "--quiet", "--rdzv_backend", "--rdzv_conf", "--role", "--same_network",
    "--tee", "--tpu", "--tpu_cluster", "--tpu_use_sudo", "--use_deepspeed", "--use_fsdp",
    "--use_megatron_lm", "--use_parallelism_config", "--use_xpu", "--vm", "--zero3_init_flag",
    "--zero3_save_16bit_model", "--zero_stage",
    }
)  # fmt: skip
"""Every long option of ``accelerate launch`` (v1.10.1; ``-h``, ``-m``, ``-q``, ``-t`` are its short ones)."""

MIXED_PRECISION = {"fp16": "fp16", "bf16": "bf16", "fp8": "fp8"}
"""``--mixed_precision`` choices (no, fp16, bf16, fp8) → the request's precision ('no': fp32, left unset)."""
FSDP_STRATEGIES = {"1": 3, "full_shard": 3, "2": 2, "shard_grad_op": 2, "3": 0, "no_shard": 0, "4": 3}
"""``--fsdp_sharding_strategy`` by name or by accelerate's number (1 FULL_SHARD, 2 SHARD_GRAD_OP, 3
NO_SHARD, 4 HYBRID_SHARD: sharded within a node) → the ZeRO stage it equals."""


def read_accelerate_flags(pairs: list[tuple[str, Any]], cfg: StackConfig) -> None:
    """Fill ``cfg`` from ``accelerate launch``'s own (flag, value) ``pairs`` (the GPU count flags are
    read by the launcher reader); every flag is used or named."""
    from bot.parse.configs.training import _deepspeed, _offload_device, _offload_param

    for flag, value in pairs:
        key = flag.replace("-", "_").replace("__", "--", 1)
        text = str(value).strip().lower()
        if key in ("--num_processes", "--num_machines"):
            continue
        if key == "--config_file" and _fsdp_file(str(value)):  # 'fsdp.yaml': FULL_SHARD, the default
            cfg.set(key, "zero_stage", 3)
            cfg.skip(key, value, "zero_from_file_name")
        elif key in ("--config_file", "--deepspeed_config_file"):
            _deepspeed(cfg, key, value, {})
        elif key == "--zero_stage" and text in ("0", "1", "2", "3"):
            cfg.set(key, "zero_stage", int(text))
        elif key in ("--offload_optimizer_device", "--offload_param_device"):
            handler = _offload_param if "param" in key else _offload_device
            if not handler(cfg, key, value, {}):
                cfg.skip(key, value, "bad_value")
        elif key == "--mixed_precision" and text in (*MIXED_PRECISION, "no"):
            if text in MIXED_PRECISION:
                cfg.set(key, "precision", MIXED_PRECISION[text])
            else:
                cfg.skip(key, value, "not_sized")
        elif key == "--gradient_accumulation_steps" and text.isdigit() and int(text) > 0:
            cfg.accumulation, cfg.accumulation_key = int(text), key
        elif key == "--fsdp_sharding_strategy" and text in FSDP_STRATEGIES:
            cfg.set(key, "zero_stage", FSDP_STRATEGIES[text])
        elif key in ("--fsdp_offload_params",) and text in ("true", "false"):
            cfg.values["offload"] = text == "true"
            cfg.used[key] = "offload"
        elif key in ("--fsdp_activation_checkpointing", "--megatron_lm_recompute_activations"):
            _recompute(cfg, key, text)
        elif key in ("--megatron_lm_tp_degree", "--megatron_lm_pp_degree") and text.isdigit():
            cfg.set(key, "tp" if "tp" in key else "pp", int(text))
        else:
            cfg.skip(key, value, "not_sized" if key in ACCELERATE_LAUNCH_FLAGS else "unknown_key")


def _recompute(cfg: StackConfig, key: str, text: str) -> None:
    """FSDP's activation checkpointing is full recompute; Megatron-LM's ``recompute_activations`` is its
    selective recompute (accelerate's help: "Selective Activation Recomputation")."""
    if text not in ("true", "false"):
        cfg.skip(key, text, "bad_value")
        return
    on = "selective" if "megatron" in key else "full"
    cfg.set(key, "recompute", on if text == "true" else "none")


def _fsdp_file(path: str) -> bool:
    """An accelerate config file named for FSDP and for no other strategy ('fsdp.yaml',
    'fsdp_config.yaml'; not 'fsdp_shard_grad_op.yaml'): FULL_SHARD, ``--fsdp_sharding_strategy``'s
    default in launch.py, i.e. ZeRO-3."""
    name = path.rsplit("/", 1)[-1].lower()
    return "fsdp" in name and not any(w in name for w in ("grad_op", "no_shard", "hybrid", "zero"))
