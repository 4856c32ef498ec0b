"""What each tool's own keys and flags MEAN for the sizing (issue 24 items 1–2): per tool, which of its
keys sets which request field, and through which value conversion — the one table the pasted-config
readers (:data:`bot.parse.configs.training.HANDLERS`, :data:`bot.parse.configs.launchers.SERVE_FLAGS`,
:data:`bot.parse.configs.launchers.MEGATRON`) and the prose readers (:mod:`bot.parse.inline_keys`,
:mod:`bot.parse.inline_flags`, :mod:`bot.parse.generic_values`) are built from.

A row is ``key: (field, conversion)``. The key is spelled as the tool's flag table spells it
(``bot/recipes/flags/<tool>.json``: bare config keys, dotted nested keys, flags with their dashes); the
field is a :class:`estimator.models.SizingRequest` field (``None``: the key changes the answer but the
sizing has no field for it, named ``no_field``); the conversion names how the value is read
(:data:`CONVERSIONS`). Every key of a row is in its tool's flag table (tests/test_meaning.py), and every
key a reader dispatches on is a row here. Each tool's rows cite the file its meanings are taken from
(:data:`SOURCES`).
"""

from __future__ import annotations

from functools import cache

Row = tuple[str | None, str]

CONVERSIONS = {
    "flag": "a switch said (no value): True",
    "int": "a whole number > 0, as is",
    "float": "a fraction in (0, 1], as is",
    "epochs": "a number of epochs > 0 (fractions allowed)",
    "accumulation": "gradient accumulation steps: global batch = micro × steps × DP once the GPUs are known",
    "targets": "a module list, comma/space separated; 'all' / 'all-linear' / 'all_linear' → all-linear",
    "mlp_targets": "torchtune apply_lora_to_mlp: the MLP's w1, w2, w3 added to lora_attn_modules",
    "output_adapter": "torchtune apply_lora_to_output: false adds nothing; true adapts the final output "
    "projection (vocab × hidden), which the sizing has no target for (named, no_field)",
    "precision": "bf16/fp16 true → that precision; pure_bf16 true → no fp32 master weights; dtype names",
    "enabled": "DeepSpeed '<fmt>.enabled: true' → that precision",
    "recompute": "true → full recompute, false → none (disable_… inverted)",
    "optim": "optimizer name → adamw / adamw_8bit / paged_adamw_8bit",
    "deepspeed_file": "a DeepSpeed config path: ZeRO stage and offload read from its name (ds_z3_offload…)",
    "samples_cap": "LLaMA-Factory max_samples: the samples read from each dataset at most, sized as the "
    "count; said to be the cap when a dataset is named (its own size is not known here)",
    "demo_rows": "LLaMA-Factory dataset naming its bundled demo files: their rows (data/dataset_info.json), "
    "capped by max_samples per dataset, as its loader does; any other dataset (axolotl datasets[].path, a "
    "Hub name or the user's file) is named as one whose size is not known, the run timed from the data "
    "the user gives",
    "swift_deepspeed": "ms-swift's --deepspeed zero0…zero3[_offload] (its bundled configs), else a path "
    "(deepspeed_file): one reading for every tool's 'deepspeed' key",
    "fsdp": "FULL_SHARD → ZeRO-3, SHARD_GRAD_OP → ZeRO-2, NO_SHARD → 0; 'offload' → offload",
    "reshard_bool": "FSDP2 reshard_after_forward: true → ZeRO-3 (FULL_SHARD), false → ZeRO-2 "
    "(SHARD_GRAD_OP); it decides over a sharding strategy that says otherwise, which is named "
    "(sharding_conflict)",
    "stage": "sft/pt/dpo/ppo/kto/rm/grpo → stage and algorithm",
    "rl_type": "ms-swift --rlhf_type / verl algorithm.adv_estimator → the RL algorithm",
    "tuner": "ms-swift --train_type/--tuner_type: lora/full/qlora → method",
    "infer_backend": "LLaMA-Factory infer_backend → runtime (an inference config)",
    "engine_share": "an inference engine's share of each card (in an inference config)",
    "share": "a share of each card, 0 < x ≤ 1, as is (an RL rollout engine's gpu_memory_utilization)",
    "vllm_share": "a share of each card, 0 < x ≤ 1, as is, of the RL rollout engine the key names: "
    "vllm_gpu_memory_utilization is vLLM's (the runtime, when no other engine is set)",
    "engine_maxlen": "an inference engine's context (in an inference config), else named",
    "zero_stage": "0–3, as is",
    "offload_device": "cpu/nvme → optimizer offload; none → off",
    "offload_param": "cpu/nvme → named (parameter offload not modelled); none → off",
    "offload_bool": "true → optimizer offload, false → off",
    "param_offload_bool": "false → weights on the GPU (no offload); true → named (parameter offload)",
    "kl_beta": "an RL KL coefficient ≥ 0, as is (TRL beta): 0 → no reference model (estimator.rl_reference)",
    "generations": "completions per prompt (an RL config: GRPO unless stated)",
    "prompt_length": "prompt + completion = the RL sequence, when no sequence key is given; else named",
    "swift_max_length": "ms-swift --max_length: in GRPO/PPO/GKD (--rlhf_type) the prompt's bound, so the "
    "RL sequence is it + max_completion_length (512 unless stated); elsewhere the whole sample",
    "source_target": "source + target = one sample (ChatGLM P-Tuning scripts), else named",
    "gpu_product": "verl trainer.n_gpus_per_node × trainer.nnodes → the GPU count",
    "actor_gpus": "OpenRLHF actor nodes × GPUs per node (defaults 1 and 8) → the GPU count trained on",
    "placement": "OpenRLHF placement of another role (vLLM engines, reference, critic, reward model): GPUs "
    "beside the actor's, which alone make gpu_count; named (no_field) in prose and configs alike",
    "bits": "4 → QLoRA (bitsandbytes NF4), 8 → 8-bit QLoRA",
    "rollout_switch": "TRL/ms-swift use_vllm: true → runtime vLLM (the RL rollout engine); false → generated "
    "by the trainer, named (rollout_as_vllm: timed as vLLM's)",
    "vllm_mode": "TRL vllm_mode: colocate → vLLM shares the training GPUs (its share of each counted), "
    "server → a vLLM server on GPUs of its own",
    "sleep_bool": "TRL vllm_enable_sleep_mode: true → the colocated vLLM offloads weights and KV cache "
    "during training steps, so its share is not taken from the training memory",
    "packing_bool": "LLaMA-Factory/TRL packing, axolotl sample_packing: true → samples packed into sequences "
    "of the cutoff, false → padded per batch (the time's tokens per sample: an upper bound, said)",
    "verl_kl": "verl use_kl_loss / use_kl_in_reward and their coefficients, read together: the coefficient "
    "of a switch that is on (0.001 by default), else 0 → no reference model (estimator.rl_reference)",
    "gather_bool": "TRL/ms-swift ds3_gather_for_generation: false → the RL trainer generates on the ZeRO-3 "
    "partitions, no whole policy gathered on each GPU; true → their default",
    "chunked_bool": "transformers/TRL/ms-swift use_liger_kernel, LLaMA-Factory enable_liger_kernel: true → "
    "Liger's fused linear cross-entropy, no whole fp32 logits (estimator.request_loss)",
    "no_field": "changes the answer, no request field yet: named (no_field)",
    "attn_impl": "attn_implementation / LLaMA-Factory flash_attn (disabled → eager, sdpa, fa2) / axolotl "
    "eager_attention, sdp_attention, flash_attention: true → attention_implementation",
    "kv": "fp8* → fp8 KV cache, bf16/bfloat16 → bf16",
    "fa": "llama.cpp -fa/--flash-attn: off/0 → no flash attention (one layer's fp32 KQ scores in the "
    "compute buffer), on/auto/1 or a bare -fa → flash attention",
    "ggml_kv": "llama.cpp -ctk/-ctv: q8_0/q4_0 → that KV type (ggml block sizes), f16/bf16 → 16-bit",
    "quant": "awq/gptq/fp8/bitsandbytes… → the weights' precision",
    "dtype": "bfloat16/float16/half/float32 → the weights' precision",
    "str": "the model, as written",
    "offload_gb": "vLLM/SGLang --cpu-offload-gb: 0 → no CPU offload (False); above 0 named, not sized",
    "gpu_layers": "llama.cpp -ngl: 99 or more (its README's 'all') or -1 → every layer on the GPU, no "
    "offload; fewer → gpu_layers, the rest in CPU memory (estimator.layer_offload)",
    "size_billions": "Xinference --size-in-billions ('_' is its decimal point: '1_5' = 1.5B): the model is "
    "--model-name at that size ('qwen2.5-instruct' + 72 → 'qwen2.5-instruct 72B')",
    "xinf_format": "Xinference --model-format: awq/gptq → int4, fp8 → fp8; pytorch (the weights as released) "
    "and ggufv2/mlx (their --quantization says the bits) set nothing",
    "xinf_quant": "Xinference --quantization: Int4/4-bit → int4, Int8/8-bit → int8, fp8 → fp8, a GGUF type "
    "(Q4_K_M…) → as the prose reads it; none → the format's or the release precision",
    "xinf_engine": "Xinference --model-engine: vllm/sglang/transformers/llama.cpp → that runtime; mlx → "
    "named (runtime_not_modelled)",
    "xinf_replicas": "Xinference --replica: copies of the model, each on --n-gpu GPUs → GPUs = n-gpu × "
    "replicas",
    "xinf_gpu_idx": "Xinference --gpu-idx 0,1: the GPUs listed → the GPU count (and GPUs per copy when "
    "--n-gpu is not given)",
    "slots_context": "llama.cpp -c/--ctx-size: the KV cache of all -np slots together; each sequence gets "
    "c / np (np = 1 when not given), and -c is the engine's limit only with one slot",
}
"""How a row's value is read (the readers hold the code: bot.parse.configs.training, launchers)."""

