"""The GPU names found through a table of their first characters instead of one alternation of every
name (issue 23 item 7: the parse stage's CPU).

The alternation of the catalog's ~360 card names (:func:`bot.parse.gpus._gpu_pattern`) makes the
engine walk every branch at each place a name may start (~9 µs a message, the costliest regex of the
parse). A branch can only match where the text has its first character, so at each such place
(:attr:`GpuTable.places`: the pattern's own look-behind and first-character look-ahead) this module
matches with the same pattern over just the branches that start with the character there or with the
one after a vendor word ('nvidia a100'), in the alternation's order: the same match, the same span,
the same groups (tests/test_parse_gpu_table.py compares it with the full pattern)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.regex import rc

_PLACES = r"[{starts}](?:(?<![a-z0-9][\s\S])|(?<=\dx[\s\S]))(?=(?:(?:{vendors})\s*([\s\S]))?)"
"""Where the full pattern may match: a character it may start with, then its leading look-behind (one
character further back); group 1, the character after a vendor word there ('nvidia a100': 'a').
Written so that it starts with the character class, which the engine scans for in C."""


class GpuTable:
    """Every card name's branch by its first character, and the patterns of those branches.

    ``branches`` are (regex of a name, its first character) in the full alternation's order (longest
    first); ``make(body, starts)`` builds the names' pattern of the alternation ``body``
    (:func:`bot.parse.gpus._gpu_pattern`); ``vendors`` are the words the pattern allows before a name."""

    __slots__ = ("_branches", "_make", "_patterns", "places")

    def __init__(
        self,
        branches: list[tuple[str, str]],
        make: Callable[[str, str], re.Pattern[str]],
        starts: str,
        vendors: tuple[str, ...],
    ) -> None:
        self._branches = branches
        self._make = make
        self._patterns: dict[tuple[str, str], re.Pattern[str] | None] = {}
        after_first = "|".join(f"(?<={re.escape(v[0])}){re.escape(v[1:])}" for v in vendors)
        self.places = rc(_PLACES.format(starts=starts, vendors=after_first))  # compiled when first used

    def _pattern(self, first: str, after_vendor: str) -> re.Pattern[str] | None:
        """The pattern of the branches that start with ``first`` or ``after_vendor``, built once (a
        branch whose name starts with a separator, none today, is kept in every pattern)."""
        key = (first, after_vendor)
        if key not in self._patterns:
            chars = {first, after_vendor, "", " ", "\t", "\n", "\r", "\f", "\v", "-", "_"}
            body = "|".join(alt for alt, c in self._branches if c in chars)
            self._patterns[key] = self._make(body, re.escape(first)) if body else None
        return self._patterns[key]

    def finditer(self, s: str) -> list[re.Match[str]]:
        """The matches of the full pattern in ``s``, in order (what its ``finditer`` yields)."""
        found: list[re.Match[str]] = []
        pos = 0
        patterns = self._patterns
        for place in self.places.finditer(s):
            p = place.start()
            if p < pos:
                continue
            key = (s[p], place.group(1) or "")
            pattern = patterns[key] if key in patterns else self._pattern(*key)
            m = pattern.match(s, p) if pattern is not None else None
            if m is not None:
                found.append(m)
                pos = m.end()
        return found
