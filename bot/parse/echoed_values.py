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
  joining word follows it (:data:`BARE_RE`): 'at 64, but', 'on 4.', never 'at 290 W' nor 'at 2.5G'.

A named ``<field>: <n>`` of concurrency or GPU count is a value listed (bot.parse.value_list.listed): the
answer gives each a row of ``report.per_value``. Gated at its call site (bot.parse.assemble) by an unread item
and one of :data:`bot.parse.assemble.ECHO_CUES` in the message.
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

UNIT_AFTER = {
    "hours": rc(r"(?i)\s*(?:个\s*)?(?:小时|钟头|hours?\b|hrs?\b|h\b)"),
    "concurrency": rc(r"(?i)\s*(?:路\s*)?(?:并发|concurrent\b)"),
}
"""A setting's unit written after its number ('20 小时', '8 hours', '20h', '50 并发', '64 concurrent')."""

USED_FORMS = {
    "concurrency": rc(
        r"(?i)(?P<p>\bat|\bwith)\s+(?:(?:a\s+)?(?:concurrency|concurrent\s+requests?)\s+(?:of\s+)?"
        r"(?P<v>\d{1,6})(?![\d.])|(?P<w>\d{1,6})\s+(?:concurrent|parallel)\b)"
    ),
    "gpu_count": rc(r"(?i)(?P<p>\bon|\bwith|\bacross)\s+(?P<v>\d{1,6})\s+(?:gpus?|cards?)\b"),
}
"""How a value used is written after its preposition, with its setting's word ('at concurrency 4', 'at 4
concurrent requests', 'on 1 GPU of', 'across 2 GPUs'): the preposition ``p``, the value ``v`` (or ``w``)."""

BARE_RE = rc(
    r"(?i)(?P<p>\bat|\bon|\bwith|\bacross)\s+(?P<n>\d{1,6})(?![\d.,]\d)"
    r"(?=\s*(?:[,;:!?)。，；]|\.(?!\d)|$|(?:and|but|to|or|while|vs)\b))"
)
"""A bare number after a preposition, a clause's end or a joining word after it ('at 64, but', 'on 4.'),
never a unit ('at 290 W', 'at 2.5G')."""

NUMBER_RE = rc(r"(?<![\d.,])(?P<n>\d{1,6})(?![\d.])")
"""A whole number as written (not a part of '2.5' nor of '5,719')."""


def _by_unit(s: str, raw: str, request: dict[str, Any]) -> str | None:
    """The field whose unit follows every place ``raw`` is written in ``s``, the request holding another
    value of it."""
    places = [m.end() for m in NUMBER_RE.finditer(s) if m.group("n") == raw]
    for field, unit in UNIT_AFTER.items():
        own = request.get(field)
        if own is None or float(raw) == float(own):
            continue
        if places and all(unit.match(s, end) for end in places):
            return field
    return None


def _by_preposition(s: str, raw: str, request: dict[str, Any]) -> str | None:
    """The field whose value used is written after a preposition that ``raw`` is written after bare."""
    bare = {m.group("p").lower() for m in BARE_RE.finditer(s) if m.group("n") == raw}
    if not bare:
        return None
    for field, form in USED_FORMS.items():
        own = request.get(field)
        if own is None or float(raw) == float(own):
            continue
        for m in form.finditer(s):
            value = m.groupdict().get("w") or m.group("v")
            if value and float(value) == float(own) and m.group("p").lower() in bare:
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