ATTN_ROW = ("attention_implementation", "attn_impl")
_HF = {
    "per_device_train_batch_size": ("batch_size", "int"),
    "gradient_accumulation_steps": (None, "accumulation"),
    "num_train_epochs": ("epochs", "epochs"),
    "bf16": ("precision", "precision"), "fp16": ("precision", "precision"),
    "gradient_checkpointing": ("recompute", "recompute"),
    "optim": ("optimizer", "optim"), "deepspeed": ("zero_stage", "swift_deepspeed"),
    "fsdp": ("zero_stage", "fsdp"), "use_liger_kernel": ("chunked_loss", "chunked_bool"),
}  # fmt: skip
"""transformers TrainingArguments (training_args.py) fields, shared by every tool built on it."""

SOURCE_TARGET = (
    ("max_source_length", "max_target_length"), ("max_source_seq_len", "max_target_seq_len"),
    ("source_max_len", "target_max_len"), ("max_source_len", "max_target_len"),
    ("max_src_len", "max_tgt_len"),
)  # fmt: skip
"""A sample's source and target lengths as research scripts name them (their sum is the sequence): ChatGLM
P-Tuning's ptuning/arguments.py, artidoro/qlora's qlora.py (source_max_len, target_max_len), the
transformers_tasks LLM LoRA scripts (max_source_seq_len, max_target_seq_len) and their short forms."""

