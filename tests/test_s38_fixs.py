"""s38 fixs: serving answers a fresh-user trial found wrong.

#1 the decode step's fixed floor is the engine's own (llama.cpp on CUDA or Metal, not the server engines'
   MoE dispatch fitted on DeepSeek-R1 over 8–16 GPUs), and one sequence of a dense model reads its
   weights at the single-stream share of the bandwidth, not MLPerf's batched 0.5.
#2 'will it start?' with a max_model_len past config.json's max_position_embeddings but within the
   card's YaRN scaling: vLLM refuses it as typed; no load is laid out.
#6 the CUDA-graph check's rule for an unstated vLLM release: README and code agree.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.models import Precision
from estimator.serving_speed import (
    FITTED,
    LAYER_LATENCY_S,
    LLAMA_CPP_MOE_LAYER_S,
    METAL_MOE_LAYER_S,
    MOE_LAYER_LATENCY_S,
    SINGLE_STREAM_BANDWIDTH,
    ServingEfficiency,
    decode_speed,
    fixed_seconds,
    step_floor_parts,
)
from estimator.serving_verdict import graphs_outside_budget

ROOT = Path(__file__).resolve().parents[1]


def _decode(text: str):
    report = answer(text).report
    assert report is not None and report.inference is not None
    return report.inference.decode_tokens_per_s


# --- #1 the floor per engine ---------------------------------------------------------------------


def test_floor_parts_per_engine() -> None:
    assert step_floor_parts(False, False) == (LAYER_LATENCY_S, MOE_LAYER_LATENCY_S) == (40e-6, 350e-6)
    assert step_floor_parts(True, False) == (40e-6, LLAMA_CPP_MOE_LAYER_S) == (40e-6, 70e-6)
    assert step_floor_parts(True, True) == (40e-6, METAL_MOE_LAYER_S) == (40e-6, 230e-6)


def test_fixed_seconds_worked_by_hand() -> None:
    """Qwen3-30B-A3B: 48 layers, every one MoE. llama.cpp on CUDA 48 × (40 + 70) µs = 5.28 ms; on Metal
    48 × (40 + 230) µs = 12.96 ms; the server engines 48 × 390 µs = 18.72 ms (the trial's 53 tokens/s)."""
    spec = catalog.model("Qwen3-30B-A3B")
    assert spec.layers == 48 and spec.experts
    assert fixed_seconds(spec, step_floor_parts(True, False)) == pytest.approx(5.28e-3)
    assert fixed_seconds(spec, step_floor_parts(True, True)) == pytest.approx(12.96e-3)
    assert fixed_seconds(spec) == pytest.approx(18.72e-3)


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-30B-A3B Q4_K_M llama.cpp on one 4090, tokens/s?",
        "一张 4090 用 llama.cpp 跑 Qwen3-30B-A3B Q4_K_M，每秒多少 token？",
    ],
)
def test_qwen3_moe_on_a_4090_decodes_near_the_logged_speed(text: str) -> None:
    """1000 / 5.28 ms = 189 tokens/s; logged 196 on a 4090 and 167 on a 3090 Ti (LLAMA_CPP_MOE_LAYER_S).
    Before: 53 (the server engines' floor)."""
    d = _decode(text)
    assert d is not None and d.fixed_floor_ms == pytest.approx(5.28)
    assert d.per_sequence == pytest.approx(1000 / 5.28)
    assert d.per_sequence_low < 196 < d.per_sequence_high


def test_qwen3_moe_on_an_m2_ultra_decodes_near_the_logged_speed() -> None:
    """Metal: 1000 / 12.96 ms = 77.2 tokens/s; llama-bench logged 76.31 (Q8_0, ggml-org/llama.cpp #15616)."""
    d = _decode("Qwen3-30B-A3B Q8_0 llama.cpp on an M2 Ultra 192GB, tokens/s?")
    assert d is not None and d.fixed_floor_ms == pytest.approx(12.96)
    assert d.per_sequence == pytest.approx(1000 / 12.96)
    assert abs(d.per_sequence / 76.31 - 1) < 0.02


def test_server_engines_keep_their_floor() -> None:
    """DeepSeek-R1 on 8 × H200 under SGLang: 61 × 40 + 58 × 350 µs = 22.74 ms, unchanged."""
    d = _decode("Serve DeepSeek-R1 FP8 on 8 x H200, one user: how fast does it decode?")
    assert d is not None and d.fixed_floor_ms == pytest.approx(22.74)


