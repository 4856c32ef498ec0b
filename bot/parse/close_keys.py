"""A config key written with a typo (issue 24, session 23): 'max_seq_lenght: 4096',
'gradient_accumalation_steps=16', 'tensor_paralel_size 4', 'per_device_train_bacth_size: 2'. People type
keys from memory into chat; before, the general key–value reader (:mod:`bot.parse.generic_values`) knew
only exact spellings, so the value was left unread.

A written key is read as a known key (the reader's vocabulary: the tools' config keys, the serving
flags, the contract's field names) when it is within a small optimal-string-alignment distance of exactly
one field's keys: one edit (a letter inserted, dropped, changed, or two neighbours swapped — Damerau
1964, the four kinds that make up most typing errors) for keys up to :data:`LONG_KEY` characters, two
above it. Only compound keys are tried (a '_' or '-' in them, at least :data:`MIN_KEY` characters), so a
prose word is never bent into a key, and a key the tools know under another meaning ('block_size' of vLLM,
'max_steps') is never read as its neighbour: only a written key no table knows is corrected.
"""

from __future__ import annotations

import re
from functools import cache

MIN_KEY = 8
"""The shortest written key corrected: shorter ones ('lr_r', 'max_len') are too close to too many keys."""
LONG_KEY = 15
"""Keys longer than this may carry two edits ('gradient_acumulation_step')."""


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance of ``a`` and ``b`` (insert, delete, substitute, swap two
    neighbours), stopping above ``limit`` (then ``limit + 1``)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


@cache
def close_field(written: str, items: tuple[tuple[str, str], ...], known: frozenset[str]) -> str | None:
    """The field of the one vocabulary key (``items``: (key with its separators as spaces, field)) that
    ``written`` (a compound key as typed, lower case) misspells, or None: when it is a key some table
    knows (``known``, in the same spaced form), shorter than :data:`MIN_KEY`, or close to the keys of
    no field or of two."""
    spaced = re.sub(r"[\s_\-]+", " ", written.strip("-"))
    if len(spaced) < MIN_KEY or spaced in known or " " not in spaced:
        return None
    limit = 1 if len(spaced) <= LONG_KEY else 2
    near = [(k, f) for k, f in items if " " in k and abs(len(k) - len(spaced)) <= limit and k[0] == spaced[0]]
    fields = {f for k, f in near if _distance(spaced, k, limit) <= limit}
    return fields.pop() if len(fields) == 1 else None