MEANING: dict[str, dict[str, Row]] = {
    "llamafactory": {
        **_HF, "cutoff_len": ("seq_len", "int"), "max_length": ("seq_len", "int"),
        "lora_rank": ("lora_rank", "int"), "lora_alpha": (None, "no_field"),
        "lora_target": ("lora_targets", "targets"), "max_samples": ("num_samples", "samples_cap"),
        "dataset": ("num_samples", "demo_rows"), "pure_bf16": ("pure_bf16", "precision"),
        "disable_gradient_checkpointing": ("recompute", "recompute"), "stage": ("stage", "stage"),
        "infer_backend": ("runtime", "infer_backend"), "vllm_maxlen": ("max_model_len", "engine_maxlen"),
        "sglang_maxlen": ("max_model_len", "engine_maxlen"),
        "vllm_gpu_util": ("gpu_memory_utilization", "engine_share"),
        "sglang_mem_fraction": ("gpu_memory_utilization", "engine_share"),
        "packing": ("packing", "packing_bool"), "neat_packing": ("packing", "packing_bool"),
        "enable_liger_kernel": ("chunked_loss", "chunked_bool"),
        "flash_attn": ("attention_implementation", "attn_impl"),
    },
    "trl": {
        **_HF, "max_seq_length": ("seq_len", "int"), "max_length": ("seq_len", "int"),
        "lora_r": ("lora_rank", "int"), "lora_alpha": (None, "no_field"),
        "lora_target_modules": ("lora_targets", "targets"), "dtype": ("precision", "precision"),
        "attn_implementation": ("attention_implementation", "attn_impl"),  # TRL ModelConfig
        "bf16.enabled": ("precision", "enabled"), "fp16.enabled": ("precision", "enabled"),
        "num_generations": ("num_generations", "generations"),
        "max_completion_length": ("max_completion_length", "int"),
        "max_prompt_length": ("seq_len", "prompt_length"),
        "vllm_gpu_memory_utilization": ("rollout_gpu_memory_utilization", "vllm_share"),
        "fsdp_config.reshard_after_forward": ("zero_stage", "reshard_bool"),
        "fsdp_config.fsdp_sharding_strategy": ("zero_stage", "fsdp"),
        "fsdp_config.sharding_strategy": ("zero_stage", "fsdp"), "packing": ("packing", "packing_bool"),
        "use_vllm": ("runtime", "rollout_switch"), "vllm_mode": ("rollout_colocated", "vllm_mode"),
        "vllm_enable_sleep_mode": ("rollout_sleep_mode", "sleep_bool"), "beta": ("kl_beta", "kl_beta"),
        "ds3_gather_for_generation": ("ds3_gather_for_generation", "gather_bool"),
    },
    "llama-recipes": {  # train_config / fsdp_config fields, each a finetuning.py flag
        "context_length": ("seq_len", "int"), "batch_size_training": ("batch_size", "int"),
        "num_epochs": ("epochs", "epochs"), "gradient_accumulation_steps": (None, "accumulation"),
        "pure_bf16": ("pure_bf16", "precision"),
    },
    "axolotl": {
        "sequence_len": ("seq_len", "int"), "micro_batch_size": ("batch_size", "int"),
        "batch_size": ("global_batch", "int"), "num_epochs": ("epochs", "epochs"),
        "gradient_accumulation_steps": (None, "accumulation"), "lora_r": ("lora_rank", "int"),
        "lora_alpha": (None, "no_field"), "lora_target_modules": ("lora_targets", "targets"),
        "lora_target_linear": ("lora_targets", "targets"), "bf16": ("precision", "precision"),
        "fp16": ("precision", "precision"), "gradient_checkpointing": ("recompute", "recompute"),
        "optimizer": ("optimizer", "optim"), "deepspeed": ("zero_stage", "swift_deepspeed"),
        "fsdp": ("zero_stage", "fsdp"), "rl": ("stage", "stage"),
        "sample_packing": ("packing", "packing_bool"), "datasets": ("num_samples", "demo_rows"),
        **dict.fromkeys(("eager_attention", "sdp_attention", "flash_attention"), ATTN_ROW),
    },
    "torchtune": {
        "tokenizer.max_seq_len": ("seq_len", "int"), "batch_size": ("batch_size", "int"),
        "epochs": ("epochs", "epochs"), "gradient_accumulation_steps": (None, "accumulation"),
        "model.lora_rank": ("lora_rank", "int"), "model.lora_alpha": (None, "no_field"),
        "model.lora_attn_modules": ("lora_targets", "targets"),
        "model.apply_lora_to_mlp": ("lora_targets", "mlp_targets"),
        "model.apply_lora_to_output": ("lora_targets", "output_adapter"), "dtype": ("precision", "precision"),
        "enable_activation_checkpointing": ("recompute", "recompute"),
        "optimizer._component_": ("optimizer", "optim"),
    },
    "deepspeed": {
        "train_micro_batch_size_per_gpu": ("batch_size", "int"), "tensor_parallel.autotp_size": ("tp", "int"),
        "gradient_accumulation_steps": (None, "accumulation"), "train_batch_size": ("global_batch", "int"),
        "bf16": ("precision", "precision"), "fp16": ("precision", "precision"),
        "bf16.enabled": ("precision", "enabled"), "fp16.enabled": ("precision", "enabled"),
        "optimizer": ("optimizer", "optim"), "zero_optimization.stage": ("zero_stage", "zero_stage"),
        "zero_optimization.offload_optimizer.device": ("offload", "offload_device"),
        "zero_optimization.offload_param.device": ("offload", "offload_param"),
        "zero_optimization.stage3_max_live_parameters": ("zero3_max_live_parameters", "int"),
        "zero_optimization.max_live_parameters": ("zero3_max_live_parameters", "int"),
    },
    "scripts": {
        "max_seq_len": ("seq_len", "int"),
        "max_input_len": ("seq_len", "prompt_length"),  # ColossalAI Chat examples/train_prompts.py (PPO)
        "lora_dim": ("lora_rank", "int"),  # DeepSpeed-Chat training/step1_supervised_finetuning/main.py
        "max_train_samples": ("num_samples", "int"),  # transformers examples run_clm.py and their copies
        # EasyR1 (a verl fork, examples/config.yaml; no flag table of its own): the per-GPU micro-batch
        "worker.actor.micro_batch_size_per_device_for_update": ("batch_size", "int"),
        **{k: ("seq_len", "source_target") for pair in SOURCE_TARGET for k in pair},
    },
    "verl": {
        "data.max_prompt_length": ("seq_len", "prompt_length"),
        "data.max_response_length": ("max_completion_length", "int"),
        "data.train_batch_size": ("global_batch", "int"),
        "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": ("batch_size", "int"),
        "actor_rollout_ref.actor.ppo_mini_batch_size": (None, "no_field"),
        "actor_rollout_ref.rollout.n": ("num_generations", "generations"),
        "actor_rollout_ref.rollout.tensor_model_parallel_size": ("rollout_tp", "int"),
        "actor_rollout_ref.rollout.gpu_memory_utilization": ("rollout_gpu_memory_utilization", "share"),
        "actor_rollout_ref.model.enable_gradient_checkpointing": ("recompute", "recompute"),
        "actor_rollout_ref.model.lora_rank": ("lora_rank", "int"),
        "actor_rollout_ref.model.lora_alpha": (None, "no_field"),
        "actor_rollout_ref.model.target_modules": ("lora_targets", "targets"),
        "actor_rollout_ref.actor.fsdp_config.optimizer_offload": ("offload", "offload_bool"),
        "actor_rollout_ref.actor.fsdp_config.param_offload": ("offload", "param_offload_bool"),
        "algorithm.adv_estimator": ("algorithm", "rl_type"),
        "trainer.total_epochs": ("epochs", "epochs"),
        "trainer.n_gpus_per_node": ("gpu_count", "gpu_product"),
        "trainer.nnodes": ("gpu_count", "gpu_product"),
        # a reference model only with either KL switched on (estimator.rl_reference: both default false)
        "actor_rollout_ref.actor.use_kl_loss": ("kl_beta", "verl_kl"),
        "actor_rollout_ref.actor.kl_loss_coef": ("kl_beta", "verl_kl"),
        "algorithm.use_kl_in_reward": ("kl_beta", "verl_kl"),
        "algorithm.kl_ctrl.kl_coef": ("kl_beta", "verl_kl"),
    },
    "openrlhf": {
        "--micro_train_batch_size": ("batch_size", "int"), "--train_batch_size": ("global_batch", "int"),
        "--max_len": ("seq_len", "int"), "--prompt_max_len": ("seq_len", "prompt_length"),
        "--generate_max_len": ("max_completion_length", "int"),
        "--n_samples_per_prompt": ("num_generations", "generations"),
        "--max_epochs": ("epochs", "epochs"), "--lora_rank": ("lora_rank", "int"),
        "--lora_alpha": (None, "no_field"), "--target_modules": ("lora_targets", "targets"),
        "--zero_stage": ("zero_stage", "zero_stage"), "--adam_offload": ("offload", "offload_bool"),
        "--gradient_checkpointing": ("recompute", "recompute"), "--bf16": ("precision", "precision"),
        "--load_in_4bit": ("method", "bits"), "--vllm_tensor_parallel_size": ("rollout_tp", "int"),
        "--vllm_gpu_memory_utilization": ("rollout_gpu_memory_utilization", "vllm_share"),
        "--packing_samples": ("packing", "packing_bool"),
        "--rollout_batch_size": ("rollout_batch", "int"), "--rollout.batch_size": ("rollout_batch", "int"),
        "--micro_rollout_batch_size": (None, "no_field"), "--rollout.micro_batch_size": (None, "no_field"),
        # ray placement: the actor's GPUs are the run's; the vLLM engines' (× their TP), the reference,
        # critic and reward models' GPUs and the colocation flags change the answer, no field yet (named)
        "--actor_num_nodes": ("gpu_count", "actor_gpus"),
        "--actor_num_gpus_per_node": ("gpu_count", "actor_gpus"),
        "--actor.num_nodes": ("gpu_count", "actor_gpus"),
        "--actor.num_gpus_per_node": ("gpu_count", "actor_gpus"),
        "--vllm_num_engines": ("gpu_count", "placement"), "--vllm.num_engines": ("gpu_count", "placement"),
        "--vllm.tensor_parallel_size": ("rollout_tp", "int"),
        "--ref_num_nodes": ("gpu_count", "placement"), "--ref_num_gpus_per_node": ("gpu_count", "placement"),
        "--critic_num_nodes": ("gpu_count", "placement"),
        "--critic_num_gpus_per_node": ("gpu_count", "placement"),
        "--reward_num_nodes": ("gpu_count", "placement"),
        "--reward_num_gpus_per_node": ("gpu_count", "placement"),
        "--colocate_actor_ref": (None, "no_field"), "--colocate_all_models": (None, "no_field"),
        "--colocate_critic_reward": (None, "no_field"),
        "--init_kl_coef": ("kl_beta", "kl_beta"), "--algo.kl.init_coef": ("kl_beta", "kl_beta"),
        # v0.11's dotted names of the same settings (openrlhf/cli/train_ppo_ray.py @3c3be62 L373–419)
        "--rollout.n_samples_per_prompt": ("num_generations", "generations"),
        "--rollout.max_new_tokens": ("max_completion_length", "int"), "--data.max_len": ("seq_len", "int"),
        "--train.micro_batch_size": ("batch_size", "int"), "--train.batch_size": ("global_batch", "int"),
        "--train.max_epochs": ("epochs", "epochs"), "--ds.zero_stage": ("zero_stage", "zero_stage"),
        "--ds.adam_offload": ("offload", "offload_bool"), "--ds.packing_samples": ("packing", "packing_bool"),
        "--actor.gradient_checkpointing_enable": ("recompute", "recompute"),
        "--vllm.gpu_memory_utilization": ("rollout_gpu_memory_utilization", "vllm_share"),
        "--ref.num_nodes": ("gpu_count", "placement"), "--ref.num_gpus_per_node": ("gpu_count", "placement"),
    },
    "ms-swift": {
        **_HF, "max_length": ("seq_len", "swift_max_length"),
        "lora_rank": ("lora_rank", "int"), "lora_alpha": (None, "no_field"),
        "target_modules": ("lora_targets", "targets"), "train_type": ("method", "tuner"),
        "tuner_type": ("method", "tuner"), "quant_bits": ("method", "bits"),
        "torch_dtype": ("precision", "precision"), "rlhf_type": ("algorithm", "rl_type"),
        "num_generations": ("num_generations", "generations"),
        "max_completion_length": ("max_completion_length", "int"),
        "vllm_tensor_parallel_size": ("rollout_tp", "int"),
        "vllm_gpu_memory_utilization": ("rollout_gpu_memory_utilization", "vllm_share"),
        "packing": ("packing", "packing_bool"), "use_vllm": ("runtime", "rollout_switch"),
        "ds3_gather_for_generation": ("ds3_gather_for_generation", "gather_bool"),
        "beta": ("kl_beta", "kl_beta"),
    },
    "peft": {
        "r": ("lora_rank", "int"), "lora_alpha": (None, "no_field"),
        "target_modules": ("lora_targets", "targets"),
    },
    "xtuner": {
        "max_length": ("seq_len", "int"), "batch_size": ("batch_size", "int"),
        "accumulative_counts": (None, "accumulation"), "max_epochs": ("epochs", "epochs"),
        "pack_to_max_length": (None, "no_field"), "sequence_parallel_size": (None, "no_field"),
    },
    "megatron": {
        "--tensor-model-parallel-size": ("tp", "int"), "--pipeline-model-parallel-size": ("pp", "int"),
        "--seq-length": ("seq_len", "int"), "--micro-batch-size": ("batch_size", "int"),
        "--global-batch-size": ("global_batch", "int"),
        "--train-samples": ("num_samples", "int"),  # round 22: sequences of --seq-length over the run
    },
    "vllm": {
        "--tensor-parallel-size": ("tp", "int"), "-tp": ("tp", "int"),
        "--pipeline-parallel-size": ("pp", "int"), "-pp": ("pp", "int"),
        "--gpu-memory-utilization": ("gpu_memory_utilization", "float"), "--dtype": ("precision", "dtype"),
        "--kv-cache-dtype": ("kv_precision", "kv"), "--cpu-offload-gb": ("offload", "offload_gb"),
        "--quantization": ("precision", "quant"), "-q": ("precision", "quant"),
        "--max-num-seqs": ("concurrency", "int"), "--model": ("model", "str"),
        "--max-num-batched-tokens": ("max_num_batched_tokens", "int"),  # s46: the prefill chunk profiled
        "--enforce-eager": ("enforce_eager", "flag"), "--max-model-len": ("max_model_len", "int"),  # s34
    },
    "sglang": {
        "--tp": ("tp", "int"), "--tp-size": ("tp", "int"), "--pp": ("pp", "int"), "--pp-size": ("pp", "int"),
        "--mem-fraction-static": ("gpu_memory_utilization", "float"), "--dtype": ("precision", "dtype"),
        "--kv-cache-dtype": ("kv_precision", "kv"), "--quantization": ("precision", "quant"),
        "--max-running-requests": ("concurrency", "int"), "--torchao-config": ("precision", "quant"),  # s49
        "--model-path": ("model", "str"), "--model": ("model", "str"),
        "--context-length": ("max_model_len", "int"), "--cpu-offload-gb": ("offload", "offload_gb"),
        "--enable-dp-attention": ("dp_attention", "flag"),  # MLA: each GPU its own sequences' latent
    },
    "lmdeploy": {
        "--tp": ("tp", "int"), "--model-format": ("precision", "quant"),
        "--cache-max-entry-count": ("gpu_memory_utilization", "float"),
        "--max-batch-size": ("concurrency", "int"), "--dtype": ("precision", "dtype"),
        "--session-len": ("max_model_len", "int"),
        "--max-concurrent-requests": ("concurrency", "int"),  # round 7: the api_server's cap on requests
    },
    "tgi": {
        "--num-shard": ("tp", "int"), "--sm-num-gpus": ("tp", "int"),  # sagemaker-entrypoint.sh: NUM_SHARD
        "--max-input-length": ("prompt_tokens", "int"), "--max-input-tokens": ("prompt_tokens", "int"),
        "--quantize": ("precision", "quant"), "--kv-cache-dtype": ("kv_precision", "kv"),
        "--cuda-memory-fraction": ("gpu_memory_utilization", "float"), "--dtype": ("precision", "dtype"),
        "--model-id": ("model", "str"), "--max-total-tokens": ("max_model_len", "int"),
        "--max-concurrent-requests": ("concurrency", "int"),  # round 7: served at once, the rest refused
    },
    "llama.cpp": {
        "-c": ("seq_len", "slots_context"), "--ctx-size": ("seq_len", "slots_context"),
        "-np": ("concurrency", "int"),
        "-n": ("max_completion_length", "int"), "--n-predict": ("max_completion_length", "int"),
        "--parallel": ("concurrency", "int"), "-m": ("model", "str"), "--model": ("model", "str"),
        "-hf": ("model", "str"), "--hf-repo": ("model", "str"), "-ngl": ("offload", "gpu_layers"),
        "--n-gpu-layers": ("offload", "gpu_layers"), "--gpu-layers": ("offload", "gpu_layers"),
        "-ctk": ("kv_precision", "ggml_kv"), "--cache-type-k": ("kv_precision", "ggml_kv"),
        "-ctv": ("kv_precision", "ggml_kv"), "--cache-type-v": ("kv_precision", "ggml_kv"),
        "-fa": ("flash_attention", "fa"), "--flash-attn": ("flash_attention", "fa"),
    },
    "xinference": {
        "--model-name": ("model", "str"), "-n": ("model", "str"),
        "--size-in-billions": ("model", "size_billions"), "-s": ("model", "size_billions"),
        "--model-format": ("precision", "xinf_format"), "-f": ("precision", "xinf_format"),
        "--quantization": ("precision", "xinf_quant"), "-q": ("precision", "xinf_quant"),
        "--model-engine": ("runtime", "xinf_engine"), "-en": ("runtime", "xinf_engine"),
        "--n-gpu": ("tp", "int"), "--replica": ("gpu_count", "xinf_replicas"),
        "-r": ("gpu_count", "xinf_replicas"), "--gpu-idx": ("gpu_count", "xinf_gpu_idx"),
        "--n-worker": (None, "no_field"),
        # the engine's own keys, forwarded by `launch` (vLLM's VLLMModelConfig, underscores as written)
        "--tensor_parallel_size": ("tp", "int"), "--pipeline_parallel_size": ("pp", "int"),
        "--gpu_memory_utilization": ("gpu_memory_utilization", "float"),
        "--max_model_len": ("max_model_len", "int"), "--max_num_seqs": ("concurrency", "int"),
        "--max_num_batched_tokens": ("max_num_batched_tokens", "int"),
    },
    "trtllm": {
        "--tp_size": ("tp", "int"), "--pp_size": ("pp", "int"), "--max_seq_len": ("max_model_len", "int"),
        "--max_batch_size": ("concurrency", "int"), "--max_num_tokens": (None, "no_field"),
        "--kv_cache_free_gpu_memory_fraction": (None, "no_field"),
    },
}  # fmt: skip
"""Tool → its key or flag → (request field, conversion)."""

