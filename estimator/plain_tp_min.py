"""The fewest GPUs of an MLA model without data-parallel attention, when no layout with it holds the model
(trial s43 #2; split off :mod:`estimator.inference`, at its line cap)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.runtimes import runtime_for
from estimator.search_keep import kept_runtime
from estimator.serving_layout import layout_for

if TYPE_CHECKING:
    from estimator.inference import ServingSetup, _Footprint


def plain_tp_min(s: ServingSetup, f: _Footprint) -> tuple[int, int] | None:
    """(tp, pp) of the fewest GPUs holding an MLA model without data-parallel attention (every TP rank
    keeping the whole latent, :attr:`ServingRuntime.mla_tp_copies`) when no layout with it does — SGLang's
    reserve per GPU grows with the group and adds 4 GiB for DP attention (estimator.runtimes.sglang), so
    on 64 GiB cards no pipeline of DeepSeek-V3's bf16 weights holds (trial s43 #2: '--tp 16 --dp 16
    --enable-dp-attention' on Ascend 910B said 'at least 488', TP 8 × 61 one-layer stages, which hold
    nothing). None when that layout never holds it either."""
    if s.mla_tp_copies:
        return None
    rt = kept_runtime(  # kept across answers as the question's own runtime (s47-speedest)
        runtime_for(s.gpu, s.precision, s.utilization, s.runtime, True, s.flash_attention), s.spec, s.gpu
    )
    tp, pp = layout_for(f.weights, f.kv_seq, s.spec, s.gpu, rt, f.one)
    return (tp, pp) if pp < s.spec.layers else None
