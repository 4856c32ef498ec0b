"""Which training tool a launched script is (torchrun / deepspeed / accelerate launch … <script> <flags>):
its entry point or its own argument names decide which flag table reads its ``--key value`` arguments."""

from __future__ import annotations

from typing import Any

from bot.parse.configs.meaning import MEANING

LLAMA_RECIPES_FLAGS = {"--enable_fsdp", "--peft_method", "--use_fast_kernels", "--batch_size_training"}
"""llama-recipes' (llama-cookbook's) finetuning.py flags no other tool's script takes."""


def script_tool(launcher: str, script: str, pairs: list[tuple[str, Any]]) -> str:
    """The tool whose rows read a launched ``script``'s ``pairs`` (its flags): torchtune for ``tune run``,
    verl / OpenRLHF by module, ColossalAI by its ``--strategy colossalai_*`` (round 23: ColossalAI Chat's
    train_prompts.py), llama-recipes, Megatron-LM and LLaMA-Factory by their own flags; else TRL's."""
    if launcher == "tune":  # tune run <recipe> --config …: torchtune's own keys
        return "torchtune"
    if script.startswith(("verl.", "openrlhf.")):  # python3 -m verl.trainer.main_ppo key=value …
        return script.split(".", 1)[0]
    flags = {f for f, _ in pairs}
    if str(dict(pairs).get("--strategy", "")).startswith("colossalai"):  # r23: ColossalAI Chat's scripts
        return "colossalai"
    if "llama_recipes" in script or "llama_cookbook" in script or flags & LLAMA_RECIPES_FLAGS:
        return "llama-recipes"  # its finetuning.py: train_config's own fields (never TRL's --use_peft)
    if "pretrain_" in script or flags & set(MEANING["megatron"]):
        return "megatron"
    lmf_flags = {"--finetuning_type", "--cutoff_len", "--lora_target", "--template"}
    lmf_script = script.endswith(("src/train.py", "src/train_bash.py")) or "llamafactory" in script
    if launcher in ("llamafactory-cli", "lmf") or lmf_script or flags & lmf_flags:
        return "llamafactory"  # its entry points (train_bash.py before v0.6) and its own argument names
    return "trl"


TRAINING_ARGUMENTS_KEYS = frozenset(
    {
        "bf16", "bf16.enabled", "fp16", "fp16.enabled", "deepspeed", "fsdp", "gradient_accumulation_steps",
        "gradient_checkpointing", "num_train_epochs", "optim", "per_device_train_batch_size",
        "use_liger_kernel", "dtype", "model_name_or_path", "output_dir", "learning_rate", "max_steps",
        "save_steps", "logging_steps", "overwrite_output_dir", "do_train", "do_eval", "eval_strategy",
        "evaluation_strategy", "eval_steps", "per_device_eval_batch_size", "eval_accumulation_steps",
        "weight_decay", "adam_beta1", "adam_beta2", "adam_epsilon", "max_grad_norm", "lr_scheduler_type",
        "lr_scheduler_kwargs", "warmup_ratio", "warmup_steps", "log_level", "logging_dir", "logging_strategy",
        "logging_first_step", "save_strategy", "save_total_limit", "save_only_model", "save_safetensors",
        "seed", "data_seed", "tf32", "local_rank", "dataloader_num_workers", "dataloader_pin_memory",
        "run_name", "disable_tqdm", "remove_unused_columns", "label_names", "load_best_model_at_end",
        "metric_for_best_model", "greater_is_better", "fsdp_config", "label_smoothing_factor", "optim_args",
        "group_by_length", "report_to", "ddp_find_unused_parameters", "ddp_timeout", "push_to_hub",
        "hub_model_id", "gradient_checkpointing_kwargs", "resume_from_checkpoint", "torch_compile",
        "neftune_noise_alpha", "auto_find_batch_size", "include_tokens_per_second",
        "torch_dtype", "attn_implementation", "trust_remote_code",
    }
)  # fmt: skip
"""Hugging Face ``TrainingArguments`` fields (transformers training_args.py: the optimizer, scheduler,
logging, saving, evaluation and data-loader settings), ``from_pretrained``'s ``torch_dtype`` /
``attn_implementation`` / ``trust_remote_code`` and the example scripts' ``--model_name_or_path``: any
Trainer script takes them, so they name no TRL (s33 #5: a bare 'torchrun … train.py --model_name_or_path …
--bf16 True' was labelled TRL; prose reads it as PyTorch DDP; s33 fixc #2: '--lr_scheduler_type cosine
--warmup_ratio 0.03' still named it)."""


def names_trl_keys(pairs: list[tuple[str, Any]]) -> bool:
    """Whether a launched script's flags include one of TRL's own config keys (SFT/DPO/GRPO configs and
    its ModelConfig: ``--max_seq_length``, ``--beta``, ``--num_generations``, ``--use_peft``, ``--lora_r`` …),
    not only ``TrainingArguments``' (:data:`TRAINING_ARGUMENTS_KEYS`)."""
    from bot.parse.configs.vocab import known

    keys = (f.lstrip("-").replace("-", "_") for f, _ in pairs)
    return any(k not in TRAINING_ARGUMENTS_KEYS and known("trl", k) for k in keys)
