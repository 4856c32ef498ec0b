"""Trial s16 #1: a load now and a load at the peak in one message, in every phrasing and both
languages: the peak is sized (150 concurrent of Llama-3.1-8B at 4K: 2 × H100) and the load of today is
named as ``current_load`` (never 'a second value for the same setting')."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3.1-8B on H100, 40 concurrent users now and 150 at peak, 4k context. How many GPUs?",
        "Serve Llama-3.1-8B-Instruct on H100 with 40 concurrent users now and 150 concurrent users at peak. "
        "How many GPUs?",
        "Serve Llama-3.1-8B-Instruct on H100 with 40 users currently but 150 at peak. How many GPUs?",
        "Serve Llama-3.1-8B on H100, 40 concurrent users normally, up to 150, 4k context. How many GPUs?",
        "Serve Llama-3.1-8B on H100: 40 concurrent users normally and up to 150 at peak. How many GPUs?",
        "Serve Llama-3.1-8B on H100, 40 concurrent users now, 150 at peak, 4k context. How many GPUs?",
        "部署 Llama-3.1-8B-Instruct，H100，平时40并发，高峰150，要几张卡？",
        "部署 Llama-3.1-8B-Instruct，H100，峰值150、平均40并发，要几张卡？",
        "部署 Llama-3.1-8B-Instruct，H100，平时40并发，最多150，要几张卡？",
        "部署 Llama-3.1-8B-Instruct，H100，现在40个用户同时在线，最多能到150个，要几张卡？",
    ],
)
def test_the_peak_is_sized_and_the_load_of_today_named(capsys, question):
    d = ask(capsys, question)
    assert d["request"]["concurrency"] == 150
    assert d["report"]["inference"]["serving_gpus"] == 2
    assert {"text": "40", "reason": "current_load"} in d["interpretation"]["ignored"]
    assert "repeated" not in {i["reason"] for i in d["interpretation"]["ignored"]}


def test_up_to_a_context_is_not_a_peak(capsys):
    d = ask(capsys, "Serve Qwen2.5-7B on A10 with 10 users normally, up to 32k context. How many GPUs?")
    assert d["request"]["concurrency"] == 10 and d["request"]["seq_len"] == 32768
