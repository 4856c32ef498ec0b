"""Issue 23 item 7 (part s25-spest), the estimate's tail: three searches ask less with the same answer.

1. :func:`estimator.search_groups._first_fitting_multiple` asks no count twice in one group (a range of
   one count; the top, known to fit, reached again by the gallop): 4,444 → 4,215 counts asked over the
   corpus (questions.json and the working splits: 788 estimates).
   (Galloping down from a later group's cap was tried: −13 % on r10work #0, +0.8 % layout tests overall.)
2. :func:`estimator.search_groups.known_unfit`: a count below the fewest GPUs a search of the same memo,
   budget, recompute and card found (one it can answer: 1, 2, 4 below a node, whole nodes) fits nothing,
   so :func:`estimator.plan.best_plan_for` answers None unsized (the user's count that does not fit).
3. :func:`estimator.least_memory.least_memory_plan` sizes the groups lowest floor first and stops at the
   first floor above the best total (tests/test_least_memory_bound.py: the former answer, exhaustively).
"""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
import estimator.search_groups as groups_module
from estimator import catalog, estimate
from estimator.memory import SearchMemo
from estimator.plan import best_plan_for, min_gpus
from estimator.request import SizingRequest
from estimator.search_groups import _first_fitting_multiple, known_unfit
from tests.test_search_seed import SETUPS

QWEN3_235B_ON_32 = {  # r15work #14: Qwen3-235B-A22B on four 8 × H100 nodes
    "stage": "finetune", "model": "Qwen3-235B-A22B", "params_total": 235e9, "params_active": 22e9,
    "gpu": "H100-SXM5-80GB", "gpu_count": 32, "gpu_memory_gib": 80.0,
}  # fmt: skip


