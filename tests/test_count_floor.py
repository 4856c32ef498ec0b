"""Issue 23 item 7 (part s15-est): :func:`estimator.search_bounds.count_floor`, one lower bound for every
layout of a count (the states' closed form + the least optimizer-step floor), with which
:func:`estimator.plan.best_plan_for` stops looking for a comfortable layout at a count where none can
be (Llama-2-70B's fewest GPUs, 16 H100s: 24 groups no longer bounded or sized), and
:func:`estimator.plan.min_gpus` rules out whole-node counts. Checked against the exact total of every
layout the search builds, and the layouts chosen against the search without it."""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
from estimator import catalog
from estimator.layout_table import DenseTable
from estimator.memory import SearchMemo, breakdown
from estimator.models import Method
from estimator.plan import HEADROOM, _layouts, best_plan_for, min_gpus
from estimator.search_bounds import _ONE_GPU, _SHARDED, _TWICE, CountFloor, count_floor
from estimator.setup import TrainingSetup
from estimator.transients import step_bytes, zero_buffers
from tests.test_search_closed_form import SETUPS as CLOSED_FORM_SETUPS

SETUPS = [
    *CLOSED_FORM_SETUPS,
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(master_weights=False, seq_len=2048)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(optimizer="adamw8bit", seq_len=2048)),
    ("Llama-2-7B", "A100-SXM4-40GB", TrainingSetup(method=Method.ptuning, seq_len=2048)),
    ("Llama-2-13B", "A100-SXM4-80GB", TrainingSetup(zero_stage=2, seq_len=4096)),
    ("Llama-2-70B", "H100-SXM5-80GB", TrainingSetup(zero_stage=3, seq_len=8192)),
    ("Llama-2-7B", "RTX-4090", TrainingSetup(data_parallel_only=True, seq_len=1024)),
]
COUNTS = (1, 2, 4, 8, 16, 32, 64, 144)
GIB = 2**30
_NO_FLOOR = CountFloor(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  # at(n) = 0: rules nothing out


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_floor_s_steps_are_step_bytes_at_the_count_s_share(model, gpu, setup) -> None:
    """CountFloor.at(n) is S / n + the least of the two step floors written with step_bytes itself at
    T / n parameters (ZeRO-3 capped at its sub-group, ZeRO-0 linear): the coefficients stand for it."""
    spec = catalog.model(model)
    memo = SearchMemo()
    floor = count_floor(spec, spec.params_total, setup, memo)
    for gpus in (*COUNTS, 1024, 100_000):
        share, f = floor.trained / gpus, floor.fragmentation
        s3 = step_bytes(setup, _SHARDED[setup.offload], share).likely
        s0 = step_bytes(setup, _ONE_GPU[setup.offload], share).likely
        bucket = zero_buffers(_SHARDED[setup.offload])
        reference = floor.states / gpus + min(bucket + s3 + f * s3, s0 + f * s0) + floor.context
        assert floor.at(gpus) == pytest.approx(reference, rel=1e-12)


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_count_floor_is_below_every_layout_s_total(model, gpu, setup) -> None:
    """count_floor × the slack ≤ the exact total (:func:`estimator.memory.breakdown`) of every layout of
    the count, every (TP, PP, EP), ZeRO stage and recompute mode the search builds."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, memo, checked = spec.params_total, SearchMemo(), 0
    for gpus in COUNTS:
        floor = count_floor(spec, params, setup, memo).at(gpus) * _TWICE
        for layout in _layouts(spec, card, gpus, setup):
            total = sum(breakdown(spec, params, setup, layout).values())
            assert floor <= total, (gpus, layout, floor, total)
            checked += 1
    assert checked >= 2 * len(COUNTS)  # a stated stage: one layout a mode and count


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_best_plan_for_chooses_as_without_the_count_floor(model, gpu, setup, monkeypatch) -> None:
    """The layout and parts at every count, both budgets, with and without full recompute, and the
    fewest GPUs: the same with the count floor as with it switched off (the former search)."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params = spec.params_total
    cases = [(n, f, ok) for n in COUNTS for f in (1.0, HEADROOM) for ok in (True, False)]

    def answers() -> list:
        memo = SearchMemo()
        chosen = [best_plan_for(spec, params, card, n, setup, f, ok, memo) for n, f, ok in cases]
        return [*chosen, min_gpus(spec, params, card, setup), min_gpus(spec, params, card, setup, HEADROOM)]

    new = answers()
    monkeypatch.setattr(plan_module, "count_floor", lambda *args: _NO_FLOOR)
    monkeypatch.setattr(plan_module, "count_ruled_out", lambda *args: False)
    assert new == answers()


def test_the_70b_fewest_count_goes_past_the_tight_one_to_a_comfortable_layout(monkeypatch) -> None:
    """bench/vs_llm_analysis.py's Llama-2-70B on 16 H100s. Until s24 the first layout within the card
    was TP 8, DP 2, ZeRO-3 at 79.9 GiB (above 90 %) and the count floor (16-way states + the least of the
    ZeRO-0 foreach step, 4 B/param, and the ZeRO-3 step) was above 90 % of the card, so nothing after it
    was sized (4 layouts). Since s24 the likely step at ZeRO-0 is fused AdamW (no copy:
    estimator.adamw_step): the floor at 16 is the states alone, 16 B × 69 G / 16 + the CUDA context =
    65.3 GiB, under 90 % of 80 GiB, and the search goes on (33 layouts sized) to TP 8 × PP 2 without
    ZeRO, full recompute, at 66.1 GiB (82.6 %), the first layout within the headroom. A layout is sized
    on either path: the dense layout table's total on plain numbers
    (:meth:`estimator.layout_table.DenseTable.total`, s20-sp-est) or the breakdown."""
    spec, card = catalog.model("Llama-2-70B"), catalog.gpu("H100-SXM5-80GB")
    setup = TrainingSetup(seq_len=4096)
    memo = SearchMemo()
    floor = count_floor(spec, spec.params_total, setup, memo).at(16)
    assert floor / GIB == pytest.approx(16 * 69e9 / 16 / GIB + 1, abs=0.01)
    assert floor * _TWICE < HEADROOM * card.addressable_bytes
    sized: list = []
    real, real_total = plan_module.breakdown_within, DenseTable.total

    def logged(*args, **kwargs):
        sized.append(args[3])
        return real(*args, **kwargs)

    def logged_total(table, layout):
        sized.append(layout)
        return real_total(table, layout)

    monkeypatch.setattr(plan_module, "breakdown_within", logged)
    monkeypatch.setattr(DenseTable, "total", logged_total)
    plan, parts = best_plan_for(spec, spec.params_total, card, 16, setup, memo=memo)
    assert (plan.tp, plan.pp, plan.dp, plan.zero_stage, plan.recompute) == (8, 2, 1, 0, "full")
    assert sum(parts.values()) / GIB == pytest.approx(66.11, abs=0.01)
    assert sum(parts.values()) <= HEADROOM * card.addressable_bytes
    assert sized[3][:5] == (8, 1, 2, 3, "selective") and sized[-1][:5] == (8, 2, 1, 0, "full")
    assert len(sized) == 33
    sized.clear()  # the floor switched off: the same answer
    monkeypatch.setattr(plan_module, "count_floor", lambda *args: _NO_FLOOR)
    again = best_plan_for(spec, spec.params_total, card, 16, setup, memo=SearchMemo())
    assert again == (plan, parts) and len(sized) >= 33


def test_the_states_alone_answer_a_count_without_its_rest() -> None:
    """count_out_of_reach answers from S / n before making R (the kept activations of each mode): a 13B
    model (bench/vs_llm_analysis.py's OPT-13B) on 4 A100 40G holds 48.4 GiB of states a GPU, above the
    card: no (TP, PP)'s R is made there; at 8 GPUs (24.2 GiB) R is made, the full formula's answer."""
    from estimator.search_bounds import count_out_of_reach, pinned_floor, rest_floor

    spec, card = catalog.model("Llama-2-13B"), catalog.gpu("A100-SXM4-40GB")
    setup, memo = TrainingSetup(seq_len=2048), SearchMemo()
    params, limit = 13e9, card.addressable_bytes
    floor = pinned_floor(spec, params, setup, ("selective", "full"), memo)
    for pinned in ((1, 1), (2, 1), (4, 1)):
        assert count_out_of_reach(spec, setup, floor, pinned, 4, limit, memo)
    assert floor.rests == {}
    assert not count_out_of_reach(spec, setup, floor, (1, 1), 8, limit, memo)
    rest = rest_floor(spec, setup, ("selective", "full"), (1, 1), memo)
    assert floor.rests == {(1, 1): rest} and (floor.states / 8 + rest) * _TWICE <= limit