def test_one_dense_sequence_reads_at_the_single_stream_share() -> None:
    """Batch 1 of a dense model: the step is the bytes over bandwidth × 0.64, not × 0.5 — 1.28× faster;
    a batch of 2, and a MoE at batch 1, keep the MLPerf-fitted 0.5."""
    spec, gpu = catalog.model("Llama-3.1-8B"), catalog.gpu("A100-SXM4-80GB")
    n = spec.params_total
    batched = ServingEfficiency(FITTED.decode_mfu, FITTED.bandwidth, FITTED.prefill_mfu)  # not FITTED itself
    one = decode_speed(spec, n, n, gpu, 1, 2.0, 0.5e9, 1, Precision.bf16)
    at_half = decode_speed(spec, n, n, gpu, 1, 2.0, 0.5e9, 1, Precision.bf16, eff=batched)
    assert SINGLE_STREAM_BANDWIDTH == 0.64
    assert one.per_sequence == pytest.approx(at_half.per_sequence * 0.64 / 0.5)
    # worked by hand: (8.03e9 × 2 + 0.5e9) B / (2,039 GB/s × 0.64) = 12.69 ms → 78.8 tokens/s
    assert one.per_sequence == pytest.approx(2039e9 * 0.64 / (n * 2.0 + 0.5e9))
    two = decode_speed(spec, n, n, gpu, 1, 2.0, 0.5e9, 2, Precision.bf16)
    assert two == decode_speed(spec, n, n, gpu, 1, 2.0, 0.5e9, 2, Precision.bf16, eff=batched)
    moe = catalog.model("Mixtral-8x7B")
    args = (moe, moe.params_total, moe.params_active, gpu, 1, 2.0, 0.0, 1, Precision.bf16)
    assert decode_speed(*args) == decode_speed(*args, eff=batched)


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        # trial: 33 and 41 tokens/s, against single-stream runs at 0.6–0.9 of the bandwidth
        ("Qwen2.5-7B bf16 on one 4090, tokens/s?", 40, 45),  # 15.2 GB + KV over 1,008 GB/s × 0.64
        ("Llama-3.1-8B on an A100, tokens/s for one user?", 76, 82),  # 16.1 GB + KV over 2,039 GB/s × 0.64
    ],
)
def test_dense_single_stream_figures(text: str, low: float, high: float) -> None:
    d = _decode(text)
    assert d is not None and d.fixed_floor_ms is None and low <= d.per_sequence <= high
    assert math.isclose(d.per_sequence_high / d.per_sequence, 1.39)


# --- #2 start-only past max_position_embeddings ------------------------------------------------------

START_EN = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072 on one A100 80G, will it start?"
START_ZH = "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 131072，一张 A100 80G 能启动吗？"


def test_start_past_the_config_window_is_refused_as_typed_en() -> None:
    """Qwen2.5-7B-Instruct's config.json: max_position_embeddings 32,768, no rope_scaling: vLLM's
    _get_and_verify_max_len raises 'User-specified max_model_len (131072) is greater than the derived
    max_model_len … set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1'. The fix is the card's YaRN."""
    text = render(answer(START_EN), "text")
    first = text.splitlines()[0]
    assert "no, not as typed — vLLM refuses to start with max_model_len 131,072" in first
    assert "max_position_embeddings (32,768)" in first and "YaRN" in first
    assert "yes —" not in first
    assert "--hf-overrides" in text  # the rope note's command
    assert "sequences at once" not in text  # no load laid out for a start-only question


def test_start_past_the_config_window_is_refused_as_typed_zh() -> None:
    text = render(answer(START_ZH), "text")
    first = text.splitlines()[0]
    assert "按所写的设置不能" in first and "vLLM 拒绝启动" in first and "32,768" in first
    assert "YaRN" in first
    assert "条序列同时" not in text


def test_start_within_the_config_window_still_starts() -> None:
    """Qwen3-8B's config.json says 40,960: vLLM takes it with no override (trial s25 #7)."""
    text = render(
        answer("vllm serve Qwen/Qwen3-8B --max-model-len 40960 on one A100 80G, will it start?"), "text"
    )
    assert "yes — vLLM starts with max_model_len 40,960" in text.splitlines()[0]


def test_start_at_the_native_window_starts() -> None:
    text = render(
        answer("vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 32768 on one A100 80G, will it start?"),
        "text",
    )
    first = text.splitlines()[0]
    assert "yes — vLLM starts with max_model_len 32,768" in first
    assert "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in text


# --- #6 the CUDA-graph rule -------------------------------------------------------------------------


def test_cuda_graph_rule_readme_and_code_agree() -> None:
    """One rule, every card: checked on a vLLM stated before v0.21 or none stated (s37); a stated v0.21
    or later counts the graphs inside its budget."""
    assert graphs_outside_budget(None) and graphs_outside_budget("0.8.5")
    assert not graphs_outside_budget("0.21") and not graphs_outside_budget("0.22.1")
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "only on a stated vLLM before v0.21" not in readme
    assert "on a vLLM stated before v0.21 or with no release stated, on every card" in readme
    assert "null: the current release, which profiles the graphs" not in readme
