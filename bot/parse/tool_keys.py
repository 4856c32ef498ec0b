"""A tool's own key written in prose that changes nothing in the sizing ('learning_rate 2e-5',
'--warmup_ratio 0.03', 'logging_steps=10'): named as not used (``not_sized``), as a pasted config names it
(issue 24 item 3), rather than left as an unread number. A key is a tool's when some tool's flag table has
it (``bot/recipes/flags/<tool>.json``); one the meaning table gives a field is read, never named here
(:mod:`bot.parse.inline_keys`), and a key about the machine (GPUs, nodes, processes) stays with the count
readers, which run later."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

COUNT_WORDS = re.compile(r"gpu|node|proc|world|device|worker|replica|instance|machine|rank|shard|parallel")
"""Words of keys the count and layout readers own ('num_gpus', 'nproc_per_node', 'world_size')."""
DATA_SIDE = re.compile(r"preprocess|dataloader|dataset|tokeniz|data_")
"""Words of keys whose workers or processes load data on the CPU ('preprocessing_num_workers',
'dataloader_num_workers', 'dataset_num_proc'): a tool's key that sizes nothing, named as such (round 10:
before, 'preprocessing_num_workers: 16' was left as an unread 16), not a count of GPUs."""


@cache
def tool_keys() -> frozenset[str]:
    """Every tool's keys, bare ('--warmup-ratio' → 'warmup_ratio'), of the ones with a '_' or a '.'."""
    from bot.parse.configs.vocab import keys
    from bot.recipes.flags import FILES, READ_ONLY

    out: set[str] = set()
    for tool in {*FILES, *READ_ONLY}:
        out |= {k.lstrip("-").replace("-", "_") for k in keys(tool)}
    return frozenset(
        k for k in out if ("_" in k or "." in k) and (not COUNT_WORDS.search(k) or DATA_SIDE.search(k))
    )


def tool_key_not_sized(m: re.Match[str]) -> bool:
    """Whether a key–value match (:data:`bot.parse.inline_keys.KEY_VALUE_RE`) is a tool's key with a
    number that no reader sizes: its value is a number and no field's vocabulary has the key."""
    from bot.parse.generic_values import vocabulary

    key, value = m.group("k").replace("-", "_"), m.group("v")
    if not value[:1].isdigit() or key not in tool_keys():
        return False
    spaced = not m.group("sep").strip()
    return not (spaced and not m.group("dash") and "." not in key and key.count("_") < 1) and (
        key not in vocabulary() and key.replace("_", " ") not in vocabulary()
    )


BOOLEAN = frozenset({"recompute", "offload_bool", "param_offload_bool"})
"""Conversions of the meaning table whose key written alone means 'on' (a store_true flag,
``--gradient_checkpointing``), so a negation before it means 'off'."""
NEGATION = (
    r"(?:without|no|not|disable[ds]?|turn(?:ed)?\s+off|关闭了?|关掉了?|去掉了?|不要|不用|不开|没用|没开|没有用|没有开"
    r"|未开启?|未启用|没启用|没有启用)"
)
"""Words that turn a boolean key off when they stand before it ('without gradient_checkpointing',
'没开 --adam_offload', 'no enable_gradient_checkpointing')."""
_NEGATION_GATE = re.compile(r"without|no|not|disable|turn|关|去掉|不|没|未")


@cache
def _negated_re() -> re.Pattern[str]:
    from bot.parse.configs.meaning import short_forms, training_rows

    rows = training_rows()
    keys = [k for k, (_, conv) in rows.items() if conv in BOOLEAN]
    keys += [s for s, k in short_forms().items() if k in keys]
    alt = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.compile(
        rf"(?<![a-z]){NEGATION}\s*(?:the\s+)?-{{0,2}}(?P<k>{alt})(?![a-z0-9_.])(?!\s*[:=]?\s*(?:true|false|on|off|[01])\b)"
    )


def negated_keys(s: str) -> tuple[str, dict[str, Any]]:
    """(``s`` with each negated boolean key masked, the fields they set): a meaning-table key of a boolean
    conversion after a negation, read through its own handler with the value False."""
    if "_" not in s or not _NEGATION_GATE.search(s):
        return s, {}
    from bot.parse.configs.meaning import short_forms
    from bot.parse.configs.model import StackConfig
    from bot.parse.configs.training import HANDLERS

    fields: dict[str, Any] = {}
    for m in list(_negated_re().finditer(s)):
        key = short_forms().get(m.group("k"), m.group("k"))
        cfg = StackConfig(tool="prose", format="prose")
        if HANDLERS[key](cfg, key, False, {}):
            fields.update(cfg.values)
            s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, fields
