"""``difflib.get_close_matches`` with the same answer at a fraction of the cost, for an unknown model
name against the ~180 catalog ids (~0.5-1.7 ms a name with difflib: it computes the full similarity
``SequenceMatcher.ratio()`` of nearly every id, since few fall below a 0.3 cutoff).

The ratio is 2·M/T (M matched characters, T both lengths); ``quick_ratio()`` is the same formula with
the characters the two have in common, an upper bound (M ≤ that count, so the float is never smaller).
That bound is counted here with ``str.count`` (difflib counts it a character at a time, ~2 µs an id).
Candidates are taken in order of that bound, and the ratio stops being computed once the bound falls
below the n-th best ratio found: no candidate left can enter the n best. The n best are then picked
as difflib picks them (``heapq.nlargest`` of (ratio, id) pairs), so ties go the same way.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from difflib import SequenceMatcher


def close_matches(word: str, possibilities: Sequence[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Exactly ``difflib.get_close_matches(word, possibilities, n, cutoff)`` (tests/test_close_names.py)."""
    if not n > 0:
        raise ValueError(f"n must be > 0: {n!r}")
    if not 0.0 <= cutoff <= 1.0:
        raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
    s = SequenceMatcher()
    s.set_seq2(word)
    chars = tuple(set(word))
    counts = tuple(map(word.count, chars))
    bounded: list[tuple[float, str]] = []
    for x in possibilities:
        length = len(x) + len(word)
        # _ratio's arithmetic written out (a frame a name less): real_quick_ratio(), then quick_ratio() in C
        if (2.0 * min(len(x), len(word)) / length if length else 1.0) >= cutoff:
            matches = sum(map(min, counts, map(x.count, chars)))
            bound = 2.0 * matches / length if length else 1.0
            if bound >= cutoff:
                bounded.append((bound, x))
    bounded.sort(key=lambda pair: pair[0], reverse=True)
    scored: list[tuple[float, str]] = []
    nth = -1.0  # the n-th best ratio so far (none yet)
    for bound, x in bounded:
        if len(scored) >= n and bound < nth:
            break  # this bound and every later one are below the n-th best: none can enter
        s.set_seq1(x)
        ratio = s.ratio()
        if ratio >= cutoff:
            scored.append((ratio, x))
            if len(scored) >= n:
                nth = heapq.nlargest(n, scored)[-1][0]
    return [x for _score, x in heapq.nlargest(n, scored)]


def _ratio(matches: int, length: int) -> float:
    """difflib's ``_calculate_ratio``: 2·matches/length, 1.0 for two empty sequences."""
    return 2.0 * matches / length if length else 1.0
