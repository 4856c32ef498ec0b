"""One value said of several config keys at once (issue 24 item 2): spread to each key.

People write "per_device_train_batch_size 和 gradient_accumulation_steps 都是 1", "both
micro_batch_size and gradient_accumulation_steps are 2", "lora_r, lora_alpha = 16 for both". Each
key of the list gets the value, as if written "per_device_train_batch_size 1, gradient_accumulation_steps
1", so the vocabulary step (:mod:`bot.parse.prose_vocab`) reads every one of them. Keys are config
identifiers (snake_case or --kebab-case, as the tools spell them), never prose words, so "4 A100 and 2
H100 are both 80G" is left alone. The rewrite keeps the text's length (later steps mask in place).
"""

from __future__ import annotations

import re

from bot.parse import fixed_patterns as fp
from bot.parse.regex import rc

_KEY = r"(?:-{1,2}[a-z][a-z0-9]*(?:[_\-][a-z0-9]+)+|(?<![a-z0-9\-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
"""A config key: snake_case, or --kebab-case with its dashes (a bare 'qwen2-7b' before the keys is a model's
name, not a key: round 5, 'qwen2-7b, max_source_length、max_target_length 都尝试过 1024')."""
_JOIN = r"\s*(?:,|/|&|、|，|和|与|跟|及|以及|还有|and|,\s*and)\s*"
_KEYS = rf"(?P<keys>{_KEY}(?:{_JOIN}{_KEY})+)"
_N = r"(?P<n>\d{1,6}(?:\.\d+)?)(?![\da-z]|\.\d)"
_SET = (
    r"(?:=|:|is|are|were|set\s+to|tried|设为|设成|设置为|设置成|改成|改为|调成|调到|开到"
    r"|尝试过|试过|用过|用的|为|是)"  # round 5: 'max_source_length、max_target_length 都尝试过 512'
)
SHARED_RES = (
    rc(rf"{_KEYS}\s*(?:都|均|全都|全部|也都)\s*{_SET}?\s*{_N}"),
    rc(rf"(?:both|all\s+of)\s+{_KEYS}\s*(?:are|were|=|:)?\s*(?:both\s+|all\s+)?{_SET}?\s*{_N}"),
    rc(rf"{_KEYS}\s*(?:are|were)?\s*(?:both|all|each)\s*{_SET}?\s*{_N}"),
    rc(rf"{_KEYS}\s*{_SET}?\s*{_N}\s*(?:for\s+both|for\s+all|each)(?![a-z])"),
)
"""Lists of config keys with one value and a word that says it holds for each ('都', 'both', 'all',
'each')."""
_KEY_RE = rc(_KEY)


def spread_shared_value(s: str) -> str:
    """``s`` with each 'keys … both N' rewritten as 'key1 N, key2 N' (same length; left as written where
    the rewrite would not fit)."""
    if ("_" not in s and "-" not in s) or not fp.SHARED_WORDS.search(s):
        return s  # every key has a "_" or "-" (:data:`_KEY`), and a word says the value is shared
    for pattern in SHARED_RES:
        s = pattern.sub(_spread, s)
    return s


def _spread(m: re.Match[str]) -> str:
    keys = _KEY_RE.findall(m.group("keys"))
    value = m.group("n")
    text = ", ".join(f"{k} {value}" for k in keys)
    original = m.group(0)
    if len(text) > len(original):  # 'a、b 都尝试过 1024' is one character short of 'a 1024, b 1024'
        text = " ".join(f"{k} {value}" for k in keys)
    if len(text) > len(original):
        return original
    return text + " " * (len(original) - len(text))
