"""``Load.with_pp`` (session 11, part z2: the serving layout search copied its load with ``_replace`` on
every candidate) gives the load the former code built, ``load._replace(pp=pp)``, on many loads and stage
counts: equal, of the same type, and the load itself when its stages already match."""

from __future__ import annotations

import itertools

import pytest

from estimator.models import Precision
from estimator.runtimes import NO_LOAD, Load

LOADS = [
    NO_LOAD,
    *(
        Load(context, prompt, batch, precision, pp)
        for context, prompt, batch, precision, pp in itertools.product(
            (None, 2048, 4096, 131072), (None, 512), (1, 16), (None, *Precision), (1, 2, 7)
        )
    ),
]


@pytest.mark.parametrize("pp", [1, 2, 3, 4, 7, 80])
def test_with_pp_is_the_former_replace(pp: int) -> None:
    for load in LOADS:
        new, old = load.with_pp(pp), load._replace(pp=pp)
        assert new == old and type(new) is Load and new.pp == pp
        assert new._asdict() == old._asdict()
        if load.pp == pp:
            assert new is load
