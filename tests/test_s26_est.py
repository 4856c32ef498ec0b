"""Session 26 est: estimator and front-end leftovers of session 25 (closing note 'Left', trial 2)."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.late_gradients import late_gradients
from estimator.models import Plan
from estimator.setup import Layout, TrainingSetup


@pytest.mark.parametrize("model", ["Qwen3-30B-A3B", "Qwen3-235B-A22B"])
def test_qwen3_moe_context_is_their_config_length(model: str) -> None:
    """The April 2025 Qwen3 MoE releases say max_position_embeddings 40960 in config.json, like the dense
    Qwen3 (source in qwen.toml): that is the length vLLM starts at without YaRN; the card's 32,768 stays the
    native length YaRN scales from (factor 4 → 131,072)."""
    spec = catalog.model(model)
    assert spec.max_context == 40960
    assert spec.native_context == 32768 and spec.rope_scaling_factor == 4.0


def test_late_gradients_reads_the_plans_ep() -> None:
    """Both a Plan and a search Layout carry ``ep``: one process at ZeRO-0 gets the 2 B/param gradient
    credit at EP 1 and none at EP 2 (expert parallelism is more than one process)."""
    setup = TrainingSetup()
    one = Layout(1, 1, 1, 0, "full", 1, False)
    assert late_gradients(setup, one, 1e9) == 2e9
    assert late_gradients(setup, one._replace(ep=2), 1e9) == 0.0
    plan = Plan(tp=1, pp=1, dp=1, zero_stage=0, recompute="full", micro_batch=1, offload=False)
    assert late_gradients(setup, plan, 1e9) == 2e9
    assert late_gradients(setup, plan.model_copy(update={"ep": 2}), 1e9) == 0.0
