"""Issue 23 item 7, the estimate stage (part s12-faste): :func:`estimator.plan.least_memory_plan` sizes the
layouts from the least memory first (ZeRO-3, full recompute) and gives each the best total so far as its
limit, so :func:`estimator.memory.breakdown_within`'s bounds skip the transients of every layout certainly
above it. The answer must be the former one — every layout sized with no limit, the first of the least
totals in the search's order — over many models, cards, setups and counts."""

from __future__ import annotations

import math

import pytest

from estimator import catalog
from estimator.memory import SearchMemo, breakdown_within
from estimator.plan import _layouts, least_memory_plan
from tests.test_search_seed import SETUPS, _variants

COUNTS = (1, 2, 3, 4, 8, 16, 24, 64, 136, 1024)


def _former(spec, params, gpu, gpus, setup):
    """The former least_memory_plan: every layout with no limit, the first strictly smaller total."""
    best = None
    for plan in _layouts(spec, gpu, gpus, setup):
        parts = breakdown_within(spec, params, setup, plan, math.inf)
        if best is None or sum(parts.values()) < sum(best[1].values()):
            best = (plan, parts)
    return (best[0].to_plan(), best[1]) if best else None


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_bounded_least_memory_plan_is_the_former_one(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, compared = spec.params_total, 0
    for variant in _variants(setup):
        memo = SearchMemo()  # shared over the counts, as training_memory shares its search's
        for gpus in COUNTS:
            former = _former(spec, params, card, gpus, variant)
            assert least_memory_plan(spec, params, card, gpus, variant, memo) == former, (variant, gpus)
            assert least_memory_plan(spec, params, card, gpus, variant) == former, (variant, gpus)
            compared += former is not None
    assert compared > 20
