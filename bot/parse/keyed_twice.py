"""One setting written twice with two values: two setups tried, not a second value (s47 workmiss, issue 24
item 4 'two setups in one message').

A second value said in a clause of another card ('4 × H800 上 MFU 能到 46%，8 × 4090 上 MFU 34%', 'the
recipe says 4x H200, and a new config serves it on 2x B200') is that card's setup's likewise
(:func:`other_card_clause`): named ``other_setup``, not ``repeated``.

People report the runs they tried by the line they ran: 'with GPUS_PER_NODE=1 or GPUS_PER_NODE=2',
'nproc_per_node=8 runs out of CPU RAM … with nproc_per_node=4 it OOMs in optimizer.step()', '--tp 2
worked, --tp 4 did not'. Each assignment is a setup of its own; the parser sizes one and named the other
``repeated`` ('a second value for a setting that takes one'), as if the message contradicted itself. A
value of a key the message assigns two different values (``KEY=N`` or ``--key N``, the way launchers and
shell lines write them) is another setup's: its item is named ``other_setup``. Values said once, and the
'from 8 to 4' of one setting changed (``replaced_by_later_value``), are left as they are.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

ASSIGN_RE = re.compile(
    r"(?<![\w\-])(?:--(?P<flag>[A-Za-z][\w\-]{0,40})(?:\s*=\s*|\s+)|(?P<key>[A-Za-z_][\w\-]{0,40})\s*=\s*)"
    r"(?:[A-Za-z_][\w\-]*\s*=\s*)*(?P<value>\d+(?:\.\d+)?)(?!\w|\.\d)"
)
"""'KEY=N' (a chain 'a=b=N' is one assignment) or '--key N' / '--key=N', the value a plain number."""


def twice_assigned(raw: str) -> set[str]:
    """The values (as typed) of each key ``raw`` assigns two or more different values."""
    values: dict[str, set[str]] = defaultdict(set)
    for m in ASSIGN_RE.finditer(raw):
        key = (m.group("flag") or m.group("key") or "").lower().replace("-", "_")
        values[key].add(m.group("value"))
    return {v for vs in values.values() if len(vs) > 1 for v in vs}


def other_setups(raw: str, items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``items`` (text, reason) with each ``repeated`` value of a twice-assigned key (:func:`twice_assigned`)
    named ``other_setup`` instead; the item's text is kept ('2', 'tp: 4')."""
    values = twice_assigned(raw)
    if not values:
        return items
    return [
        (text, "other_setup" if why == "repeated" and text.rsplit(":", 1)[-1].strip() in values else why)
        for text, why in items
    ]


CLAUSE_END_RE = re.compile(r"[,，;；。!?！？\n]|\.(?:\s|$)")
"""What ends a clause (a comma included: '4 × H800 上 MFU 46%，8 × 4090 上 MFU 34%' is two setups)."""


def other_card_clause(s0: str, pos: int, cards: Sequence[Any], sized: object) -> bool:
    """Whether the number at offset ``pos`` of ``s0`` (the parse's normalized text; ``cards``: every
    ``bot.parse.gpus.GpuMention`` said, offsets in the same text) stands in a clause that names a card
    other than the one ``sized`` (its catalog id) and not that one: that card's setup's value."""
    if sized is None or not any(c.gpu_id != sized for c in cards):
        return False
    ends = [m.start() for m in CLAUSE_END_RE.finditer(s0)]
    start = max((e + 1 for e in ends if e < pos), default=0)
    end = min((e for e in ends if e >= pos), default=len(s0))
    here = {c.gpu_id for c in cards if start <= c.start < end}
    return bool(here) and sized not in here
