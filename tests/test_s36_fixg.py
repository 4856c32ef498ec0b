"""s36 fixg: the decode speed as a band from the logged runs' spread, and the fixed per-step floor named
where it sets the speed (issue 24)."""

from __future__ import annotations

import math
import statistics

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog, decode_check
from estimator.inference import size_inference
from estimator.models import Precision
from estimator.serving_speed import DECODE_SPREAD, LAYER_LATENCY_S, MOE_LAYER_LATENCY_S


def _inf(model: str, gpu: str, precision: str, gpus: int, concurrency: int = 1):
    spec = catalog.model(model)
    return size_inference(
        spec,
        spec.params_total,
        spec.params_active,
        catalog.gpu(gpu),
        Precision(precision),
        4096,
        concurrency,
        gpus,
        runtime="SGLang",
        group=(gpus, 1),
    )


def test_spread_is_the_files_median_factor() -> None:
    """DECODE_SPREAD is exp(median |log(predicted/measured)|) over the working rows, to 2 decimals."""
    logs = [abs(math.log(r)) for _, r in decode_check.ratios(decode_check.working())]
    assert len(logs) == 15
    # 1.39 before s41 fixserve #4 timed the TP-16 runs' all-reduces at the inter-node link
    assert round(math.exp(statistics.median(logs)), 2) == DECODE_SPREAD == 1.32


def test_band_around_the_figure() -> None:
    d = _inf("DeepSeek-R1", "H200-SXM-141GB", "fp8", 8).decode_tokens_per_s
    assert d is not None and d.per_sequence_low is not None and d.per_sequence_high is not None
    assert math.isclose(d.per_sequence_low * 1.32, d.per_sequence, rel_tol=1e-9)
    assert math.isclose(d.per_sequence_high / 1.32, d.per_sequence, rel_tol=1e-9)


def test_floor_named_for_a_large_moe_at_one_sequence() -> None:
    """R1: 61 layers × 40 µs + 58 MoE layers × 350 µs = 2.44 + 20.3 = 22.74 ms, above its weight reads
    (37B active × 1 B / (8 × 4.8 TB/s × 0.5) ≈ 2 ms): the floor sets the step, 1000 / 22.74 ≈ 44 tokens/s."""
    d = _inf("DeepSeek-R1", "H200-SXM-141GB", "fp8", 8).decode_tokens_per_s
    assert d is not None and d.fixed_floor_ms is not None
    assert math.isclose(d.fixed_floor_ms, (61 * LAYER_LATENCY_S + 58 * MOE_LAYER_LATENCY_S) * 1e3)
    assert math.isclose(d.fixed_floor_ms, 22.74, abs_tol=1e-9)


def test_no_floor_for_a_dense_model_reading_its_weights() -> None:
    """Llama 3.3 70B bf16 on 4 × H100: 141 GB / (4 × 3.35 TB/s × 0.5) ≈ 21 ms, far above 80 × 40 µs."""
    d = _inf("Llama-3.3-70B", "H100-SXM5-80GB", "bf16", 4).decode_tokens_per_s
    assert d is not None and d.fixed_floor_ms is None and d.per_sequence_low is not None


R1_ZH = "8 张 H200 部署 DeepSeek-R1 FP8，单用户解码速度多少？"


def test_reply_gives_the_band_and_the_floor_zh() -> None:
    text = render(answer(R1_ZH), "text")
    first = text.splitlines()[0]
    assert "解码约 42（32–55） token/s（同时 1 条序列）" in first  # 41.7 ÷ 1.32 = 31.6, × 1.32 = 55.0
    floor = "（61 层 × 40 µs 的内核启动 + 58 个 MoE 层 × 350 µs 的专家路由 ≈ 每 token 22.7 ms）"
    assert floor + "，而不是显存带宽" in text
    assert "解码速度受显存带宽限制" not in text


def test_reply_gives_the_band_and_the_floor_en() -> None:
    text = render(answer("Serve DeepSeek-R1 FP8 on 8 x H200, one user: how fast does it decode?"), "text")
    assert "42 (32–55) tokens/s" in text  # 30–58 at DECODE_SPREAD 1.39 (before s41 fixserve #4)
    assert "61 layers × 40 µs of kernel launches + 58 MoE layers × 350 µs of expert routing ≈ 22.7 ms" in text
    assert "Decoding is limited by memory bandwidth" not in text


def test_dense_reply_keeps_the_bandwidth_wording() -> None:
    """Llama 3.1 8B bf16 on one H100, one sequence: (16.06 GB of weights + 0.54 GB of KV at 4K) / (3.35 TB/s
    × 0.64, the single-stream share, s38 fixs #1) ≈ 7.7 ms ≫ 32 × 40 µs = 1.3 ms. s38: was 101 tokens/s at
    MLPerf's 0.5 share; vLLM single-stream runs of 8B models decode at 0.6–0.9 of the bandwidth
    (estimator.serving_speed.SINGLE_STREAM_BANDWIDTH)."""
    text = render(answer("Serve Llama-3.1-8B on one H100, 1 user, how fast?"), "text")
    assert "Decoding is limited by memory bandwidth" in text
    assert "Decoding is limited here" not in text
    assert "≈ 129 (98–171) tokens/s (one sequence at a time)" in text.splitlines()[0]  # 129 ÷ and × 1.32


def test_json_adds_the_band_fields() -> None:
    from bot.contract import to_json

    a = answer(R1_ZH)
    d = to_json(a, render(a, "text"))["report"]["inference"]["decode_tokens_per_s"]
    assert set(d) >= {"per_sequence", "aggregate", "batch", "bound"}  # the old fields stay
    assert math.isclose(d["per_sequence_low"], d["per_sequence"] / 1.32)
    assert math.isclose(d["per_sequence_high"], d["per_sequence"] * 1.32)
    assert d["fixed_floor_ms"] == 22.74
