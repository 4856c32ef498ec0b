"""A plural 's' after a card's name that, with an 'S', is another card: 'V100s' is V100s, not the V100S.

'I have 4 V100s' was sized as 4 × V100S-PCIe-32GB (trial s14 #2): the catalog's alias 'v100s' matched
the plural. The text is read before it is lower-cased (:func:`bot.parse.normalize.normalize`): a
lower-case 's' glued to one of these names is the plural ('V100s', '4080s', 'two 4070s'), rewritten
as the name and 'GPUs'; an upper-case one is the S card ('V100S', '4080S' = RTX 4080 Super), and so is
'V100 S' written apart (glued back). Cards whose plain name is not another card keep their 'S' in any
case ('H100s' was always H100: there is no H100S).

:data:`PLURAL_OF` lists the names whose name + 'S' is another card in the catalog
(tests/test_plural_cards.py derives it from ``estimator/data/gpus.toml``), less the L40: threads write
the L40S as 'L40s' (NVIDIA's own L40S pages say 'L40S'; the L40, a visualization card, is rarely meant),
so 'L40s' stays the L40S.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

PLURAL_OF: tuple[str, ...] = ("v100", "4070", "4080", "4070 ti", "4070ti")
"""Names (lower case, as the catalog's aliases) whose name + 's' is another card's alias: V100 / V100S,
RTX 4070 / 4070 Super ('4070s'), RTX 4080 / 4080 Super, RTX 4070 Ti / 4070 Ti Super."""
EXCEPTED: tuple[str, ...] = ("l40",)
"""Names whose 'Xs' means the S card even in lower case ('L40s' is the L40S), named in the module doc."""

_NAMES = "|".join(
    r"[\s\-_]*".join(re.escape(c) for c in n.split(" ")) for n in sorted(PLURAL_OF, key=len, reverse=True)
)
_PLURAL_RE = rc(rf"(?<![A-Za-z0-9])(?P<name>(?i:(?:rtx[\s\-]*)?(?:{_NAMES})))s(?![A-Za-z0-9])")
"""The name, then a lower-case plural 's' ('V100s', 'RTX 4080s')."""
_APART_S_RE = rc(rf"(?<![A-Za-z0-9])(?P<name>(?i:(?:rtx[\s\-]*)?(?:{_NAMES})))[\s\-]S(?![A-Za-z0-9])")
"""The name, a space or hyphen, then an upper-case 'S' ('V100 S', 'V100-S'): the S card."""


_GATE = re.compile("|".join(sorted({re.escape(n.split(" ")[0]) for n in PLURAL_OF})), re.IGNORECASE)
"""Any name's first word (one C-level search, no Python frame per name: parse cost)."""


def plural_cards(text: str) -> str:
    """``text`` (not yet lower-cased) with 'V100s' → 'V100 GPUs' and 'V100 S' → 'V100S' (module doc).
    A text with no such name goes back unchanged after one search."""
    if not _GATE.search(text):
        return text
    text = _APART_S_RE.sub(lambda m: m.group("name") + "S", text)
    return _PLURAL_RE.sub(lambda m: m.group("name") + " GPUs", text)
