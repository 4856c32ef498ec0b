"""A range of loads ('20 to 100 users', '20-100 并发', '20 到 100 个用户同时用'; s43 issue 24): the service
must hold its upper end, so it is sized there and the lower end named as another setup (``other_setup``), as a
range of context lengths is sized at its longer end (:func:`bot.parse.negated_values.seq_role`). Before, the
first end was sized and the upper named ``repeated``. A question that asks per value ('for each', '分别',
'各要几张') keeps both as they were: its rows size each (:mod:`bot.core.per_value`)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from bot.parse.negated_values import RANGE_END_RE
from bot.parse.regex import rc

PER_VALUE_RE = rc(
    r"(?<![a-z])(?:for\s+each|each\s+(?:of\s+them|one|case|load|value)|respectively|per\s+value"
    r"|for\s+(?:both|every)\s+(?:ends?|values?|loads?|cases?))(?![a-z])|分别|各(?:要|需要|自|用)|每种|每个档"
)
"""Words that ask a figure for each value ('how many GPUs for each', '分别要几张'): the range's ends are
sized one by one, not the upper end alone."""


def upper_load(steps: Any) -> None:
    """The lower end of a range of concurrency roles of ``steps`` (the parse's field steps: ``roles``,
    normalized text ``s``, ``named_unused``) taken out and named ``other_setup``, so the upper end is the
    load sized; nothing when the message asks per value (:data:`PER_VALUE_RE`). Both ends must be read as
    loads, the upper right after the range mark (:data:`bot.parse.negated_values.RANGE_END_RE`)."""
    loads = [r for r in steps.roles if r.role == "concurrency"]
    for low, high in pairwise(loads):
        m = RANGE_END_RE.match(steps.s, low.tok.end)
        if m and m.start(1) == high.tok.start and high.value > low.value and not PER_VALUE_RE.search(steps.s):
            steps.roles.remove(low)
            steps.named_unused.append((low.tok.raw.strip(), "other_setup"))
            return
