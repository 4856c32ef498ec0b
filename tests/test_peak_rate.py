"""A request rate today and at its peak, with each request's lengths (trial s18 #1, issue 24): the peak rate
× the output tokens per request is the decode throughput sized, today's rate is named, and '512 in 256 out'
is the prompt and the reply. Sentences of our own, not corpus records; every value hand-computed."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

CASES = [
    # 60 req/s × 256 output = 15,360 tokens/s; context 512 + 256 = 768; prompt 512
    (
        "We run Mixtral 8x7B on L40S with SGLang. Today 25 requests/s, at peak 60 requests/s, "
        "512 in 256 out. How many cards?",
        15_360.0,
        512,
        "25 requests/s",
    ),
    # 40 req/s × 200 = 8,000 tokens/s (no prompt given: no prompt length)
    (
        "Llama 3.1 8B on L4s: currently 10 req/s, peaking at 40 req/s, 200 output tokens each. How many?",
        8_000.0,
        4096 - 200,  # s37 fixe #3: the default context less the stated output
        "10 req/s",
    ),
    # the peak said first: 50 × 100 = 5,000 tokens/s
    (
        "Llama-3-8B on A10G: peaks of 50 req/sec, normally 15 req/sec, 100 output tokens each; "
        "how many GPUs?",
        5_000.0,
        4096 - 100,  # s37 fixe #3: no context said, the prompt is the default 4,096 context less the output
        "15 req/sec",
    ),
    # 峰值 QPS 12 × 400 = 4,800 tokens/s; context 800 + 400 = 1,200; prompt 800
    (
        "部署 Qwen2.5-14B，平时 QPS 3，峰值 QPS 12，每次输出 400 token，输入 800 token，要几张 A100？",
        4_800.0,
        800,
        "qps 3",
    ),
    # 高峰 QPS 30 × 200 = 6,000 tokens/s
    (
        "GLM-4-9B 上线后，目前 QPS 8，高峰 QPS 30，每次输出 200 token，用 L40S 要几张？",
        6_000.0,
        4096 - 200,  # s37 fixe #3: the default context less the stated output
        "qps 8",
    ),
]


@pytest.mark.parametrize(("text", "tokens_per_s", "prompt", "today"), CASES)
def test_peak_rate_is_sized_and_today_named(
    text: str, tokens_per_s: float, prompt: int | None, today: str
) -> None:
    data = answer_json(text)
    req = data["request"]
    assert req["target_tokens_per_s"] == tokens_per_s
    assert (
        req.get("concurrency") in (None, 0) or req["concurrency"] != tokens_per_s
    )  # never the rate as a load
    assert req["prompt_tokens"] == prompt
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named[today] == "current_load"
    said = next(t for t, why in named.items() if why == "rate_times_output")
    assert f"= {tokens_per_s:,.0f} tokens/s" in said
    # the prefill named with it: 60 × 512 = 30,720 and 12 × 800 = 9,600 input tokens/s
    prefill = {512: "30,720", 800: "9,600"}.get(prompt or 0)
    assert said.endswith(f"input tokens = {prefill} prefill tokens/s" if prefill else " tokens/s")
    assert not [t for t, why in named.items() if why == "unread"]  # every number has its reading


@pytest.mark.parametrize(
    ("text", "tokens_per_s", "said"),
    [
        # 300 requests per minute = 5 requests/s; × 256 output tokens = 1,280 tokens/s
        (
            "Serving Llama 3.1 8B on L4, 300 requests per minute, output 256 tokens per request. How many?",
            1_280.0,
            "qps: 5 (300 a minute) × 256 output tokens = 1,280 tokens/s",
        ),
        # 每分钟 120 个请求 = 2 requests/s (was read as 120 a second: 60× too large); × 500 = 1,000 tokens/s
        (
            "部署 Qwen2.5-7B，每分钟 120 个请求，每次输出 500 token，用 L40S 要几张？",
            1_000.0,
            "qps: 2 (120 a minute) × 500 output tokens = 1,000 tokens/s",
        ),
    ],
)
def test_rate_per_minute_with_output(text: str, tokens_per_s: float, said: str) -> None:
    data = answer_json(text)
    assert data["request"]["target_tokens_per_s"] == tokens_per_s
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named == {said: "rate_times_output"}  # the typed 300 / 120 is in it: never 'unread'


def test_in_out_without_separator() -> None:
    # '1024 in 128 out': prompt 1,024 and reply 128, context 1,152; 8 req/s × 128 = 1,024 tokens/s
    text = "Serving Qwen2.5-7B on one H100 at 8 req/s, 1024 in 128 out: does it keep up?"
    req = answer_json(text)["request"]
    assert (req["prompt_tokens"], req["seq_len"], req["target_tokens_per_s"]) == (1024, 1152, 1024.0)


def test_one_rate_alone_is_unchanged() -> None:
    # one rate: 12 × 300 = 3,600 tokens/s, no load of today named
    data = answer_json("12 requests per second, 300 output tokens each, Llama-3-8B on A10Gs: how many?")
    assert data["request"]["target_tokens_per_s"] == 3_600.0
    assert "current_load" not in {i["reason"] for i in data["interpretation"]["ignored"]}