SOURCES = {
    "llamafactory": "hiyouga/LLaMA-Factory@7af9095 (v0.9.5) src/llamafactory/hparams/*_args.py",
    "trl": "huggingface/trl@f2cd577 trl/trainer/{sft,dpo,grpo}_config.py; transformers 5.6.0 "
    "training_args.py",
    "llama-recipes": "meta-llama/llama-cookbook@1a97f6f src/llama_cookbook/configs/{training,fsdp}.py",
    "axolotl": "axolotl-ai-cloud/axolotl@067b021 src/axolotl/utils/schemas/{config,peft,training}.py",
    "torchtune": "pytorch/torchtune@a6290a5 (v0.6.1) recipes/configs/llama3_1/8B_lora.yaml, "
    "recipes/lora_finetune_distributed.py",
    "deepspeed": "deepspeedai/DeepSpeed@cf44300 (v0.19.5) deepspeed/runtime/config.py, "
    "runtime/zero/{config,offload_config}.py, runtime/tensor_parallel/config.py (AutoTP autotp_size: TP)",
    "scripts": "THUDM/ChatGLM-6B ptuning/arguments.py (max_source_length, max_target_length); "
    "huggingface/transformers examples/pytorch/language-modeling/run_clm.py DataTrainingArguments "
    "(max_train_samples: the training examples truncated to that many; MedicalGPT's pretraining.py and "
    "supervised_finetuning.py copy it); user scripts",
    "verl": "volcengine/verl@b178a3c verl/trainer/config/ppo_trainer.yaml (+ rollout/rollout.yaml, "
    "actor/actor.yaml: rollout.n responses per prompt, tensor_model_parallel_size of the rollout engine, "
    "data.train_batch_size prompts per step)",
    "openrlhf": "OpenRLHF/OpenRLHF@3c3be62 (v0.11.0) openrlhf/cli/train_{sft,dpo,ppo_ray}.py (argparse help "
    "texts; train_ppo_ray.py: --actor_num_nodes default 1, --actor_num_gpus_per_node default 8, "
    "--vllm_num_engines × --vllm_tensor_parallel_size GPUs for the vLLM rollout engines)",
    "ms-swift": "modelscope/ms-swift@3602360 swift/arguments/{base_args/base_args,tuner_args,sft_args,"
    "rlhf_args}.py (deepspeed zero0…zero3_offload: sft_args.py; train_type is 3.x's tuner_type; "
    "max_completion_length 512: rlhf_args.py); docs/source_en/Instruction/Command-line-parameters.md "
    "@3602360: 'In PPO, GRPO, GKD and inference scenarios, `max_length` refers to `max_prompt_length`'",
    "peft": "huggingface/peft@5d602fd src/peft/tuners/lora/config.py (LoraConfig)",
    "xtuner": "InternLM/xtuner@b934f46 xtuner/configs/qwen/qwen1/qwen_7b/qwen_7b_qlora_alpaca_e3.py (PART 1 "
    "Settings: 'batch_size = 1  # per_device', accumulative_counts, max_length, max_epochs)",
    "megatron": "NVIDIA/Megatron-LM@5be9626 (core_v0.19.0) megatron/training/arguments.py",
    "vllm": "PyPI wheel vllm==0.33.0 vllm/engine/arg_utils.py (EngineArgs)",
    "sglang": "PyPI wheel sglang==0.5.23 sglang/srt/server_args.py (flags; the default mem_fraction_static "
    "the estimator uses is v0.5.2's reserve table: estimator/runtimes/sglang.py)",
    "lmdeploy": "InternLM/lmdeploy@1263d5c lmdeploy/cli/utils.py (ArgumentHelper); lmdeploy/cli/serve.py "
    "(api_server --max-concurrent-requests: the requests the server handles at once)",
    "tgi": "huggingface/text-generation-inference@db931fc launcher/src/main.rs (--max-concurrent-requests: "
    "'the maximum amount of concurrent requests for this particular deployment')",
    "llama.cpp": "ggml-org/llama.cpp@0c1e570 common/arg.cpp (-c/--ctx-size, -np/--parallel); "
    "tools/server/server.cpp server_context init(): 'n_ctx_slot = n_ctx / params_base.n_parallel' (-c is "
    "all -np slots' context together)",
    "xinference": "xorbitsai/inference@7ecec16 (v3.2.0+61) xinference/deploy/cmdline.py (`launch` options; "
    "unknown --key value pairs forwarded to the engine); xinference/model/llm/vllm/core.py (VLLMModelConfig; "
    "tensor_parallel_size defaults to the launch's GPU count)",
    "trtllm": "NVIDIA/TensorRT-LLM@4c05a74 tensorrt_llm/commands/serve.py (--max_batch_size: requests "
    "scheduled at once; --kv_cache_free_gpu_memory_fraction: share of the memory left after the weights)",
}
"""Where each tool's meanings are taken from (the flag table's ``source`` has the full reference)."""

