"""A length in the prose that asks to change the pasted config's (session 19, s19-fix item 10).

'cutoff_len: 1024' in a pasted LLaMA-Factory YAML and '我想改成 4096' / 'I want 4096 tokens instead' in the
message: both say a sequence length. The design's understanding contract (§8) has every value the user
states either used or named as not used with the reason; which one is used follows what the message does
with the config. A message that asks for a change (:data:`CHANGE_RE`: '改成', '换成', '想用', 'instead',
'change it to', 'want to use', …) states the job it asks about: its length is sized, and the config's is
named as not used ('prose_changes'). A message that describes the config ('这是我现在的配置，序列长度
4096') has the config's length win and its own named (``config_differs``, :mod:`bot.parse.configs.merge`).
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

LENGTH_FIELDS = ("seq_len", "max_model_len", "max_completion_length")
"""The lengths a config key and the prose both state (``cutoff_len``, ``max_model_len``, …)."""
CHANGE_RE = rc(
    r"改成|改为|改到|换成|调到|调成|调大到|提到|提高到|增加到|加到|扩到|想用|想要|想改|打算用|准备用|要改|改用"
    r"|\binstead\b|\bchang(?:e|ing)\s+(?:it\s+|that\s+|this\s+|the\s+\w+\s+)?to\b|\bswitch(?:ing)?\s+to\b"
    r"|\b(?:increas|rais|bump|extend)(?:e|es|ing)?\s+(?:it\s+|that\s+|the\s+\w+\s+)?to\b"
    r"|\b(?:want|would\s+like|plan|going|hope)\s+to\s+(?:use|train|run|go|try)\b|\bi['’]d\s+like\b|\bwhat\s+if\b"
)
"""Words that ask for another value than the one in place (the lower-cased, normalized message)."""


def prose_changes(
    text: str, found: list[str], req: Any, update: dict[str, Any], used: dict[str, str]
) -> list[tuple[str, str]]:
    """The config's lengths the message asks to change (``text``: the normalized message without the
    config; ``found``: the fields it states; ``req``: its request; ``update``: the config's values, from
    which each such length is removed; ``used``: the config's keys → fields), each named as not used
    ('prose_changes', 'cutoff_len: 1024'). Nothing without a change word."""
    fields = [
        f
        for f in LENGTH_FIELDS
        if f in update and f in found and getattr(req, f, None) not in (None, update[f])
    ]
    if not fields or not CHANGE_RE.search(text):
        return []
    keys = {field: key for key, field in used.items()}
    out = []
    for field in fields:
        out.append((f"{keys.get(field, field)}: {update.pop(field)}", "prose_changes"))
    return out
