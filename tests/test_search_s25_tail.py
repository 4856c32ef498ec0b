"""Issue 23 item 7 (part s25-spest), the estimate's tail: three searches ask less with the same answer.

1. :func:`estimator.search_groups._first_fitting_multiple` with ``near_top``: a later (TP, PP, EP) group of
   the fewest-GPUs search, capped just below the best count found, gallops down from its cap instead of
   up from the states' floor; and no count is asked twice in one group.
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

QWEN72_ON_3060S = {  # r10work #0: six PCs with one 12 GB RTX 3060 each (a node of one card)
    "stage": "finetune", "model": "Qwen-72B", "params_total": 72e9, "gpu": "RTX-3060", "gpu_count": 6,
    "gpu_memory_gib": 12.0, "gpus_per_node": 1,
}  # fmt: skip
QWEN3_235B_ON_32 = {  # r15work #14: Qwen3-235B-A22B on four 8 × H100 nodes
    "stage": "finetune", "model": "Qwen3-235B-A22B", "params_total": 235e9, "params_active": 22e9,
    "gpu": "H100-SXM5-80GB", "gpu_count": 32, "gpu_memory_gib": 80.0,
}  # fmt: skip


@pytest.mark.parametrize("low_first", [False, True])
@pytest.mark.parametrize("near_top", [False, True])
def test_every_order_gives_the_least_fitting_multiple_asking_each_count_once(low_first, near_top) -> None:
    for k_low in range(1, 9):
        for k_high in range(0, 41):
            for threshold in [None, *range(0, k_high + 3)]:
                asked: list[int] = []

                def fits(n: int, threshold: int | None = threshold, asked: list[int] = asked) -> bool:
                    asked.append(n)
                    return threshold is not None and n >= threshold

                found = _first_fitting_multiple(fits, 3, k_low, k_high, low_first, near_top)
                expected = None
                if threshold is not None and k_low <= k_high and threshold <= 3 * k_high:
                    expected = max(k_low, -(-threshold // 3))
                assert found == expected, (k_low, k_high, threshold)
                assert len(asked) == len(set(asked)), asked


def test_near_top_walks_down_from_the_cap() -> None:
    asked: list[int] = []

    def fits(n: int) -> bool:
        asked.append(n)
        return n >= 58

    assert _first_fitting_multiple(fits, 1, 18, 59, near_top=True) == 58
    assert asked == [59, 58, 56, 57]  # up from 18 it was 59, 18, 19, 20, 22, 26, 34, 50, 58 (no 57: 9 + 2)


def _report_and_counts(fields: dict, monkeypatch: pytest.MonkeyPatch, **patches) -> tuple[str, list[int]]:
    asked: list[int] = []
    real = plan_module.any_layout_fits

    def logged(*args, **kwargs):
        asked.append(args[3])
        return real(*args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(plan_module, "any_layout_fits", logged)
        for name, value in patches.items():
            m.setattr(plan_module, name, value)
        report = estimate(SizingRequest(**fields))
    return report.model_dump_json(), asked


def test_the_72b_on_twelve_gigabyte_cards_asks_fewer_counts_with_the_same_answer(monkeypatch) -> None:
    real = plan_module._first_fitting_multiple

    def up_only(fits, step, k_low, k_high, low_first=False, near_top=False):
        return real(fits, step, k_low, k_high, low_first, near_top=False)

    new, asked = _report_and_counts(QWEN72_ON_3060S, monkeypatch)
    former, asked_before = _report_and_counts(QWEN72_ON_3060S, monkeypatch, _first_fitting_multiple=up_only)
    assert new == former
    report = estimate(SizingRequest(**QWEN72_ON_3060S))
    assert report.memory is not None and report.memory.min_gpus == 260  # PP 20 × DP 13, measured s25
    assert len(asked) < 0.9 * len(asked_before)  # 249 vs 286 at s25 (base: 310, with counts asked twice)


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
