"""The reasons of ``interpretation.ignored`` that name what a training script itself does (ChatGLM3's and
DeepSpeed-Chat's, issue 24 item 3), in words; kept apart from :mod:`bot.render.ignored_texts` (at its
500-line cap), which merges them into ``IGNORED_TEXTS``."""

from __future__ import annotations

from bot.render.i18n import N_

SCRIPT_TEXTS = {
    "script_tool": N_(
        "the tool whose script is read: the script's own settings, named here, are what is sized"
    ),
    "script_fp32": N_(
        "ChatGLM3's script loads the model with no torch_dtype, so transformers (before v5) loads it in "
        "fp32: the frozen weights at 4 bytes each"
    ),
    "script_defaults": N_(
        "DeepSpeed-Chat's step-1 main.py defaults, none of them stated: per_device_train_batch_size 16, "
        "max_seq_len 512, gradient checkpointing off unless --gradient_checkpointing is passed"
    ),
    "script_reference": N_(
        "DeepSpeed-Chat's step 3 loads the reference model as a second copy of the actor's checkpoint and "
        "puts LoRA on the actor only, so the reference is counted as a whole 16-bit copy of the base"
    ),
    "dschat_critic": N_(
        "DeepSpeed-Chat's step 3 loads its critic and its reward model from this model "
        "(--critic_model_name_or_path): both counted at its size"
    ),
    "dschat_critic_trained": N_(
        "DeepSpeed-Chat's step 3 trains its critic, a model of its own, in full (AdamW states) unless "
        "--critic_lora_dim is set, and keeps a frozen reward model of the same size: both counted at the "
        "critic's size — the actor's when no critic model is named"
    ),
}
"""``script_fp32`` (a script that loads with no torch_dtype), ``script_defaults`` (DeepSpeed-Chat step 1's
main.py defaults) and ``script_reference`` (its step 3's reference copy, s48-verdict: bot.parse.script_reads)
→ words."""
