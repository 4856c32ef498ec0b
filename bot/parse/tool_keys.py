"""A tool's own key written in prose that changes nothing in the sizing ('learning_rate 2e-5',
'--warmup_ratio 0.03', 'logging_steps=10'): named as not used (``not_sized``), as a pasted config names it
(issue 24 item 3), rather than left as an unread number. A key is a tool's when some tool's flag table has
it (``bot/recipes/flags/<tool>.json``); one the meaning table gives a field is read, never named here
(:mod:`bot.parse.inline_keys`), and a key about the machine (GPUs, nodes, processes) stays with the count
readers, which run later."""

from __future__ import annotations

import re
from functools import cache

COUNT_WORDS = re.compile(r"gpu|node|proc|world|device|worker|replica|instance|machine|rank|shard|parallel")
"""Words of keys the count and layout readers own ('num_gpus', 'nproc_per_node', 'world_size')."""


@cache
def tool_keys() -> frozenset[str]:
    """Every tool's keys, bare ('--warmup-ratio' → 'warmup_ratio'), of the ones with a '_' or a '.'."""
    from bot.parse.configs.vocab import keys
    from bot.recipes.flags import FILES, READ_ONLY

    out: set[str] = set()
    for tool in {*FILES, *READ_ONLY}:
        out |= {k.lstrip("-").replace("-", "_") for k in keys(tool)}
    return frozenset(k for k in out if ("_" in k or "." in k) and not COUNT_WORDS.search(k))


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
