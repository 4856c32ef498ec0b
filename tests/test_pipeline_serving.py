"""Serving with pipeline parallelism (issue 25 follow-up, s7 fix item 1): a token passes every stage in
turn, so PP never makes one sequence faster (the hops between nodes are charged); the planner keeps the
fewest GPUs that hold the load (design §3.5): a pipeline across nodes when it holds the weights or the
load on fewer GPUs than replicas, which each repeat the weights (vLLM "Distributed inference and
serving": TP = GPUs per node, PP = nodes)."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.serving_speed import FITTED, decode_speed, interstage_seconds
from tests.cli_run import ask_json, ask_text

H100_BW = 3350e9
"""H100 SXM5 HBM3 bandwidth, bytes/s (NVIDIA H100 datasheet: 3.35 TB/s)."""


def test_405b_for_200_users_gets_the_fewest_gpus_and_a_per_sequence_speed_of_one_group():
    """Llama 3.1 405B bf16 (811.8 GB) does not fit on one 8 × H100 node (8 × 71.3 GiB usable): 2 stages
    hold ≈ 166 sequences of 4K, 3 stages hold 200 on 24 GPUs (2 copies of 2 stages would take 32). With 3
    micro-batches in flight (vLLM: PP-size concurrent batches, vllm/config/vllm.py
    ``max_concurrent_batches``) a round reads all the weights on ONE TP group's bandwidth, 8 × 3.35 TB/s ×
    0.50 = 13.4 TB/s, and each stage only its own layers' KV cache (s28 trial H5): (811.8 GB + 200 ×
    2.114 GB / 3) / 13.4 TB/s = 71.1 ms, + the TP all-reduces 252 × (10 µs + 1.75 × 6.55 MB / 315 GB/s)
    = 11.7 ms, + two hops 2 × (20 µs + 6.55 MB / 35 GB/s) = 0.41 ms → 83.2 ms = 12.02 tokens/s (the serial
    pipeline's 9.59 read every layer's KV in one TP group's time); counting PP as 3 TP groups reading the
    weights at once would have given 3 × that."""
    d = ask_json("serve Llama 3.1 405B to 200 users on H100")
    inf = d["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"]) == (8, 3, 1)
    assert inf["min_gpus"] == 16 and inf["recommended_gpus"] == 24
    kv = 200 * inf["kv_bytes_per_sequence"] / 3
    t_mem = (inf["weights_bytes"] + kv) / (8 * H100_BW * FITTED.bandwidth)
    assert t_mem == pytest.approx(0.07110, rel=1e-3)
    speed = inf["decode_tokens_per_s"]
    assert speed["per_sequence"] == pytest.approx(12.02, abs=0.01)
    assert speed["per_sequence"] < 1 / t_mem  # never faster than one TP group reading every weight
    assert speed["aggregate"] == pytest.approx(200 * speed["per_sequence"], rel=1e-6)
    text = ask_text("serve Llama 3.1 405B to 200 users on H100")
    assert "TP=8 × PP=3" in text
    assert "fewer GPUs than copies inside nodes" in text and "do not make a sequence faster" in text


def test_deepseek_r1_for_100_users_at_32k_on_h20_is_one_pipeline_not_25_copies():
    """DeepSeek-R1 FP8 (673 GB) on H20 (96 GB): one TP-8 copy keeps only ≈ 145K tokens of KV beside the
    weights (4 sequences of 32K), so 100 users would need 25 copies (200 GPUs); one TP 8 × PP 2 copy
    holds them on 16 (review of this change, 2026-12-02: the replicas-only rule quoted 200 H20)."""
    # DP attention said: with no engine named the default is vLLM's plain TP (s25 trial #8)
    inf = ask_json("部署DeepSeek-R1 满血版，开 DP attention，100个用户并发，H20要几台")["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"], inf["recommended_gpus"]) == (8, 2, 1, 16)
    assert inf["max_concurrency"] >= 100


def test_deepseek_v3_chinese_reason_names_why_the_pipeline():
    """DeepSeek-V3 FP8 (673 GB) on H100: one node holds 8 × 71.3 GiB = 612 GB, so 2 stages; 200 users
    fit in that one copy (1,701 sequences of 4K), so no replica and no further stage."""
    q = "200个用户并发用vllm部署deepseek v3，H100要几张"
    inf = ask_json(q)["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"]) == (8, 2, 1)
    text = ask_text(q)
    assert "TP=8 × PP=2" in text
    assert "跨机的一份模型" in text and "分段不会让单条序列更快" in text


def test_pipeline_adds_hops_and_spreads_only_compute():
    """decode_speed with PP 2 vs PP 1 on the same TP 8 group: memory-bound, the step grows by the hop
    (interstage_seconds) and loses half the KV read (each stage reads its own layers' KV for its
    micro-batch, s28 trial H5), never any of the weights' read; compute-bound (a large batch of a
    small-hidden model), the compute term spreads over the two stages working at once (micro-batches in
    flight), so the aggregate rises."""
    spec, gpu = catalog.model("Llama-3.1-405B"), catalog.gpu("H100-SXM5-80GB")
    args = (spec, 405.9e9, 405.9e9, gpu, 8, 2.0, 2.1e9, 100)
    one, two = decode_speed(*args), decode_speed(*args, pp=2)
    half_kv = 100 * 2.1e9 / 2 / (8 * H100_BW * FITTED.bandwidth)
    hop = interstage_seconds(spec, 2, 100)
    assert 1 / two.per_sequence - 1 / one.per_sequence == pytest.approx(hop - half_kv)
    weights_only = (spec, 405.9e9, 405.9e9, gpu, 8, 2.0, 0.0, 100)  # no KV: the weights' read stays whole
    w1, w2 = decode_speed(*weights_only), decode_speed(*weights_only, pp=2)
    assert 1 / w2.per_sequence - 1 / w1.per_sequence == pytest.approx(hop)
    assert interstage_seconds(spec, 2, 100) == pytest.approx(20e-6 + 100 * 16384 * 2 / 35e9)
    big = (spec, 405.9e9, 405.9e9, gpu, 8, 2.0, 0.0, 4096)
    c1, c2 = decode_speed(*big), decode_speed(*big, pp=2)
    assert c1.bound == "compute" and c2.aggregate > 1.5 * c1.aggregate
