"""s40 trial item 15: no ZeRO-2/3 with pipeline parallelism. DeepSpeed refuses the pair
(deepspeed/runtime/pipe/engine.py: ``assert self.zero_optimization_stage() < ZeroStageEnum.gradients,
"ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"``) and Megatron-LM's distributed optimizer
shards the optimizer states only (ZeRO-1-like): the layout search never pairs PP > 1 with ZeRO ≥ 2; a
stated pair is kept as stated."""

from __future__ import annotations

from estimator.layouts import ordered_layouts, refused_pair
from estimator.models import SizingRequest, Stage
from estimator.sizing import estimate


def test_the_search_never_pairs_a_pipeline_with_zero_2_or_3() -> None:
    """Llama-2-70B's shape (80 layers, 64 heads, 8 KV heads) on 32 NVLink GPUs: every layout with PP > 1
    has ZeRO 0 or 1; ZeRO-3 still appears with PP = 1."""
    found = ordered_layouts(80, 64, 8, 8, True, 32, 1, False)
    assert {p.zero_stage for p in found if p.pp > 1} == {0, 1}
    assert any(p.zero_stage == 3 and p.pp == 1 for p in found)
    moe = ordered_layouts(61, 128, 128, 8, True, 2048, 1, False, experts=256)
    assert all(p.zero_stage < 2 for p in moe if p.pp > 1)


def test_a_stated_pair_is_kept_as_stated_and_an_unstated_pp_is_not_searched() -> None:
    """ZeRO-3 and PP 2 both stated: kept (refused_pair names it); ZeRO-3 stated with TP only: PP 1."""
    kept = ordered_layouts(80, 64, 8, 8, True, 16, 1, False, zero_stage=3, tp=4, pp=2)
    assert kept and all((p.pp, p.zero_stage) == (2, 3) for p in kept) and refused_pair(2, 3)
    tp_only = ordered_layouts(80, 64, 8, 8, True, 16, 1, False, zero_stage=3, tp=4)
    assert tp_only and all(p.pp == 1 for p in tp_only)
    assert not refused_pair(1, 3) and not refused_pair(4, 1)


def test_qwen3_235b_lora_on_4090s_plans_no_zero3_pipeline() -> None:
    """The trial's case: 'qwen3-235b-a22b lora on 4090s' planned TP 4 × PP 2 × DP 4, ZeRO-3; now the
    recommended plan has no pipeline with ZeRO ≥ 2."""
    r = estimate(SizingRequest(stage=Stage.finetune, model="Qwen3-235B-A22B", method="lora", gpu="RTX-4090"))
    plan = r.memory.plan
    assert plan is not None and not refused_pair(plan.pp, plan.zero_stage)


def test_llama3_70b_tp4_pp2_on_16_h100_no_longer_fits_by_zero3() -> None:
    """Full fine-tuning, TP 4 × PP 2 stated on 16 H100: DP 2 at ZeRO-1 holds 70.6e9/8 parameters' weights
    and gradients (2 + 2 bytes) and half their 12-byte optimizer states a GPU, ≈ 8.8e9 × 10 B ≈ 88 GB > 80 GB:
    does not fit (it fitted only through the refused ZeRO-3); 32 H100 (DP 4) fit at ZeRO-1."""
    kw = dict(stage=Stage.finetune, model="Llama-3-70B", tokens=1e8, gpu="H100-SXM5-80GB", tp=4, pp=2)
    assert estimate(SizingRequest(**kw, gpu_count=16)).memory.fits_requested is False
    fits = estimate(SizingRequest(**kw, gpu_count=32)).memory
    assert fits.fits_requested is True and (fits.plan.pp, fits.plan.dp, fits.plan.zero_stage) == (2, 4, 1)