TRAINING = ("llamafactory", "trl", "axolotl", "torchtune", "deepspeed", "scripts", "verl", "openrlhf",
            "ms-swift", "peft", "xtuner", "llama-recipes")  # fmt: skip
"""Tools whose rows the training-config reader dispatches on (flattened keys, dashes dropped)."""
SERVING = ("vllm", "sglang", "lmdeploy", "tgi", "llama.cpp", "trtllm", "xinference")
"""Tools whose rows the serving-command reader dispatches on (flags as written)."""
ALIASES = {
    ("sglang", "--tp"): "--tp-size", ("sglang", "--pp"): "--pp-size", ("tgi", "--sm-num-gpus"): "--num-shard",
    ("sglang", "--torchao-config"): "--quantization",
}  # fmt: skip
"""Rows written as people write the flag, not as the table has it: SGLang's argparse takes '--tp' as the
one flag it abbreviates ('--tp-size', allow_abbrev), and '--pp' is what people write for '--pp-size' (the
parser itself rejects it as ambiguous beside --pp-async-batch-depth and --pp-max-micro-batch-size); TGI's
SageMaker image reads ``SM_NUM_GPUS`` and passes it as ``NUM_SHARD`` (sagemaker-entrypoint.sh), the
launcher's --num-shard; SGLang's older --torchao-config (not in 0.5.23) a weight format as --quantization."""
UNTABLED = ("scripts",)
"""Rows of keys no tool table has (research scripts people paste): exempt from the flag-table check."""


