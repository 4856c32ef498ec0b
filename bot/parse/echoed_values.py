"""A setting's other values, said in the same construction as the value used (issue 24 item 4, s43-workmiss).

People who report several runs write each run's setting the way they wrote the first and drop the words the
reader knows it by: 'throughput goes from 120 tok/s at concurrency 4 to 625 at 64', 'took 10553 s on 1 GPU
… and 516 s on 4', '一阶段大概 5 小时、二阶段 20 小时'. The parse reads the first value and used to leave the
others "unread" (no word said what they are). A number left unread is here named as that setting's value of
another run (``"<field>: <n>"``, reason ``other_setup``: the understanding contract, docs/design.md §8), when

- its setting's unit follows it as it follows a value used ('20 小时', '50 并发', '8 hours';
  :data:`UNIT_AFTER`), the request holding a different value of that setting; or
- it is written bare after the preposition the value used was written after, with that setting's word
  ('at concurrency 4' … 'at 64'; 'on 1 GPU' … 'on 4'; :data:`USED_FORMS`), and nothing but a clause's end or a
  joining word follows it (:data:`BARE_END`): 'at 64, but', 'on 4.', never 'at 290 W' nor 'at 2.5G'.

A named ``<field>: <n>`` of concurrency or GPU count is a value listed (bot.parse.value_list.listed): the
answer gives each a row of ``report.per_value``. Gated at its call site (bot.parse.assemble) by an unread item
and one of :data:`CUES` in the message.
"""

from __future__ import annotations

import re
from typing import Any

UNIT_AFTER = {
    "hours": r"\s*(?:个\s*)?(?:小时|钟头|hours?\b|hrs?\b|h\b)",
    "concurrency": r"\s*(?:路\s*)?(?:并发|concurrent\b)",
}
"""A setting's unit written after its number ('20 小时', '8 hours', '20h', '50 并发', '64 concurrent')."""

USED_FORMS = {
    "concurrency": (
        r"(?P<p>\bat|\bwith)\s+(?:a\s+)?(?:concurrency|concurrent\s+requests?)\s+(?:of\s+)?{v}(?![\d.])",
        r"(?P<p>\bat|\bwith)\s+{v}\s+(?:concurrent|parallel)\b",
    ),
    "gpu_count": (r"(?P<p>\bon|\bwith|\bacross)\s+{v}\s+(?:gpus?|cards?)\b",),
}
"""How a value used is written after its preposition, with its setting's word ('at concurrency 4', 'at 4
concurrent requests', 'on 1 GPU of', 'across 2 GPUs'); ``{v}`` is the request's value."""

BARE_END = r"(?=\s*(?:[,;:!?)。，；]|\.(?!\d)|$|(?:and|but|to|or|while|vs)\b))"
"""What may follow a bare number said after the same preposition: a clause's end or a joining word."""

CUES = ("小时", "hour", "hrs", "并发", "concurren", " at ", " on ")
"""Literals one of which the message holds for any rule here to read anything (the gate)."""


def _fmt(value: float) -> str:
    return f"{value:g}"


def _by_unit(s: str, raw: str, request: dict[str, Any]) -> str | None:
    """The field whose unit follows every place ``raw`` is written in ``s``, the request holding another
    value of it."""
    for field, unit in UNIT_AFTER.items():
        own = request.get(field)
        if own is None or float(raw) == float(own):
            continue
        places = list(re.finditer(rf"(?<![\d.,]){re.escape(raw)}(?![\d.])", s))
        if places and all(re.match(unit, s[m.end() :], re.I) for m in places):
            return field
    return None


def _by_preposition(s: str, raw: str, request: dict[str, Any]) -> str | None:
    """The field whose value used is written after a preposition that ``raw`` is written after bare."""
    for field, forms in USED_FORMS.items():
        own = request.get(field)
        if own is None or float(raw) == float(own):
            continue
        for form in forms:
            used = re.search(form.format(v=re.escape(_fmt(float(own)))), s, re.I)
            if used and re.search(rf"{used.group('p')}\s+{re.escape(raw)}(?![\d.,]\d){BARE_END}", s, re.I):
                return field
    return None


def echoed(s: str, items: list[tuple[str, str]], request: dict[str, Any]) -> list[tuple[str, str]]:
    """``items`` (numbers not used, as typed, with why) with each unread whole number that is another run's
    value of a setting the request holds (module doc) named ``("<field>: <n>", "other_setup")``. ``s``: the
    message as the parse reads it; ``request``: the request's fields by name."""
    out = []
    for raw, why in items:
        text = raw.strip()
        field = None
        if why == "unread" and text.isdigit() and len(text) <= 6:
            field = _by_unit(s, text, request) or _by_preposition(s, text, request)
        out.append((f"{field}: {text}", "other_setup") if field else (raw, why))
    return out