@pytest.mark.parametrize("low_first", [False, True])
def test_both_orders_give_the_least_fitting_multiple_asking_each_count_once(low_first) -> None:
    for k_low in range(1, 9):
        for k_high in range(0, 41):
            for threshold in [None, *range(0, 3 * k_high + 3)]:
                asked: list[int] = []

                def fits(n: int, threshold: int | None = threshold, asked: list[int] = asked) -> bool:
                    asked.append(n)
                    return threshold is not None and n >= threshold

                found = _first_fitting_multiple(fits, 3, k_low, k_high, low_first)
                expected = None
                if threshold is not None and k_low <= k_high and threshold <= 3 * k_high:
                    expected = max(k_low, -(-threshold // 3))
                assert found == expected, (k_low, k_high, threshold)
                assert len(asked) == len(set(asked)), asked


def test_a_range_of_one_count_and_a_gallop_to_the_top_ask_once() -> None:
    for low_first in (False, True):
        asked: list[int] = []
        assert _first_fitting_multiple(lambda n, a=asked: a.append(n) or n >= 7, 7, 1, 1, low_first) == 1
        assert asked == [7]  # was [7, 7]
    asked = []
    assert _first_fitting_multiple(lambda n: asked.append(n) or n >= 2, 1, 1, 2) == 2
    assert asked == [2, 1]  # was [2, 1, 2]: the gallop's first step reached the top


def _report_and_counts(fields: dict, monkeypatch: pytest.MonkeyPatch, **patches) -> tuple[str, list[int]]:
    asked: list[int] = []
    real = plan_module.any_layout_fits

    def logged(*args, **kwargs):
        asked.append(args[3])
        return real(*args, **kwargs)

    plan_module.forget_searches()  # each run searches (s33: a job's searches are kept across estimates)
    with monkeypatch.context() as m:
        m.setattr(plan_module, "any_layout_fits", logged)
        for name, value in patches.items():
            m.setattr(plan_module, name, value)
        report = estimate(SizingRequest(**fields))
    return report.model_dump_json(), asked


def test_known_unfit_counts_only_what_the_search_answers() -> None:
    memo = SearchMemo()
    key = (1.0, True, "card")
    memo.fewest[key] = 56
    unfit = [n for n in range(1, 80) if known_unfit(memo, (n, *key), 8)]
    assert unfit == [1, 2, 4, 8, 16, 24, 32, 40, 48]  # not 3, 5–7 nor 12: counts the search never asks
    assert not known_unfit(memo, (32, 0.9, True, "card"), 8)  # another budget: not known
    memo.fewest[key] = 260
    assert [n for n in (1, 6, 259, 260, 261) if known_unfit(memo, (n, *key), 1)] == [1, 6, 259]


def test_the_users_count_below_the_fewest_is_not_sized(monkeypatch) -> None:
    sized: list[int] = []
    real = plan_module._best_plan_for

    def logged(spec, params, gpu, gpus, *args):
        sized.append(gpus)
        return real(spec, params, gpu, gpus, *args)

    monkeypatch.setattr(plan_module, "_best_plan_for", logged)
    new, _ = _report_and_counts(QWEN3_235B_ON_32, monkeypatch)
    sized_new, sized[:] = list(sized), []
    former, _ = _report_and_counts(QWEN3_235B_ON_32, monkeypatch, known_unfit=lambda *a: False)
    assert new == former
    assert len(sized_new) == len(sized) - 1 and 32 in sized  # the user's 32 on the search's memo: unsized
    report = estimate(SizingRequest(**QWEN3_235B_ON_32))
    assert (
        report.memory is not None and report.memory.min_gpus == 56 and report.memory.fits_requested is False
    )


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_every_count_below_the_fewest_fits_nothing(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, per_node = spec.params_total, card.gpus_per_node
    memo = SearchMemo()
    found = min_gpus(spec, params, card, setup, memo=memo)
    fewest = found[0] if found else 2_000
    counts = [n for n in (1, 2, 4) if n < per_node] + [per_node * k for k in range(1, 65)]
    for n in [c for c in counts if c < fewest]:
        assert known_unfit(memo, (n, 1.0, True, groups_module.card_key(card)), per_node)
        assert best_plan_for(spec, params, card, n, setup) is None, n  # sized, no memo
        assert best_plan_for(spec, params, card, n, setup, memo=memo) is None, n


def _former_ordered(layers, heads, kv_heads, per_node, nvlink, gpus, micro_batch, offload, zero_stage,
                    recompute, experts, tp, pp, dp_only):  # fmt: skip
    """The former :func:`estimator.layouts.ordered_layouts` loop: Layouts sorted by plan_preference."""
    from estimator.expert_parallel import ep_degrees
    from estimator.layouts import RECOMPUTE_ORDER, STATED_RECOMPUTE, _divisors, plan_preference, uneven_ok
    from estimator.setup import Layout

    modes = STATED_RECOMPUTE[recompute] if recompute else RECOMPUTE_ORDER
    if (zero_stage is not None and tp is None and pp is None) or dp_only:
        return None  # those two returns are unchanged
    stages = [pp] if pp else _divisors(layers)
    if experts and not pp:
        stages = sorted(
            set(stages) | {p for p in (2**i for i in range(1, layers.bit_length())) if uneven_ok(layers, p)}
        )
    layouts, stated_tp = [], tp
    for tp in (stated_tp,) if stated_tp else (1, 2, 4, 8):
        if tp > gpus or (not stated_tp and (tp > per_node or heads % tp or kv_heads % tp)):
            continue
        for pp in stages:
            if gpus % (tp * pp):
                continue
            dp = gpus // (tp * pp)
            zeros = (zero_stage,) if zero_stage is not None else (0, 1, 2, 3) if dp > 1 else (0,)
            for ep in ep_degrees(experts, dp) if experts else (1,):
                for zero in zeros:
                    for mode in modes:
                        layouts.append(Layout(tp, pp, dp, zero, mode, micro_batch, offload, ep))
    layouts.sort(key=lambda p: plan_preference(p, nvlink, bool(experts), per_node))
    return tuple(layouts)


def _former_grouped(layouts):
    members: dict = {}
    for p in reversed(layouts):
        members.setdefault(p[:3] + p[4:], []).append(p)
    index = {key: i for i, key in enumerate(members)}
    group_of = tuple(index[p[:3] + p[4:]] for p in layouts)
    groups = tuple(tuple(sorted(m, key=lambda p: -p.zero_stage)) for m in members.values())
    return groups_module.Grouped(layouts, group_of, tuple(p.zero_stage for p in layouts), groups)


MODELS = [
    (32, 32, 32, 0),
    (80, 64, 8, 0),
    (61, 128, 128, 256),
    (48, 32, 4, 128),
    (28, 28, 4, 0),
    (40, 40, 40, 8),
]
SETTINGS = [(None, None, None, None, False), (3, None, None, None, False), (None, "full", None, None, False),
            (None, None, 2, 4, False), (None, None, None, 8, False), (1, None, None, None, True),
            (2, "selective", 4, None, False)]  # fmt: skip


@pytest.mark.parametrize(("layers", "heads", "kv_heads", "experts"), MODELS)
def test_layouts_and_their_groups_are_the_former_ones(layers, heads, kv_heads, experts) -> None:
    """4. :func:`estimator.layouts.ordered_layouts` writes each layout's plan_preference out and sorts the
    indices (stable: the same order as sorting the layouts by it); :func:`grouped_layouts` keys the
    groups by itemgetter: the same tuples, groups and order as the former code, over models, cards, counts."""
    from estimator.layouts import ordered_layouts

    compared = 0
    for per_node, nvlink in [(8, True), (8, False), (4, True), (1, False)]:
        for gpus in (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 96, 128, 256, 260, 1024):
            for micro_batch, offload in [(1, False), (2, True)]:
                for zero, recompute, tp, pp, dp_only in SETTINGS:
                    args = (layers, heads, kv_heads, per_node, nvlink, gpus, micro_batch, offload, zero,
                            recompute, experts, tp, pp, dp_only)  # fmt: skip
                    new = ordered_layouts.__wrapped__(*args)
                    former = _former_ordered(*args)
                    if former is not None:
                        assert new == former and all(
                            type(p) is type(q) for p, q in zip(new, former, strict=True)
                        ), args
                        compared += len(new)
                    assert groups_module.grouped_layouts.__wrapped__(*args) == _former_grouped(new), args
    assert compared > 2_000
