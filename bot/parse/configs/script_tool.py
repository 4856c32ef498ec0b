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
        "save_steps", "logging_steps",
    }
)  # fmt: skip
"""Hugging Face ``TrainingArguments`` fields (transformers training_args.py) and the example scripts'
``--model_name_or_path``: any Trainer script takes them, so they name no TRL (s33 #5: a bare
'torchrun … train.py --model_name_or_path … --bf16 True' was labelled TRL; prose reads it as PyTorch DDP)."""


def names_trl_keys(pairs: list[tuple[str, Any]]) -> bool:
    """Whether a launched script's flags include one of TRL's own config keys (SFT/DPO/GRPO configs and
    its ModelConfig: ``--max_seq_length``, ``--beta``, ``--num_generations``, ``--use_peft``, ``--lora_r`` …),
    not only ``TrainingArguments``' (:data:`TRAINING_ARGUMENTS_KEYS`)."""
    from bot.parse.configs.vocab import known

    keys = (f.lstrip("-").replace("-", "_") for f, _ in pairs)
    return any(k not in TRAINING_ARGUMENTS_KEYS and known("trl", k) for k in keys)
