"""Trial s17-2 #1: a cost question on a stated count that does not hold the model at all (2 × H100 for
Qwen2.5-72B bf16 at 120 × 8K) is priced on the count that fits (8), not on the 2 the answer rejects; a
month of 10-hour days is one figure (730 × 10 ÷ 24 ≈ 304 h, never 300 on one line and 304 on another);
the price per GPU-hour is listed once."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

ZH = (
    "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 2 --max-model-len 8192，两张 H100，"
    "峰值 120 并发，每天只开 10 小时，一个月多少钱？"
)


def _ask(capsys, question: str, fmt: str, lang: str = "zh") -> str:
    main(["ask", "--lang", lang, "--format", fmt, question])
    return capsys.readouterr().out


def test_unfit_count_is_not_the_priced_count(capsys):
    d = json.loads(_ask(capsys, ZH, "json"))
    assert d["request"]["hours"] == pytest.approx(730 * 10 / 24)
    inf = d["report"]["inference"]
    assert (d["request"]["gpu_count"], inf["serving_gpus"], inf["recommended_gpus"]) == (2, 8, 8)
    # ¥15–40 per H100-hour (catalog CNY range) × 8 GPUs × 304.17 h
    assert inf["cost_for_load"]["low"] == pytest.approx(8 * 730 * 10 / 24 * 15.0, rel=0.01)
    assert inf["cost_for_load"]["high"] == pytest.approx(8 * 730 * 10 / 24 * 40.0, rel=0.01)
    prices = [a for a in d["assumptions"] if a["field"] == "price_per_gpu_hour"]
    assert len(prices) == 1


def test_unfit_count_reply_prices_the_eight(capsys):
    text = _ask(capsys, ZH, "text")
    lines = text.splitlines()
    assert lines[1].startswith("能承载这个负载的 8 张 H100 80G × 304 小时 = 2,433 卡·时 ≈ ¥36,")
    assert "2 张 H100 80G × 300 小时" not in text and "300 小时" not in text
    assert "你的 2 张" not in text  # the count that does not start is not priced
    assert text.count("每卡·时单价") == 1


def test_unfit_count_reply_in_english(capsys):
    text = _ask(capsys, ZH, "text", "en")
    assert "8 × H100 80G, which carry this load, for 304 hours = 2,433 GPU-hours ≈ $" in text
    assert "2 × H100 80G for 300 hours" not in text and text.count("Price per GPU-hour") == 1
