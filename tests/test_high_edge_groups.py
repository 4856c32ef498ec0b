"""Issue 23 item 7 (the worst estimates' CPU): :func:`estimator.fit_change.high_edge_fit` skips a layout
group whose ZeRO-3 floor is above the card (:func:`estimator.search_bounds.group_out_of_reach`) without
sizing its layouts, with the answer of the loop that sizes every layout (written out here)."""

from __future__ import annotations

import pytest

import estimator.fit_change as fit_change
from estimator import catalog
from estimator.layouts import _layouts
from estimator.memory import SearchMemo, breakdown_within
from estimator.memory_band import per_gpu_band
from estimator.models import Method
from estimator.search_groups import layout_groups
from estimator.setup import TrainingSetup


def _every_layout(spec, params, gpu, gpus, setup, pinned=None):
    """high_edge_fit as it was: every layout of the count sized, in order of preference."""
    usable, memo = gpu.addressable_bytes, SearchMemo()
    for layout in _layouts(spec, gpu, gpus, setup, pinned):
        parts = breakdown_within(spec, params, setup, layout, usable, memo)
        if parts is None or sum(parts.values()) > usable:
            continue
        high = per_gpu_band(spec, setup, layout, parts, params)[1]
        if high <= usable:
            return layout.to_plan(), high
    return None


CASES = [  # (model, card, GPUs, setup): MoE and dense, fitting at the high end or not
    ("Mixtral-8x7B", "A100-SXM4-80GB", 8, TrainingSetup(method=Method.full, seq_len=4096)),
    ("Mixtral-8x7B", "H100-SXM5-80GB", 16, TrainingSetup(method=Method.full, seq_len=4096, recompute="full")),
    ("Llama-3-8B", "L20", 2, TrainingSetup(method=Method.full, seq_len=16384, micro_batch=4)),
    ("Llama-3-8B", "L20", 2, TrainingSetup(method=Method.full, seq_len=16384, micro_batch=1, zero_stage=3)),
    ("Llama-2-70B", "A100-SXM4-80GB", 16, TrainingSetup(method=Method.full, seq_len=4096)),
    ("Llama-2-70B", "A100-SXM4-80GB", 64, TrainingSetup(method=Method.full, seq_len=4096, recompute="full")),
    ("Llama-2-70B", "L40S", 2, TrainingSetup(method=Method.qlora, seq_len=16384)),
    ("Qwen3-235B-A22B", "H100-SXM5-80GB", 32, TrainingSetup(method=Method.full, seq_len=4096)),
    ("Qwen3-235B-A22B", "H100-SXM5-80GB", 64, TrainingSetup(method=Method.lora, seq_len=4096)),
]


@pytest.mark.parametrize(("model", "card", "gpus", "setup"), CASES)
def test_the_group_skip_gives_the_answer_of_every_layout_sized(model, card, gpus, setup) -> None:
    spec, gpu = catalog.model(model), catalog.gpu(card)
    fresh = fit_change.high_edge_fit(spec, spec.params_total, gpu, gpus, setup)
    assert fresh == _every_layout(spec, spec.params_total, gpu, gpus, setup)
    shared = SearchMemo()  # a memo shared across counts (what_to_change's): the same answers
    for n in (gpus, gpus * 2, gpus):
        found = fit_change.high_edge_fit(spec, spec.params_total, gpu, n, setup, memo=shared)
        assert found == _every_layout(spec, spec.params_total, gpu, n, setup)


def test_a_group_out_of_reach_is_not_sized(monkeypatch) -> None:
    """Mixtral 8x7B full fine-tuning on 8 × A100 80 GB (corpus q037): no layout's high end fits; the
    ZeRO-3 floor of every group of several layouts is above the card, so only the 8 layouts alone in
    their group are sized (their floor would cost about a sizing): 8 of 136 (the loop sized all)."""
    spec, gpu = catalog.model("Mixtral-8x7B"), catalog.gpu("A100-SXM4-80GB")
    setup = TrainingSetup(method=Method.full, seq_len=4096)
    sized = []
    real = fit_change.breakdown_within

    def counted(spec, params, setup, plan, limit, memo=None):
        sized.append(plan)
        return real(spec, params, setup, plan, limit, memo)

    monkeypatch.setattr(fit_change, "breakdown_within", counted)
    assert fit_change.high_edge_fit(spec, spec.params_total, gpu, 8, setup) is None
    grouped = layout_groups(spec, gpu, 8, setup)
    alone = [g[0] for g in grouped.groups if len(g) == 1]
    assert len(grouped.layouts) == 136
    assert len(sized) == len(alone) == 8
    assert set(sized) == set(alone)