def bare(key: str) -> str:
    """A flag as the training reader flattens it: dashes dropped ('--lora_rank' → 'lora_rank')."""
    return key.lstrip("-").replace("-", "_") if key.startswith("-") else key


SWIFT_PROMPT_BOUNDED = frozenset({"grpo", "ppo", "gkd"})
"""ms-swift --rlhf_type values whose --max_length bounds the prompt (its Command-line-parameters.md): read
by the config reader (:mod:`bot.parse.configs.rl_handlers`) and in prose
(:data:`bot.parse.vocab_patterns.SWIFT_RL_RE`)."""
SHARED_DEFAULT = {"batch_size": "torchtune", "max_length": "llamafactory"}
"""Flattened keys that tools read differently, each with the tool whose row is read when the tool is not
known (prose): axolotl's ``batch_size`` is the effective batch (gradient_accumulation_steps = batch_size /
micro_batch_size, axolotl's config docs / utils/config normalize_config), torchtune's and xtuner's the
batch per device; ms-swift's ``max_length`` bounds the prompt in GRPO/PPO/GKD, LLaMA-Factory's and
xtuner's the whole sample. A reader that knows the tool reads that tool's row (:func:`tool_rows`)."""


@cache
def tool_rows(tool: str) -> dict[str, Row]:
    """One training tool's rows under their flattened key."""
    return {bare(key): row for key, row in MEANING[tool].items()}


