"""LoRA on a base loaded in 4 bits is QLoRA (Dettmers et al. 2023, "QLoRA: Efficient Finetuning of
Quantized LLMs": a frozen 4-bit NF4 base, 16-bit LoRA adapters trained through it).

People write the two halves apart: ms-swift's ``sft_type='lora'`` beside ``quantization_bit=4``,
'LoRA 微调，开了 4 比特量化', 'LoRA with load_in_4bit', 'LoRA on the GPTQ-Int4 release' (Qwen's
README calls LoRA on its Int4 models Q-LoRA). A pasted config is read so already
(:func:`bot.parse.configs.training._method`); this is the same rule for prose. 8-bit LoRA stays LoRA
(the estimator's QLoRA is the 4-bit base).
"""

from __future__ import annotations

from typing import Any

FOUR_BIT = frozenset(("int4", "nf4", "fp4"))
"""Precisions of a 4-bit base (the parser's names: 'nf4' and '4bit' are read as int4)."""


def lora_on_four_bits(f: dict[str, Any], precision: str | None) -> str | None:
    """The method of the fields ``f``: 'qlora' for a LoRA fine-tuning whose base is 4-bit — and (round 12)
    for a fine-tuning at 4 bits that names no method ('fine-tune Qwen3-235B, 4-bit is enough', '4bit 微调
    Qwen2.5-7B'): 4-bit weights train only as a frozen base under adapters, so the 4 bits are used, not set
    aside as a full fine-tuning's precision — else as is. A full fine-tuning said stays full."""
    method = f.get("method")
    if method not in ("lora", None) or f.get("methods"):
        return method
    if f.get("stage") == "finetune" and precision in FOUR_BIT:
        return "qlora"
    return method
