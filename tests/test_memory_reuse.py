"""Issue 23 item 7, the estimate's tail (part s14-tail): the searches of
:func:`estimator.plan.training_memory` that do not depend on the user's count (the fewest GPUs, the
alternatives, the recommended size: :class:`estimator.plan.Searched`) run once when the caller keeps a
``reuse`` dict between two calls at different counts — :func:`estimator.training_plan.memory_and_plan`
lays out the deadline's count, then, when that is below the fewest that fit, the fewest in whole nodes,
and sized every search twice (the corpus's '打算用6万条左右的数据对7B模型做全参GRPO' answer: 5,915
Python calls, 4,109 with the reuse). The answer must be the one of two fresh calls."""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
from estimator import catalog
from estimator.models import SizingRequest
from estimator.plan import training_memory
from tests.test_search_seed import SETUPS

PAIRS = ((8, 64), (1, 16), (None, 2), (1024, None))


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_reused_search_answers_as_two_fresh_ones(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params = spec.params_total
    for flags in ((True, True, None), (False, False, 512)):
        alternatives, recommended, batch = flags
        kw = dict(with_alternatives=alternatives, with_recommended=recommended, global_batch=batch)
        for first, second in PAIRS:
            reuse: dict = {}
            got = [training_memory(spec, params, card, setup, n, **kw, reuse=reuse) for n in (first, second)]
            fresh = [training_memory(spec, params, card, setup, n, **kw) for n in (first, second)]
            assert got == fresh, (setup, flags, first, second)
            assert len(reuse) == 1 and got[0].per_gpu_bytes > 0


def test_the_second_call_runs_no_search_but_the_users_count(monkeypatch: pytest.MonkeyPatch) -> None:
    spec, card = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-40GB")
    setup = SETUPS[1][2]
    calls = {"min_gpus": 0}
    real = plan_module.min_gpus

    def counted(*args, **kwargs):
        calls["min_gpus"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_module, "min_gpus", counted)
    reuse: dict = {}
    training_memory(spec, spec.params_total, card, setup, 2, reuse=reuse)
    searched = calls["min_gpus"]
    assert searched >= 5  # the fewest, four alternatives, without full recompute, the recommended size
    second = training_memory(spec, spec.params_total, card, setup, 16, reuse=reuse)
    assert calls["min_gpus"] == searched
    assert second.plan_gpus == 16 and second.fits_requested is True


def test_an_estimate_below_the_fewest_searches_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline's count below the fewest that fit: memory_and_plan's two layouts, one search."""
    from estimator import estimate

    calls = {"searched": 0, "memory": 0}
    real_searched, real_memory = plan_module._searched, plan_module.training_memory

    def searched(*args, **kwargs):
        calls["searched"] += 1
        return real_searched(*args, **kwargs)

    def memory(*args, **kwargs):
        calls["memory"] += 1
        return real_memory(*args, **kwargs)

    import estimator.training_plan as training_plan

    monkeypatch.setattr(plan_module, "_searched", searched)
    monkeypatch.setattr(training_plan, "training_memory", memory)
    request = SizingRequest(
        stage="finetune", method="full", algorithm="grpo", params_total=7e9, num_samples=60_000
    )
    result = estimate(request)
    assert calls == {"searched": 1, "memory": 2}
    assert result.memory.min_gpus is not None
    assert result.memory.plan_gpus >= result.memory.min_gpus


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_searched_triples_are_built_once_per_shape_as_before(model, gpu, setup) -> None:
    """:func:`estimator.plan._triples` (kept by search shape and stated TP, PP) against the sort every
    search used to run: the same (TP, PP) × EP, in the same order, for each setup the alternatives search."""
    from itertools import product

    from estimator.plan import _ep_options, _pairs, _triples
    from estimator.search_groups import search_shape
    from tests.test_search_seed import _variants

    spec, card = catalog.model(model), catalog.gpu(gpu)
    for variant in _variants(setup):
        former = sorted(
            product(_pairs(spec, card, variant), _ep_options(spec, variant)),
            key=lambda t: t[0][0] * t[0][1] * (t[1] or 1),
        )
        shape = search_shape(spec, card, variant)
        got = _triples(spec, card, variant, shape)
        assert list(got) == former, variant
        assert _triples(spec, card, variant, shape) is got  # kept, not sorted again
