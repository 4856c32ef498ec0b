"""Session 29 (s29-spest, issue 23 item 7): the search's bounds with their helpers written in place give
the floats the helpers give. :meth:`estimator.memory.SearchMemo.group_floor` shares its ZeRO-3 states
among the groups of one (TP, PP, DP, EP, offload) and reads the kept activations' memo directly;
:func:`estimator.search_bounds.surely_above` writes DeepSpeed's buckets and the loss's likely peak in
place; :func:`estimator.search_bounds.step_out_of_reach` writes :func:`state_key` in place. Each is
compared here with the composition of the helpers it replaces, over the speed tests' setups (dense,
offload, LoRA, QLoRA, freeze, PPO, DPO, the optimizer in the backward pass, Mixtral and DeepSeek-V3)."""

from __future__ import annotations

import math

import pytest

from estimator import catalog
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.late_gradients import late_gradients
from estimator.layout_table import dense_table
from estimator.layouts import _layouts
from estimator.memory import SearchMemo
from estimator.model_states import state_parts
from estimator.search_bounds import (
    ZERO3_BOUND_MARGIN,
    churn_floor,
    state_key,
    step_out_of_reach,
    surely_above,
)
from estimator.setup import new_layout
from estimator.transients import kept_activations, loss_bytes, zero_buffers
from tests.test_estimate_speed import SETUPS

COUNTS = (1, 2, 8, 16, 64)


def _floor_alone(spec, params, setup, plan) -> float:
    """group_floor as a fresh memo computes it, from the helpers: stage-3 states + kept − late + context."""
    stage3 = new_layout((*plan[:3], 3, *plan[4:]))
    states = sum(state_parts(spec, params, setup, stage3).values())
    late = late_gradients(setup, plan, params, True) if plan.dp == 1 else 0.0
    kept = max(0.0, kept_activations(spec, setup, stage3).likely - late)
    return states + kept + CUDA_CONTEXT_BYTES.value


def _surely_above_alone(spec, setup, plan, states, limit, params) -> bool:
    """surely_above before session 29: zero_buffers and loss_bytes called."""
    if limit == math.inf or (plan.dp == 1 and plan.zero_stage == 0 and late_gradients(setup, plan, 1.0)):
        return False
    kept = kept_activations(spec, setup, plan)
    floor = states + zero_buffers(plan)
    floor += kept.likely
    if floor + CUDA_CONTEXT_BYTES.value > limit:
        return True
    logits = loss_bytes(spec, setup, plan).likely if plan.pp == 1 else 0.0
    floor += logits
    if floor + CUDA_CONTEXT_BYTES.value > limit:
        return True
    return churn_floor(spec, params, setup, plan, floor, kept.likely + logits) * ZERO3_BOUND_MARGIN > limit


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_shared_group_floors_are_the_floors_each_group_computes_alone(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, memo, shared = spec.params_total, SearchMemo(), 0
    dense_table(spec, params, setup, memo)  # a plain full-training job's floors on plain numbers
    for gpus in COUNTS:
        for plan in _layouts(spec, card, gpus, setup):
            floors, states = len(memo.floors), len(memo.stage3)
            floor = memo.group_floor(spec, params, setup, plan)
            assert floor == _floor_alone(spec, params, setup, plan), plan
            shared += len(memo.floors) > floors and len(memo.stage3) == states
    assert shared > 0  # some groups' floors were made from another group's states


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_surely_above_in_place_is_the_helpers_answer(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, memo, both = spec.params_total, SearchMemo(), set()
    for gpus in COUNTS:
        for plan in _layouts(spec, card, gpus, setup):
            states = sum(state_parts(spec, params, setup, plan).values())
            for limit in (states * 1.05, states * 1.5, states * 3.0, card.addressable_bytes):
                got = surely_above(spec, setup, plan, states, limit, memo, params)
                assert got == _surely_above_alone(spec, setup, plan, states, limit, params), (plan, limit)
                both.add(got)
    assert both == {True, False}


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_step_floors_are_kept_by_state_key(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, memo, keys = spec.params_total, SearchMemo(), set()
    for gpus in COUNTS:
        for plan in _layouts(spec, card, gpus, setup):
            if plan.zero_stage == 3:
                states = sum(state_parts(spec, params, setup, plan).values())
                step_out_of_reach(spec, params, setup, plan, states, card.addressable_bytes, memo)
                keys.add(state_key(spec, setup, plan))
    assert set(memo.step_floors) == keys