@cache
def training_rows() -> dict[str, Row]:
    """Every training tool's rows under their flattened key: a key two tools share means the same, or is
    declared in :data:`SHARED_DEFAULT` (then the default tool's row); any other disagreement raises, so
    no tool's row wins by coming first."""
    out: dict[str, Row] = {}
    for tool in TRAINING:
        for key, row in tool_rows(tool).items():
            if key in SHARED_DEFAULT:
                out[key] = tool_rows(SHARED_DEFAULT[key])[key]
            elif out.setdefault(key, row) != row:
                raise ValueError(f"{tool}'s {key!r} means {row}, another tool's {out[key]}: SHARED_DEFAULT")
    return out


@cache
def short_forms() -> dict[str, str]:
    """A nested key's shorter written forms → the key: each dotted tail of two or more parts
    ('rollout.n', 'rollout.tensor_model_parallel_size') and the last part when it is a compound word
    ('ppo_micro_batch_size_per_gpu', 'max_response_length'), where one key alone has it and no tool
    has it as a key of its own (Megatron's 'tensor_model_parallel_size' stays Megatron's)."""
    from bot.parse.configs.vocab import keys
    from bot.recipes.flags import FILES, READ_ONLY

    seen: dict[str, set[str]] = {}
    for key in training_rows():
        parts = key.split(".")
        tails = [".".join(parts[i:]) for i in range(1, len(parts) - 1)]
        tails += [parts[-1]] if len(parts) > 1 and "_" in parts[-1] else []
        for tail in tails:
            seen.setdefault(tail, set()).add(key)
    owned = {bare(k) for tool in {*FILES, *READ_ONLY} for k in keys(tool)}
    return {t: next(iter(k)) for t, k in seen.items() if len(k) == 1 and t not in owned}
