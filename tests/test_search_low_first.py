"""Issue 23 item 7 (part s15-est): the fewest-GPUs search asks its first group's bottom count before its
top (:func:`estimator.search_groups._first_fitting_multiple` with ``low_first``). The first (TP, PP, EP)
ranges up to MAX_GPUS_SEARCHED and usually fits at the states' lower bound, so the test at 100,000 GPUs
the search used to ask first is saved. The answer is the same: the predicate is monotonic in the count."""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
from estimator import catalog
from estimator.plan import HEADROOM, MAX_GPUS_SEARCHED, min_gpus
from estimator.search_groups import _first_fitting_multiple
from estimator.setup import TrainingSetup
from tests.test_search_closed_form import SETUPS


def _asked(threshold: int | None, k_low: int, k_high: int, low_first: bool) -> tuple[int | None, list[int]]:
    """The answer for a predicate true from ``threshold`` on (None: never), and the k it was asked at."""
    asked: list[int] = []

    def fits(n: int) -> bool:
        asked.append(n)
        return threshold is not None and n >= threshold

    return _first_fitting_multiple(fits, 1, k_low, k_high, low_first=low_first), asked


@pytest.mark.parametrize("k_low", [1, 2, 5])
@pytest.mark.parametrize("k_high", [1, 4, 9, 40])
def test_both_orders_give_the_least_fitting_multiple(k_low: int, k_high: int) -> None:
    for threshold in [None, *range(0, k_high + 3)]:
        top, _ = _asked(threshold, k_low, k_high, False)
        bottom, _ = _asked(threshold, k_low, k_high, True)
        expected = None
        if threshold is not None and k_low <= k_high and threshold <= k_high:
            expected = max(k_low, threshold)
        assert top == bottom == expected, (threshold, k_low, k_high)


def test_a_fitting_bottom_is_one_test_with_low_first_and_two_without() -> None:
    assert _asked(3, 3, 12_500, True) == (3, [3])
    assert _asked(3, 3, 12_500, False) == (3, [12_500, 3])
    assert _asked(None, 3, 12_500, False) == (None, [12_500])  # the top first: one test when none fits
    assert _asked(None, 3, 12_500, True) == (None, [3, 12_500])


def test_the_70b_search_no_longer_asks_the_largest_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/vs_llm_analysis.py's Llama-2-70B on H100: the first group (TP 1, PP 1) fits at 16 GPUs,
    its lower bound; the test at 100,000 GPUs is not asked, and the answer stays 16."""
    asked: list[int] = []
    real = plan_module.any_layout_fits

    def logged(*args, **kwargs):
        asked.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_module, "any_layout_fits", logged)
    spec = catalog.model("Llama-2-70B")
    found = min_gpus(spec, spec.params_total, catalog.gpu("H100-SXM5-80GB"), TrainingSetup(seq_len=4096))
    assert found is not None and found[0] == 16
    assert MAX_GPUS_SEARCHED not in asked and asked[0] == 16


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_min_gpus_answers_as_with_the_top_asked_first(model, gpu, setup, monkeypatch) -> None:
    """The fewest GPUs, the plan and its parts, at both budgets, with and without full recompute, and
    from a caller's floor and cap: the same as the former order (the top of every group first)."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    cases = [(fraction, full_ok) for fraction in (1.0, HEADROOM) for full_ok in (True, False)]
    new = [min_gpus(spec, spec.params_total, card, setup, f, ok) for f, ok in cases]
    first = new[0][0] if new[0] else None
    capped = min_gpus(spec, spec.params_total, card, setup, at_most=first) if first else None
    real = plan_module._first_fitting_multiple

    def top_first(fits, step, k_low, k_high, low_first=False):
        return real(fits, step, k_low, k_high, low_first=False)

    monkeypatch.setattr(plan_module, "_first_fitting_multiple", top_first)
    former = [min_gpus(spec, spec.params_total, card, setup, f, ok) for f, ok in cases]
    assert new == former
    if first:
        assert capped == min_gpus(spec, spec.params_total, card, setup, at_most=first) == new[0]
