"""Llama 4's chunked layers, the s45 review's B1 and B2 (estimator.chunked_kv, estimator.attention).

B1: vLLM's ``ChunkedLocalAttentionSpec.max_memory_usage_bytes`` (vllm/v1/kv_cache_interface.py) keeps
``min(attention_chunk_size + max_num_batched_tokens, max_model_len)`` tokens a request on a chunked layer;
``max_num_batched_tokens`` is vLLM's default (vllm/engine/arg_utils.py ``get_batch_defaults``: 8,192 on an
H100, 2,048 on an A100). llama.cpp's ``llama_kv_cache_iswa`` SWA cache: ``n_swa × n_seq + n_ubatch`` cells
(n_ubatch 512). Scout (config.json text_config): 48 layers, 8 KV heads × 128, 36 chunked layers of 8,192;
bf16 KV 4 KiB a token a layer.

B2: a chunked layer attends within its chunk on every runtime (transformers ``chunked_attention_mask``), so
the prefill FLOPs and a decode step's KV reads never depend on the release; only the KV held does.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.pipeline import answer
from estimator import attention, catalog, compute
from estimator.catalog import model as get_model
from estimator.models import Precision
from estimator.serving_speed import FITTED, decode_speed
from estimator.trainer_decode import EAGER_SLOWDOWN, generate_speed
from estimator.weights import kv_bytes_per_sequence, kv_read_bytes_per_sequence
from tests.cli_run import ask_text

PER_LAYER = 8 * 128 * 2 * 2  # bytes a token a layer, bf16 (K and V)
FULL = 48 * PER_LAYER  # 196,608 B = 192 KiB a token


def held(context: int, window: int) -> int:
    """12 global layers hold the context, 36 chunked layers min(context, window)."""
    return PER_LAYER * (12 * context + 36 * min(context, window))


def _inference(q: str):
    report = answer(q).report
    assert report is not None and report.inference is not None
    return report, report.inference


@pytest.mark.parametrize(
    "q",
    [
        "Serve Llama 4 Scout on 4 H100 at 16k context, 32 users",
        "4 张 H100 部署 Llama 4 Scout，16K 上下文，32 个并发用户",
    ],
)
def test_b1_vllm_on_h100_keeps_chunk_plus_batch_so_16k_is_whole(q: str) -> None:
    """8,192 + 8,192 = 16,384 ≥ 16K: every layer holds the whole 16,384 tokens (192 KiB a token, 3 GiB a
    sequence), not 120 KiB averaged; the chunk note says nothing here."""
    report, inf = _inference(q)
    assert inf.kv_bytes_per_sequence == pytest.approx(FULL * 16_384) == pytest.approx(3_221_225_472)
    assert not [w for w in report.warnings if "chunked_kv" in w.code]
    assert inf.max_concurrency is not None and inf.max_concurrency < 32


@pytest.mark.parametrize(
    ("q", "window"),
    [
        ("Serve Llama 4 Scout at 64K context on H100 with vLLM 0.16", 8192 + 8192),
        ("用 vLLM 0.16 在 H100 上部署 Llama 4 Scout，64K 上下文", 8192 + 8192),
        ("Serve Llama 4 Scout at 64K context on A100 80G with vLLM 0.16", 8192 + 2048),
        ("用 vLLM 0.16 在 A100 80G 上部署 Llama 4 Scout，64K 上下文", 8192 + 2048),
        ("llama.cpp Llama 4 Scout at 64K context on H100", 8192 + 512),
        ("用 llama.cpp 跑 Llama 4 Scout，64K 上下文，H100", 8192 + 512),
    ],
)
def test_b1_window_is_chunk_plus_the_runtimes_batch(q: str, window: int) -> None:
    report, inf = _inference(q)
    assert inf.context_tokens == 65_536
    assert inf.kv_bytes_per_sequence == pytest.approx(held(65_536, window))
    note = [w for w in report.warnings if w.code == "chunked_kv_stated"]
    assert note and note[0].params["window"] == window


@pytest.mark.parametrize(
    ("q", "window"),
    [
        ("Serve Llama 4 Scout at 12K context on H100, 4 users", 16_384),  # within 8,192 + 8,192: no note
        ("Llama 4 Scout 12K 上下文 4 个并发，H100 要几张？", 16_384),
    ],
)
def test_b1_quiet_within_the_kept_window_not_only_the_chunk(q: str, window: int) -> None:
    """12,288 > 8,192 but ≤ 16,384: vLLM still holds the whole context on every layer, so no chunk note."""
    report, inf = _inference(q)
    assert 8192 < inf.context_tokens <= window
    assert inf.kv_bytes_per_sequence == pytest.approx(FULL * inf.context_tokens)
    assert not [w for w in report.warnings if "chunked_kv" in w.code]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Serve Llama 4 Scout on 8 H100 with vLLM 0.11 at 128k context, 8 concurrent users, "
            "--tensor-parallel-size 8",
            "Serve Llama 4 Scout on 8 H100 with vLLM 0.16 at 128k context, 8 concurrent users, "
            "--tensor-parallel-size 8",
        ),
        (
            "用 vLLM 0.11 在 8 张 H100 上部署 Llama 4 Scout，128K 上下文，8 个并发，--tensor-parallel-size 8",
            "用 vLLM 0.16 在 8 张 H100 上部署 Llama 4 Scout，128K 上下文，8 个并发，--tensor-parallel-size 8",
        ),
    ],
)
def test_b2_release_changes_kv_held_not_speed(old: str, new: str) -> None:
    """Same layout (TP=8), only the release changed: identical decode and prefill, different KV held
    (full 128K on every layer before v0.16, 16,384 tokens on the chunked layers from it)."""
    _, a = _inference(old)
    _, b = _inference(new)
    assert a.kv_bytes_per_sequence == pytest.approx(FULL * 131_072)
    assert b.kv_bytes_per_sequence == pytest.approx(held(131_072, 16_384))
    assert (a.tp, a.pp) == (b.tp, b.pp) == (8, 1)
    assert a.prefill_seconds == pytest.approx(b.prefill_seconds)
    assert a.decode_tokens_per_s is not None and b.decode_tokens_per_s is not None
    assert a.decode_tokens_per_s.per_sequence == pytest.approx(b.decode_tokens_per_s.per_sequence)


def test_b2_attention_keys_are_the_chunks_on_every_runtime() -> None:
    """Chunked layers: (q·c² + r²) / (2s) keys a query; at 1M, 576 tokens past 122 whole chunks:
    (122 × 8,192² + 576²) / 2,000,000 = 4,093.8 (≈ c/2), not 500,000 (s/2) nor a stored window."""
    assert compute.chunked_keys_per_query(1_000_000, 8192) == pytest.approx(
        (122 * 8192**2 + 576**2) / 2_000_000
    )
    assert compute.chunked_keys_per_query(4096, 8192) == 2048.0  # within one chunk: causal s/2
    spec = get_model("Llama-4-Scout-17B-16E")
    allocated = spec.model_copy(update={"chunk_kv_window": 16_384})
    assert attention.shape_of(spec) == attention.shape_of(allocated)
    shape = attention.shape_of(spec)
    assert (shape.chunk, shape.chunked_layers, shape.sliding_window) == (8192, 36, None)
    per = attention.flops_per_token(shape, 131_072, passes=1.0)
    want = compute.attention_flops_per_token(
        12, 40, 128, 128, 65_536, 1.0
    ) + compute.attention_flops_per_token(36, 40, 128, 128, 4096, 1.0)
    assert per == pytest.approx(want)


def test_b2_decode_reads_the_chunk_whatever_is_held() -> None:
    """A decode step reads min(context, 8,192) tokens on a chunked layer, stored window or not."""
    spec = get_model("Llama-4-Scout-17B-16E")
    for stored in (None, 16_384, 504_096):
        s = spec.model_copy(update={"chunk_kv_window": stored})
        assert kv_read_bytes_per_sequence(s, 1_000_000) == pytest.approx(held(1_000_000, 8192))
    assert kv_bytes_per_sequence(spec, 1_000_000) == pytest.approx(FULL * 1_000_000)
    kept = spec.model_copy(update={"chunk_kv_window": 16_384})
    assert kv_bytes_per_sequence(kept, 1_000_000) == pytest.approx(held(1_000_000, 16_384))


@pytest.mark.parametrize(
    "q",
    [
        "Serve Mistral 7B v0.1 at 32K context on one H100",  # a real sliding window (4,096): unchanged
        "在一张 H100 上部署 Mistral 7B v0.1，32K 上下文",
    ],
)
def test_sliding_window_models_unchanged(q: str) -> None:
    """Mistral 7B v0.1: 32 layers × 8 KV heads × 128, every layer at its 4,096-token window."""
    _, inf = _inference(q)
    assert inf.kv_bytes_per_sequence == pytest.approx(32 * 8 * 128 * 2 * 2 * 4096)


@pytest.mark.parametrize(
    ("q", "words"),
    [
        (
            "Llama 4 Scout at 128K context on H100, how many GPUs?",
            "plus the tokens vLLM schedules a step (16,384",
        ),
        ("Llama 4 Scout 128K 上下文，H100 要几张？", "加上 vLLM 每步调度的 token 数估算（每个序列 16,384"),
    ],
)
def test_b1_assumed_note_names_the_kept_tokens(q: str, words: str) -> None:
    """No runtime said: vLLM's default on an H100, 8,192 + 8,192 tokens, named in the note."""
    reply = answer(q)
    assert reply.report is not None
    note = [w for w in reply.report.warnings if w.code == "chunked_kv_assumed"]
    assert note and note[0].params["window"] == 16_384
    assert words in ask_text(q)


def test_b2_training_side_generation_reads_the_chunk() -> None:
    """A trainer's eager generate (estimator.trainer_decode) decodes Llama 4 reading the chunk on its 36
    chunked layers: it equals the speed at the KV a decode step reads there, min(context, 8,192)."""
    spec, h100 = get_model("Llama-4-Scout-17B-16E"), catalog.gpu("H100-SXM5-80GB")
    params, active = spec.params_total, spec.params_active or spec.params_total
    weights = 2.0 * params
    got = generate_speed(spec, params, active, h100, weights, 65_536, 4)
    eager = replace(FITTED, bandwidth=FITTED.bandwidth / EAGER_SLOWDOWN)
    want = decode_speed(spec, params, active, h100, 1, 2.0, held(65_536, 8192), 4, Precision.bf16, eff=eager)
    full = decode_speed(spec, params, active, h100, 1, 2.0, FULL * 65_536, 4, Precision.bf16, eff=eager)
    assert want is not None and full is not None and got == pytest.approx(want.aggregate)
    assert got > full.aggregate
