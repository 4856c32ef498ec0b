"""LoRA on a base loaded in 4 bits is QLoRA (Dettmers et al. 2023, "QLoRA: Efficient Finetuning of
Quantized LLMs": a frozen 4-bit NF4 base, 16-bit LoRA adapters trained through it).

People write the two halves apart: ms-swift's ``sft_type='lora'`` beside ``quantization_bit=4``,
'LoRA 微调，开了 4 比特量化', 'LoRA with load_in_4bit', 'LoRA on the GPTQ-Int4 release' (Qwen's
README calls LoRA on its Int4 models Q-LoRA). A pasted config is read so already
(:func:`bot.parse.configs.training._method`); this is the same rule for prose. 8-bit LoRA stays LoRA
(the estimator's QLoRA is the 4-bit base).
"""

from __future__ import annotations

import re
from typing import Any

FOUR_BIT = frozenset(("int4", "nf4", "fp4"))
"""Precisions of a 4-bit base (the parser's names: 'nf4' and '4bit' are read as int4)."""


_FOUR_BIT_SAID = re.compile(
    r"(?<![\d.])4\s*-?\s*bits?\b|4bit|(?<![a-z])(?:int4|nf4|fp4|q4_\w+|gptq\w*|awq)|4\s*(?:比特|位)"
)
"""A 4-bit precision as written ('4-bit', 'int4', 'NF4', '4 比特', 'GPTQ')."""

_TUNE_WORD = re.compile(r"fine[\s\-]?tun\w*|\btrain\w*|\blora\b|微调|训练|\bsft\b")
"""A fine-tuning said ('fine-tune', 'train', '微调')."""

_SERVE_WORD = re.compile(r"\bserv\w*|\bdeploy\w*|\binferenc\w*|\bhost\w*|部署|推理|上线")
"""A serving said ('serve', 'deploy', 'inference', '部署', '推理')."""


def _said_of_serving(s: str) -> bool:
    """True when every 4-bit precision of the normalized text ``s`` comes after a serving word that is
    itself after the last fine-tuning word before it ('fine-tune Llama-3.1-8B …, then serve it in 4-bit':
    the serving setup, s18-fxa) or in a clause of serving ('…，然后用 int4 部署'); False when one is in the
    fine-tuning's clause or none is written."""
    said = [m.start() for m in _FOUR_BIT_SAID.finditer(s)]
    for at in said:
        tune = max((m.start() for m in _TUNE_WORD.finditer(s, 0, at)), default=-1)
        serve = max((m.start() for m in _SERVE_WORD.finditer(s, 0, at)), default=-1)
        lo = max(s.rfind(c, 0, at) for c in ",，;；。") + 1
        hi = min((i for i in (s.find(c, at) for c in ",，;；。") if i >= 0), default=len(s))
        in_serving = bool(_SERVE_WORD.search(s, lo, hi)) and not _TUNE_WORD.search(s, lo, hi)
        if serve <= tune and not in_serving:
            return False
    return bool(said)


_QUANTIZED_BASE = re.compile(r"quantiz\w*\W{1,4}(?:bnb\.)?(?:nf4|fp4|int4|4\s*-?\s*bits?)")
"""Round 25 en: the base's quantization set apart from the compute precision (litgpt's ``--precision
bf16-true --quantize bnb.nf4-dq``, litgpt/utils.py; 'quantize: int4'): a LoRA on it is QLoRA (the paper's
NF4 storage with a 16-bit compute dtype), though the precision read is the 16-bit one."""


_QUANTIZED_LORA = re.compile(
    r"(?<!8)(?<!8\s)(?<!8-)(?<!8bit\s)(?<!8-bit\s)(?<!8\sbit\s)quantized\s+lora\b"
    r"|\blora\s+(?:on|over|with)\s+(?:a|an|the)?\s*quantized\s+(?:base|model|weights)"
    r"|(?<![8八]\s)(?<![8八])(?<!比特)(?<!位)量化(?:的|版)?\s*lora\b"
)
"""Round 36 en: 'quantized LoRA', 'LoRA on a quantized base', '量化 LoRA' — the Q of QLoRA spelled out, no
bit width said (a width, 'int8' or '8-bit quantized LoRA', is the precision's to decide: 8-bit LoRA stays
LoRA); read only when no precision was read."""


_TRIED = re.compile(
    r"\b(?:if|when|once|whenever)\s+(?:i|we|you)\s+(?:(?:also|then|just)\s+)?(?:turn(?:ed)?\s+on|enable[ds]?"
    r"|switch(?:ed)?\s+on|add(?:ed)?|tr(?:y|ied)|use[ds]?|load(?:ed)?)\b"
    r"|(?:如果|要是|假如|一旦|若)\s*(?:再|也|还)?\s*(?:开启|打开|开了|开|加上|加了|启用|使用|用了|用|换成)"
)
"""s44-workmiss (en39-031): a 4-bit base only tried, in a clause of its own ('if I turn on the 4-bit nf4
BitsAndBytesConfig … it OOMs', '如果开启 4bit 量化就 OOM'): the job asked is the LoRA, the 4-bit one a try."""


def _only_tried(s: str) -> bool:
    """True when every 4-bit precision of the normalized text ``s`` is in a clause (between ',', ';', '.'
    and their Chinese forms) that a try opens (:data:`_TRIED`) before it."""
    said = [m.start() for m in _FOUR_BIT_SAID.finditer(s)]
    for at in said:
        lo = max(s.rfind(c, 0, at) for c in ",，;；。") + 1
        if _TRIED.search(s, lo, at) is None:
            return False
    return bool(said)


def lora_on_four_bits(f: dict[str, Any], precision: str | None, s: str = "") -> str | None:
    """The method of the fields ``f``: 'qlora' for a LoRA fine-tuning whose base is 4-bit — and (round 12)
    for a fine-tuning at 4 bits that names no method ('fine-tune Qwen3-235B, 4-bit is enough', '4bit 微调
    Qwen2.5-7B'): 4-bit weights train only as a frozen base under adapters, so the 4 bits are used, not set
    aside as a full fine-tuning's precision — else as is. A full fine-tuning said stays full. A 4-bit said
    only of the serving after it in the normalized text ``s`` ('…, then serve it in 4-bit', '微调后用 int4
    部署') is that serving's setup and sets no method (s18-fxa). A LoRA whose 4-bit base is only tried ('if I
    turn on 4-bit …', '如果开启 4bit'; s44) stays LoRA, with ``f['methods']`` set to LoRA and QLoRA: a row
    each, as 'LoRA or QLoRA' is sized."""
    method = f.get("method")
    if method not in ("lora", None) or f.get("methods"):
        return method
    four_bit_base = method == "lora" and "quantiz" in s and _QUANTIZED_BASE.search(s) is not None
    if method == "lora" and precision is None and ("quantiz" in s or "量化" in s):  # s40: 'quantized LoRA'
        four_bit_base = four_bit_base or _QUANTIZED_LORA.search(s) is not None
    if f.get("stage") == "finetune" and (precision in FOUR_BIT or four_bit_base):
        if method is None and _said_of_serving(s):
            return method
        if method == "lora" and _only_tried(s):  # s44: the LoRA asked and the 4-bit try, a row each
            f["methods"] = ["lora", "qlora"]
            return method
        return "qlora"
    return method
