"""A serving throughput asked for is sized (trial 2026-12-02: "1M tokens per minute" and "5000 token/s"
were dropped without a word): the load is the sequences that decode it; requests per second are named
(they need the output tokens per request)."""

from __future__ import annotations

import pytest

from estimator import estimate
from estimator.models import SizingRequest
from tests.real_questions import answer_json


def test_target_is_met_by_the_sequences_decoding_at_once():
    """Llama 3.1 70B on H100, 5,000 output tokens/s: ≈ 35 tokens/s per sequence (bandwidth-bound), so
    ≈ 143 sequences; the answer's aggregate is per sequence × sequences, at or above the target."""
    r = estimate(
        SizingRequest(
            stage="inference", model="Llama-3.1-70B", gpu="H100-SXM5-80GB", target_tokens_per_s=5000
        )
    )
    speed, inf = r.inference.decode_tokens_per_s, r.inference
    # s37 grpo #2: the GPUs cover prefill too (15,000 prompt tokens/s at the assumed 3,072 of 4,096 take 0.41
    # of a TP-8 copy's second beside decode's 1.0): 2 copies, each decoding ⌈143 / 2⌉ = 72 sequences
    assert inf.replicas == 2
    per_copy = -(-inf.concurrency // inf.replicas)
    assert speed.aggregate >= 5000 and speed.aggregate == pytest.approx(speed.per_sequence * per_copy * 2)
    assert 100 <= inf.concurrency <= 200
    load = next(a for a in r.assumptions if a.field == "concurrency")
    assert (load.value, load.why) == (inf.concurrency, "throughput_target")
    assert inf.priced_concurrency == inf.concurrency  # priced at the target's load, not at capacity


@pytest.mark.parametrize(
    ("question", "target"),
    [
        ("qwen3 32b 部署，吞吐要 5000 token/s，要几张 H100", 5000),
        ("serve qwen3 32b, need 5k tokens/s in total, how many H100", 5000),
        ("llama 3.1 70b 上线，每分钟120万token的吞吐，要多少张H100", 20000),
        ("llama 3.1 70b serving at 1.2M tokens per minute on H100, how many GPUs", 20000),
        ("deepseek v3 推理 TPM 3M 用 H200 要几台", 50000),
    ],
)
def test_throughput_targets_in_both_languages(question: str, target: float):
    answer = answer_json(question)
    assert answer["request"]["target_tokens_per_s"] == pytest.approx(target)
    inf = answer["report"]["inference"]
    speed = inf["decode_tokens_per_s"]
    assert any(a["why"] == "throughput_target" for a in answer["assumptions"])
    short = [w for w in answer["report"]["warnings"] if w["code"] == "throughput_short"]
    if speed["aggregate"] < target:  # the KV cache's bandwidth levels one copy off: more copies reach it
        (note,) = short
        per_copy = inf["tp"] * inf["pp"]
        copies = -(-inf["replicas"] * target // speed["aggregate"])
        assert (note["params"]["replicas"], note["params"]["gpus"]) == (copies, copies * per_copy)
    else:
        assert not short


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("qwen3 32b 部署 vllm，qps大概20，要几张H100", "qps大概20"),
        ("serve qwen3 32b with vllm at 20 requests per second on H100", "20 requests per second"),
        ("qwen3 32b 部署，每秒 15 个请求，H100 要几张", "每秒 15 个请求"),
    ],
)
def test_requests_per_second_are_named_with_what_they_need(question: str, typed: str):
    answer = answer_json(question)
    assert {"text": typed, "reason": "qps_needs_output"} in answer["interpretation"]["ignored"]
    assert answer["request"]["target_tokens_per_s"] is None


def test_a_measured_rate_is_not_a_target():
    answer = answer_json("we get 3000 tokens/s serving llama 3 8b on one h100, how many users")
    assert answer["request"]["target_tokens_per_s"] is None


def test_short_of_target_is_said_in_both_languages():
    from bot.cli import ask

    en, _ = ask("llama 3.1 70b serving at 1.2M tokens per minute on H100, how many GPUs", None, "text")
    zh, _ = ask("llama 3.1 70b 上线，每分钟120万token的吞吐，要多少张H100", None, "text")
    # s8 fix item 2 (asked for): the headline gives the GPUs that reach the target (4 copies of TP 8 =
    # 32), the GPUs that only hold the load (24) are the detail; was a note "short of … 32 GPUs reach it".
    # s37 grpo #2: 48 with the prefill of the assumed prompts (tests/test_target_headline.py, worked there)
    assert "48 recommended (6 × 8-GPU nodes, TP=8 × 6 replicas)" in en.splitlines()[0]
    assert "The 921 sequences fit on 24 GPUs, which decode ≈ 19,448 tokens/s." in en
    assert "推荐 48 张（6 台 8 卡，TP=8 × 6 个副本）" in zh.splitlines()[0]
    assert "这 921 条序列放在 24 张卡上就装得下，但这些卡合计只能解码约每秒 19,448 个 token。" in zh
