"""A training tool's stage key written in prose or a pasted command line ('--stage pt', 'stage: sft',
'rl: dpo'): the stage it names, as a pasted config's ``stage`` is read (round 3 of the real questions:
'对 Qwen-14B 做预训练：--stage pt --finetuning_type lora' was sized as a fine-tuning because of the word in
``finetuning_type``). LLaMA-Factory's ``pt`` trains the weights of ``model_name_or_path`` further: a
continued pre-training (:data:`bot.parse.configs.training.STAGES`). LoRA's own keys likewise say the
method when no word did (:func:`adapter_keys_method`)."""

from __future__ import annotations

from typing import Any

from bot.parse import lexicon as lx
from bot.parse.configs.training import STAGES
from bot.parse.regex import rc

STAGE_KEY_RE = rc(r"(?<![a-z_])(?:--stage|stage\s*[:=])\s*(?P<v>[a-z]+)\b")
"""'--stage pt', 'stage: sft', 'stage=dpo'."""


def stage_key(s: str) -> tuple[str, str | None] | None:
    """(stage, algorithm) named by a stage key in the normalized text ``s``, else None."""
    if "stage" not in s:
        return None
    m = STAGE_KEY_RE.search(s)
    return STAGES.get(m.group("v")) if m else None


def adapter_keys_method(f: dict[str, Any], s: str) -> str | None:
    """LoRA's own keys ('lora_rank 16', 'lora_target all') say the method when no word did: a DPO or
    GRPO run (full by default) with them is a LoRA run (round 3: 'DPO … lora_rank 16' was sized full).
    'full' said in words ('全参', 'full fine-tune') or LoRA negated keeps the method named."""
    method = f.get("method")
    switched = "use" in s and ADAPTER_SWITCH_RE.search(s) is not None  # s23: '--use_peft', '--use-delta'
    if method not in (None, "full") or not (f.get("lora_rank") or f.get("lora_targets") or switched):
        return method
    if lx.FULL_RE.search(s) or lx.NEGATED_LORA_RE.search(s) or f.get("stage") not in ("finetune", None):
        return method
    return "lora"


ADAPTER_SWITCH_RE = rc(r"(?<![a-z_])-{0,2}use[_\-](?:peft|delta)\b(?!\s*[=:]\s*(?:false|0|no|off)\b)")
"""Switches that turn LoRA on (s23): TRL's ``--use_peft`` (``ModelConfig.use_peft``; trl/trainer/utils.py
``get_peft_config`` returns a ``LoraConfig``) and CPM-Bee's ``--use-delta`` (its finetune_cpm_bee.py wraps
the model in OpenDelta's ``LoraModel``); not when set false ('use_peft=False')."""
ADAPTER_KEY_RE = rc(
    r"(?<![a-z_\-])-{0,2}(?:lora_r|lora_rank|lora_alpha|lora_target(?:_modules)?)\s*[:=]?\s*[\w\[\"']"
)
"""LoRA's own keys with a value ('lora_rank: 64', '--lora_r 16', 'lora_target all'; not vLLM's
'--max-lora-rank', which serves adapters)."""


def adapter_keys_stage(stage: str | None, s: str, explicit: str | None) -> str | None:
    """LoRA's own keys make the job a fine-tuning ('lora_rank: 64 and cutoff_len: 8192 for Qwen3-8B on 2
    3090s, fits?' was sized as serving), unless a serving word (``explicit``, the stage named in words)
    says otherwise; else ``stage`` as is."""
    if stage in (None, "inference") and explicit != "inference" and "lora_" in s and ADAPTER_KEY_RE.search(s):
        return "finetune"
    return stage
