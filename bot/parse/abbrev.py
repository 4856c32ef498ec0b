"""Short forms people type for a stage word, spelt out before the parse steps read the text.

- **ft** ('full ft 7b', 'ft llama3 8b', '微调ft', "ft'd", 'ft-ing'): fine-tuning, the usual short form in
  fine-tuning threads (LLaMA-Factory, axolotl issues). Only the word alone: never inside a name
  ('llama-ft', 'ft8', 'gpt-ft-v2'), so a model typed with it keeps its name."""

from __future__ import annotations

import re

from bot.parse.regex import rc


def _rank_first(m: re.Match[str]) -> str:
    """'a rank-16 LoRA', 'a 16-rank QLoRA': 'qlora lora_rank 16'."""
    return f"{m.group(2) or m.group(4)} lora_rank {m.group(1) or m.group(3)}"


TRAINING_SHORT_FORMS = (
    (
        rc(r"(?<![a-z0-9_\-])ga\s*[=:]?\s*(?=\d{1,3}(?![\d.]|\s*(?:gb|g\b|%)))"),
        "gradient_accumulation_steps ",
    ),
    (rc(r"(?<![a-z0-9_\-])mbs\s*[=:]?\s*(?=\d)"), "micro_batch_size "),
    (rc(r"(?<![a-z0-9_\-])gbs\s*[=:]?\s*(?=\d)"), "global batch "),
    (rc(r"(?<![a-z0-9_\-])micro[\s\-_]*bs\s*[=:]?\s*(?=\d)"), "micro_batch_size "),
    (rc(r"(?<![\d.])([2-8])\s+bits\b"), r"\1bit"),
    (rc(r"\brank[\s\-]+(\d{1,4})\s+(q?lora)\b|\b(\d{1,4})[\s\-]+rank\s+(q?lora)\b"), _rank_first),
)
"""Short forms of training settings (round 4): 'GA 16' (gradient accumulation, as Megatron-LM and verl
threads write it), 'mbs 2' / 'micro bs 2' (micro-batch), 'gbs 512' (global batch, Megatron-LM's
--global-batch-size), 'in 4 bits' (a bit width in the plural: '4bit'), 'a rank-16 LoRA' (its rank)."""
_SHORT_GATE = rc(
    r"(?<![a-z0-9_\-])(?:ga|mbs|gbs|micro[\s\-_]*bs)\s*[=:]?\s*\d|\d\s+bits\b|rank[\s\-]+\d|\d[\s\-]+rank\b"
)
FT_RE = rc(r"(?<![a-z0-9\-_./])ft(?:'d|'ed|ed|'ing|ing)?(?![a-z0-9\-_/]|\.[a-z0-9])")
"""'ft' as a word of its own, with a past or -ing ending ("ft'd", 'fted'), in a normalized text."""


def expand_abbreviations(s: str) -> str:
    """The normalized text with 'ft' spelt 'fine-tune' ('full ft 7b' → 'full fine-tune 7b') and the training
    short forms spelt as their keys."""
    if _SHORT_GATE.search(s):
        for pattern, words in TRAINING_SHORT_FORMS:
            s = pattern.sub(words, s)
    return FT_RE.sub("fine-tune", s) if "ft" in s else s
