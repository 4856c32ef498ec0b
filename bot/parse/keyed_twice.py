"""One setting written twice with two values: two setups tried, not a second value (s47 workmiss, issue 24
item 4 'two setups in one message').

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
