"""The fewest-GPUs search stops at the first (TP, PP, EP) group once no count is left in
[floor, best − 1] (estimator.plan.min_gpus, session 23): every later group's counts are ≥ the floor ≥ the
best found. The same answer as sizing each count in turn; Llama-2-70B on 1,024 H100s asks one group's
gallop, not 13 (bench/RESULTS.md, session 23, part s23-spest)."""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
from estimator import estimate
from estimator.plan import best_plan_for, min_gpus
from estimator.request import SizingRequest

_CASES = [  # bench/vs_llm_analysis.py's training cases
    dict(stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB", gpu_count=64),
    dict(stage="pretrain", model="Llama-2-70B", tokens=2e12, gpu="H100-SXM5-80GB", gpu_count=1024),
    dict(stage="pretrain", params_total=13e9, tokens=3e11, gpu="A100-SXM4-40GB", gpu_count=128, seq_len=2048),
    dict(stage="finetune", model="Llama-2-70B", tokens=1e8, gpu="A100-SXM4-40GB", gpu_count=8),
]


def _searches(monkeypatch: pytest.MonkeyPatch, fields: dict) -> list[tuple]:
    """The (spec, params, gpu, setup) of every top-level fewest-GPUs search of ``fields``' estimate."""
    seen: list[tuple] = []
    real = plan_module.min_gpus

    def spy(spec, params, gpu, setup, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append((spec, params, gpu, setup))
        return real(spec, params, gpu, setup, *args, **kwargs)

    monkeypatch.setattr(plan_module, "min_gpus", spy)
    estimate(SizingRequest(**fields))
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("fields", _CASES)
def test_the_fewest_gpus_are_the_least_count_with_a_fitting_layout(monkeypatch, fields) -> None:
    searches = _searches(monkeypatch, fields)
    assert searches
    for spec, params, gpu, setup in searches:
        found = min_gpus(spec, params, gpu, setup)
        node = gpu.gpus_per_node
        counts = [n for n in (1, 2, 4) if n < node] + [node * k for k in range(1, 257)]
        least = next((n for n in counts if best_plan_for(spec, params, gpu, n, setup)), None)
        assert least is not None and found is not None and found[0] == least


def test_the_70b_search_gallops_in_one_group(monkeypatch) -> None:
    calls: list[int] = []
    real = plan_module._first_fitting_multiple

    def spy(fits, step, k_low, k_high, low_first=False):  # type: ignore[no-untyped-def]
        calls.append(step)
        return real(fits, step, k_low, k_high, low_first)

    monkeypatch.setattr(plan_module, "_first_fitting_multiple", spy)
    report = estimate(SizingRequest(**_CASES[1]))
    assert report.memory is not None and report.memory.min_gpus == 16  # TP 8 × 2 nodes' DP
    assert calls == [8]  # was 13 calls: 12 groups with no count in [16, 15]
