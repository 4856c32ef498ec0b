"""How a serving answer uses the user's GPUs across nodes (vLLM docs, "Distributed inference and
serving": TP inside a node, pipeline stages across nodes)."""

from __future__ import annotations

import pytest

from estimator import estimate
from estimator.models import SizingRequest, Stage

R1_KV_BYTES_PER_TOKEN = 61 * (512 + 64) * 2
"""DeepSeek-R1 (V3 architecture, MLA): 61 layers × (kv_lora_rank 512 + rope 64) × 2 bytes, one copy."""


def _serve(gpus: int, concurrency: int) -> object:
    return estimate(
        SizingRequest(
            stage=Stage.inference,
            model="DeepSeek-R1",
            gpu="H20-96GB",
            gpu_count=gpus,
            concurrency=concurrency,
            seq_len=65_536,
            dp_attention=True,  # the layouts below are DP attention's (no engine named: plain TP, s25 #8)
        )
    ).inference


def test_two_h20_nodes_serve_r1_as_one_copy_across_both():
    """673 GB of FP8 weights leave ~40 GB of KV room in one 8 × 96 GB node (6 sequences of 64K), but
    one copy over both nodes (TP 8 × PP 2) has ~700 GB: 30 sequences (138 GB of KV) fit with room."""
    inf = _serve(16, 30)
    assert inf.kv_bytes_per_token == R1_KV_BYTES_PER_TOKEN
    assert inf.kv_bytes_total == pytest.approx(30 * 65_536 * R1_KV_BYTES_PER_TOKEN)
    assert (inf.tp, inf.pp, inf.replicas) == (8, 2, 1)
    assert inf.max_concurrency >= 30


def test_replicas_first_when_they_hold_the_load():
    """Llama-3-70B, 16 users at 4K on 16 H100: copies of TP 2 hold it; more copies, more throughput."""
    inf = estimate(
        SizingRequest(
            stage=Stage.inference,
            model="Llama-3-70B",
            gpu="H100-SXM5-80GB",
            gpu_count=16,
            concurrency=16,
            seq_len=4096,
        )
    ).inference
    assert inf.pp == 1 and inf.replicas > 1
    assert inf.max_concurrency >= 16


def test_time_to_first_token_counts_attention_at_long_prompts():
    """Prefill = (2·N_active + causal attention of one forward pass) × prompt / (peak × the fitted
    67.5 %; 50 % before issue 25). DeepSeek-V3 at a 96K-token prompt (MLA: 61 layers × 128 heads ×
    (192 q·k + 128 v), 49,152 keys per query on average under the causal mask): 2 × 61 × 128 × 320 ×
    49,152 = 2.46e11 FLOPs per token against
    2 × 37e9 for the weights — prefill takes 4.3× as long as the weights alone would say."""
    from estimator import catalog
    from estimator.inference import prefill_seconds

    spec, gpu = catalog.model("DeepSeek-V3"), catalog.gpu("H200-SXM-141GB")
    attention = 2 * 61 * 128 * 320 * 49_152
    with_attention = prefill_seconds(spec.params_active, 98_304, gpu, 8, spec)
    weights_only = prefill_seconds(spec.params_active, 98_304, gpu, 8)
    from estimator.serving_speed import allreduce_seconds

    comm = allreduce_seconds(spec, gpu, 8, 98_304)  # TP 8's all-reduces, none without a shape (s39 fixs #1)
    assert (with_attention - comm) / weights_only == pytest.approx(
        1 + attention / (2 * spec.params_active), rel=1e-9
    )
    assert weights_only == pytest.approx(2 * spec.params_active * 98_304 / (gpu.peak_flops_16bit * 0.675 * 8))
