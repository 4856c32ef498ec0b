"""A day's request volume with the tokens per request is the service's load (trial s21 #5). Before:
'每天10万次调用，每次输入2k输出500' named the volume as no field and the '10' of '10万' as unread, and
sized 2 L20 decoding 179 tokens/s. Now: 100,000 ÷ 86,400 s = 1.157 requests/s × 500 output tokens =
579 output tokens/s, the day's average (said so: no peak factor is assumed), sized as a throughput
target. Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

ZH = "我们每天大概10万次调用，每次输入2k输出500 token，用Qwen2.5-32B，要多少张L20？"


def test_daily_volume_is_the_average_rate() -> None:
    data = answer_json(ZH)
    req = data["request"]
    # s35 fix c #2: the busiest hour's rate, 3× the day's average (estimator.request_volume.PEAK_FACTOR)
    assert req["target_tokens_per_s"] == pytest.approx(100_000 / 86_400 * 3 * 500)  # 1,736.1 tokens/s
    assert req["prompt_tokens"] == 2000 and req["seq_len"] == 2000 + 500  # "2k" read as 2,000
    ignored = data["interpretation"]["ignored"]
    assert not any(i["reason"] == "unread" for i in ignored)  # the '10' of '10万' is read
    said = next(i["text"] for i in ignored if i["reason"] == "rate_times_output")
    assert "100,000 a day ÷ 86,400 s × 3, the busiest hour" in said and "= 1,736 tokens/s" in said
    inf = data["report"]["inference"]
    assert inf["decode_tokens_per_s"]["aggregate"] >= 1736  # the answer decodes the load


def test_a_volume_alone_names_no_stray_digits() -> None:
    ignored = answer_json("我们每天大概10万次调用，用Qwen2.5-32B，要多少张L20？")["interpretation"]["ignored"]
    assert ignored == []  # s35 fix c #2: the volume is read (estimator.request_volume), no longer "no field"


def test_english_daily_requests() -> None:
    req = answer_json(
        "we get 10k requests a day, 1k prompt and 300 output tokens each; serve Llama 3 8B on L4"
    )["request"]
    assert req["target_tokens_per_s"] == pytest.approx(10_000 / 86_400 * 3 * 300)  # 104.2 tokens/s (s35 peak)
