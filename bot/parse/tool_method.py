"""The fine-tuning method a named training tool runs when the text names none (trial s28 H3).

An RL or preference algorithm alone ('GRPO', 'DPO') reads as full fine-tuning
(:func:`bot.parse.words.method_from_words`). Unsloth trains adapters unless told otherwise: its
``FastLanguageModel.from_pretrained`` defaults to ``load_in_4bit = True  # 4bit QLoRA`` and
``full_finetuning = False`` (unslothai/unsloth unsloth/models/loader.py), and every notebook attaches
adapters with ``FastLanguageModel.get_peft_model``. So with Unsloth named and no method word, the method
is left to the estimator, which assumes Unsloth's default and says so
(:func:`estimator.training.training_method`, ``Why.unsloth_default``).
"""

from __future__ import annotations

from typing import Any

from bot.parse import lexicon as lx

ADAPTER_DEFAULT_TOOLS = frozenset({"Unsloth"})
"""Training tools whose own default is an adapter method (module doc)."""


def tool_default_method(f: dict[str, Any], s: str) -> str | None:
    """``f``'s method, or None where it was only implied by the algorithm and the tool's own default
    decides (:data:`ADAPTER_DEFAULT_TOOLS`); ``s`` is the normalized text."""
    method = f.get("method")
    if method != "full" or f.get("training_tool") not in ADAPTER_DEFAULT_TOOLS:
        return method
    said = lx.FULL_RE.search(s) or ("lora" in s and lx.NEGATED_LORA_RE.search(s))
    return method if said or f.get("stage") != "finetune" else None
