"""The people a service is for, as the sequences it runs at once (trial s21 #3: '公司大概200人用' and
'for 200 employees' were sized as 200 concurrent sequences, 5–20× the load such a company makes).

A head count is not a load: of the people who may use a service (named users) only some are logged in at
a time — 15–25 % in enterprise software measurements (IBM Rational performance engineering field notes,
ratlperfland.com "Measuring capacity, users and rates") — and a chat user has a reply being generated only
part of that time (reading and typing between requests). :data:`ACTIVE_SHARE` of the people at once is
the stated planning assumption; a stated concurrency always wins, and small groups are taken whole.
"""

from __future__ import annotations

import math

ACTIVE_SHARE = 0.10
"""Share of a service's people with a request in flight at once (module docstring: a stated planning
assumption, below the 15–25 % logged in)."""

MIN_POPULATION = 50
"""Fewer people than this are taken as the load as said ('5 people, each with the full 128k context',
'40 employees', 'a 20-person team'): a small team may well all be active at once, and 10 % of them rounds
to a handful."""


def active_sequences(users: int) -> int:
    """Sequences at once for ``users`` people: ⌈users × :data:`ACTIVE_SHARE`⌉, at least 1 (200 → 20)."""
    return max(1, math.ceil(users * ACTIVE_SHARE - 1e-9))
