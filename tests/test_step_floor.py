"""Issue 23 item 7 (the estimate stage's CPU, session 8): a layout whose forward/backward peak or
optimizer step cannot fit is dropped before its step transients are assembled
(:func:`estimator.search_bounds.step_floor`: one layer's recompute workspace and the optimizer step in
the lower bound). The bound never exceeds a layout's own total, so no answer changes; through
``sizing-bot ask`` the 70B pre-training answer assembles 5 layouts' transients where it assembled 15."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.memory import SearchMemo, breakdown, breakdown_within
from estimator.model_states import state_parts, trained_params
from estimator.models import Method
from estimator.plan import _layouts
from estimator.search_bounds import ZERO3_BOUND_MARGIN, step_floor
from estimator.transients import peaks
from tests.test_estimate_speed import SETUPS, _ask_counting


def _floor(spec, params, setup, plan) -> float:
    """:func:`step_floor` of ``plan`` from fresh parts (as :func:`estimator.memory.breakdown_within`)."""
    states = sum(state_parts(spec, params, setup, plan).values())
    trained = trained_params(spec, params, setup)
    if setup.method != Method.ptuning:
        trained /= plan.tp * plan.pp
    p = peaks(spec, params, setup, plan, trained)
    return step_floor(states + p.buffers, p)


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_step_floor_is_at_most_the_total(model, gpu, setup) -> None:
    """Over every layout of 1–512 GPUs of eleven setups (full, offload, LoRA, QLoRA, freeze, PPO, DPO
    paged, optimizer in backward, MoE, DeepSeek-V3): the bound, with its slack, never exceeds the total;
    and it is tight (within 1e-9) for some layouts — those the optimizer step or the forward peak
    decide — so it does cut."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, tight = spec.params_total, 0
    for gpus in (1, 2, 8, 16, 64, 512):
        for plan in _layouts(spec, card, gpus, setup):
            total = sum(breakdown(spec, params, setup, plan).values())
            floor = _floor(spec, params, setup, plan)
            assert floor * ZERO3_BOUND_MARGIN <= total, (plan, floor, total)
            tight += floor >= total * (1 - 1e-9)
    assert tight > 0


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS[:4])
def test_a_layout_at_its_own_total_is_kept(model, gpu, setup) -> None:
    """At a limit equal to a layout's total the layout is sized (the bound keeps it), a hair below it
    is dropped or sized and above."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    for plan in _layouts(spec, card, 16, setup):
        full = breakdown(spec, spec.params_total, setup, plan)
        total = sum(full.values())
        assert breakdown_within(spec, spec.params_total, setup, plan, total, SearchMemo()) == full
        below = breakdown_within(spec, spec.params_total, setup, plan, total * (1 - 1e-12), SearchMemo())
        assert below in (None, full)


def test_the_70b_pretraining_answer_assembles_fewer_transients_with_the_same_figures(monkeypatch) -> None:
    """15 layouts' step transients assembled at d3995d3 (most of them full-recompute layouts 0.3 % above
    the 10 % headroom, decided by their optimizer step); 5 now, the same answer."""
    answer, counts = _ask_counting(
        monkeypatch, "Pretrain Llama-2-70B on 2T tokens with 1024 H100s: how long?"
    )
    mem = answer["report"]["memory"]
    plan = tuple(mem["plan"][k] for k in ("tp", "pp", "dp", "zero_stage", "recompute"))
    assert (mem["min_gpus"], mem["plan_gpus"], mem["per_gpu_bytes"], plan) == (
        16, 1024, 55445963105.6, (2, 1, 512, 3, "selective"),
    )  # fmt: skip
    # since s24 (fused AdamW step at ZeRO-0: −4 B/param likely) the fewest count's layout is TP 8 × PP 2
    # without ZeRO, full recompute, within the 10 % headroom (was TP 8 × DP 2 ZeRO-3 selective, above it)
    min_plan = mem["min_plan"]
    assert tuple(min_plan[k] for k in ("tp", "pp", "zero_stage", "recompute")) == (8, 2, 0, "full")
    assert counts["transients"] <= 5, counts
