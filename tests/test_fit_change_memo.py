"""Issue 23 item 7 (the estimate stage's CPU): :func:`estimator.fit_change.what_to_change` sizes each
candidate (setup, GPU count) once — the first combination of settings 1–5 is the first setting alone —
and the GPU-count candidates of one setup share one search memo, with the same answer."""

from __future__ import annotations

import estimator.fit_change as fit_change
from estimator import catalog
from estimator.models import Method, Plan
from estimator.setup import TrainingSetup


def test_a_repeated_candidate_is_sized_once_with_the_same_change(monkeypatch) -> None:
    """Full fine-tuning of Llama-3-8B, 16K tokens, micro-batch 4, on 2 × L20 48 GB: no setting alone
    makes the high end fit, the five toggles together do; 19 different candidates, each sized once (18
    before s26 est: 8-bit AdamW is tried alone at the plan's ZeRO-0 as well, never in the chain,
    estimator.fit_change.ALONE_ONLY; 20 in s26 est, fused AdamW tried alone too: since s26 rfix it is
    tried only over a stated foreach AdamW, ``adamw_torch``, and this setup states none)."""
    spec, card = catalog.model("Llama-3-8B"), catalog.gpu("L20")
    setup = TrainingSetup(method=Method.full, seq_len=16384, micro_batch=4)
    plan = Plan(tp=1, pp=1, dp=2, zero_stage=0, recompute="selective", micro_batch=4)
    sized, memos = [], {}
    real = fit_change.high_edge_fit

    def counted(spec, params, gpu, gpus, setup, pinned=None, memo=None):
        sized.append((setup, gpus))
        assert memos.setdefault(setup, memo) is memo  # one memo per setup, whatever the count
        return real(spec, params, gpu, gpus, setup, pinned, memo)

    monkeypatch.setattr(fit_change, "high_edge_fit", counted)
    change = fit_change.what_to_change(spec, spec.params_total, card, 2, setup, plan)
    assert [(c.setting, c.value) for c in change] == [
        ("micro_batch", 1),
        ("recompute", "full"),
        ("zero_stage", 3),
        ("chunked_loss", True),
        ("offload", True),
    ]
    assert [c.per_gpu_bytes_high is None for c in change] == [True] * 4 + [False]
    assert change[-1].per_gpu_bytes_high <= card.addressable_bytes
    assert len(sized) == len(set(sized)) == 19  # each once (before s24 the first combination twice)
    monkeypatch.setattr(fit_change, "high_edge_fit", real)
    fresh = [real(spec, spec.params_total, card, gpus, s) for s, gpus in sized]  # a new memo each
    again = [real(spec, spec.params_total, card, gpus, s, memo=memos[s]) for s, gpus in sized]
    assert fresh == again
