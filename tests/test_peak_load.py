"""A load said only by its peak word is the target load (session 14 fresh-user trial #3: 'average 10
concurrent users, peaks of 60' named the 60 'no word said what it is'; '平时30、峰值200' named the 200 a run's
result). The peak is sized, the average named (``current_load``)."""

from __future__ import annotations

import pytest

from bot.parse import parse

EN = [
    "Mistral-7B with vLLM on one A10G: average 10 concurrent users, peaks of 60, 4k context — enough?",
    "Mistral-7B with vLLM on one A10G: 10 concurrent users on average, peaking at 60, 4k context. Enough?",
    "Mistral-7B with vLLM on one A10G: typically 10 concurrent users, spikes to 60, 4k context",
    "Mistral-7B with vLLM on one A10G, 10 concurrent users at night and bursts of 60, 4k context",
    "Mistral-7B with vLLM on one A10G: 10 concurrent users at night, up to 60 during the day, 4k context",
    "Mistral-7B with vLLM on one A10G: 10 concurrent users, 60 at peak, 4k context",
]


@pytest.mark.parametrize("question", EN)
def test_an_english_peak_is_the_load_sized(question: str) -> None:
    res = parse(question)
    assert (res.request.stage, res.request.gpu, res.request.concurrency, res.request.seq_len) == (
        "inference",
        "A10G",
        60,
        4096,
    )
    assert ("10", "current_load") in res.unused_numbers
    assert not any(text == "60" for text, _ in res.unused_numbers)


ZH = [
    ("vLLM 部署 Qwen2.5-14B，日常 20 并发，高峰时 60，L40S 要几张？", 60),
    ("vLLM 部署 Qwen2.5-14B，平均 20 个并发，高峰 120，L40S 要几张？", 120),
    ("vLLM 部署 Qwen2.5-14B，20 个并发，峰值 200，L40S 要几张？", 200),
    ("Qwen2.5-14B 用 L40S 部署，平时 20 个并发，高峰期能到 120，几张卡？", 120),
]


@pytest.mark.parametrize(("question", "sized"), ZH)
def test_a_chinese_peak_is_the_load_sized(question: str, sized: int) -> None:
    res = parse(question)
    assert (res.request.stage, res.request.gpu, res.request.concurrency) == ("inference", "L40S", sized)
    assert ("20", "current_load") in res.unused_numbers


def test_the_trial_sglang_peak_is_no_run_result() -> None:
    res = parse("SGLang Qwen3-235B-A22B，每月10万，平时30、峰值200，16k，H800")
    assert (res.request.gpu, res.request.concurrency) == ("H800-SXM5-80GB", 200)
    assert not any(text == "200" for text, _ in res.unused_numbers)
    assert ("30", "current_load") in res.unused_numbers  # '平时30': the load of every day, named


def test_a_peak_with_its_unit_keeps_its_unit() -> None:
    """'memory peaks at 70 GB' is memory, not a load: the right-hand word decides first."""
    res = parse("Serving Llama-3-8B with vLLM on one A100, 16 concurrent users, memory peaks at 70 GB")
    assert res.request.concurrency == 16
