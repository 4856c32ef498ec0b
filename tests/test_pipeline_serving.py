"""Serving with pipeline parallelism (issue 25 follow-up, s7 fix item 1): a token passes every stage in
turn, so PP never makes one sequence faster; the planner uses TP within a node, then replicas, and
pipeline stages only as many as one copy of the model needs to fit (vLLM "Distributed inference and
serving": TP = GPUs per node, PP = nodes, only when the model does not fit in one node)."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.serving_speed import FITTED, decode_speed, interstage_seconds
from tests.cli_run import ask_json, ask_text

H100_BW = 3350e9
"""H100 SXM5 HBM3 bandwidth, bytes/s (NVIDIA H100 datasheet: 3.35 TB/s)."""


def test_405b_for_200_users_gets_replicas_of_the_fewest_stages_and_a_per_sequence_speed_of_one_group():
    """Llama 3.1 405B bf16 (811.8 GB) does not fit on one 8 × H100 node (8 × 71.3 GiB usable): 2 stages
    hold it with ≈ 166 sequences of 4K, so 200 users get 2 copies of TP 8 × PP 2 (not one TP 8 × PP 3
    or PP 4 copy). Per sequence: a step reads all the weights on ONE TP group's bandwidth, 8 × 3.35 TB/s
    × 0.50 = 13.4 TB/s: (811.8 GB + 100 × 2.114 GB KV) / 13.4 TB/s = 76.4 ms, + the TP all-reduces
    252 × (10 µs + 1.75 × 3.28 MB / 315 GB/s) = 7.1 ms, + one hop 20 µs + 3.28 MB / 35 GB/s = 0.11 ms
    → 83.6 ms = 11.96 tokens/s; counting PP as faster would have given 2 × that."""
    d = ask_json("serve Llama 3.1 405B to 200 users on H100")
    inf = d["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"]) == (8, 2, 2)
    assert inf["min_gpus"] == 16 and inf["recommended_gpus"] == 32
    per_replica = 100
    t_mem = (inf["weights_bytes"] + per_replica * inf["kv_bytes_per_sequence"]) / (
        8 * H100_BW * FITTED.bandwidth
    )
    assert t_mem == pytest.approx(0.07636, rel=1e-3)
    speed = inf["decode_tokens_per_s"]
    assert speed["per_sequence"] == pytest.approx(11.96, abs=0.01)
    assert speed["per_sequence"] < 1 / t_mem  # never faster than one TP group reading every weight
    assert speed["aggregate"] == pytest.approx(200 * speed["per_sequence"], rel=1e-6)
    text = ask_text("serve Llama 3.1 405B to 200 users on H100")
    assert "TP=8 × PP=2 × 2 replicas" in text
    assert "because one node's TP group cannot hold it" in text and "more copies of the model" in text


def test_deepseek_v3_chinese_reason_names_why_the_pipeline():
    """DeepSeek-V3 FP8 (673 GB) on H100: one node holds 8 × 71.3 GiB = 612 GB, so 2 stages; 200 users
    fit in that one copy (1,701 sequences of 4K), so no replica and no further stage."""
    q = "200个用户并发用vllm部署deepseek v3，H100要几张"
    inf = ask_json(q)["report"]["inference"]
    assert (inf["tp"], inf["pp"], inf["replicas"]) == (8, 2, 1)
    text = ask_text(q)
    assert "TP=8 × PP=2" in text
    assert "一台机器的 TP 组放不下" in text and "分段不会让单条序列更快" in text


def test_pipeline_adds_hops_and_spreads_only_compute():
    """decode_speed with PP 2 vs PP 1 on the same TP 8 group: memory-bound, the step grows by exactly
    the hop (interstage_seconds); compute-bound (a large batch of a small-hidden model), the compute term
    spreads over the two stages working at once (micro-batches in flight), so the aggregate rises."""
    spec, gpu = catalog.model("Llama-3.1-405B"), catalog.gpu("H100-SXM5-80GB")
    args = (spec, 405.9e9, 405.9e9, gpu, 8, 2.0, 2.1e9, 100)
    one, two = decode_speed(*args), decode_speed(*args, pp=2)
    assert 1 / two.per_sequence - 1 / one.per_sequence == pytest.approx(interstage_seconds(spec, 2, 100))
    assert interstage_seconds(spec, 2, 100) == pytest.approx(20e-6 + 100 * 16384 * 2 / 35e9)
    big = (spec, 405.9e9, 405.9e9, gpu, 8, 2.0, 0.0, 4096)
    c1, c2 = decode_speed(*big), decode_speed(*big, pp=2)
    assert c1.bound == "compute" and c2.aggregate > 1.5 * c1.aggregate
