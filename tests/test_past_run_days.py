"""A finished run's days are how long it ran, not a deadline (trial s14 #4: 'We ran a 7B pretrain on 200B
tokens on 64 H100 for 3 days, what did it cost?' answered "Not within 3 days: … needs ≈ 160 GPUs"). The
days are the run's known duration: 64 GPUs × 72 hours = 4,608 H100-hours, priced."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask_json(capsys, question: str) -> dict:
    """``sizing-bot ask --format json QUESTION`` in this process (exit 0 required), parsed."""
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


RUNS = [
    "We ran a 7B pretrain on 200B tokens on 64 H100 for 3 days, what did it cost?",
    "Our 7B pre-training (200B tokens, 64 H100s) took 3 days. What did that cost us?",
    "我们用 64 张 H100 预训练了一个 7B，200B token，跑了 3 天，花了多少钱？",
    "64 张 H100 预训练 7B、2000 亿 token，训练了 3 天，成本大概多少",
]


@pytest.mark.parametrize("question", RUNS)
def test_a_past_runs_days_are_its_duration(question: str) -> None:
    req = parse(question).request
    assert (req.stage, req.gpu_count, req.tokens) == ("pretrain", 64, 200e9)
    assert (req.hours, req.deadline_days) == (72.0, None)


@pytest.mark.parametrize(
    "question",
    [
        "Pretrain a 7B on 200B tokens on 64 H100 in 3 days, what will it cost?",
        "64 张 H100 预训练 7B，200B token，3 天内训完要花多少钱？",
        "我用了 64 张 H100，预训练 7B、200B token，3 天能训完吗？花多少钱？",
        "我用了 64 张 H100 3 天能训完 7B 的 200B token 吗，要花多少钱",
    ],
)
def test_a_deadline_stays_a_deadline(question: str) -> None:
    req = parse(question).request
    assert (req.deadline_days, req.hours) == (3.0, None)


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("训练了 3 天，64 张 H100 跑 7B 200B token，这样要多久？", "3 天"),
        (
            "We trained a 7B on 200B tokens on 64 H100; it ran for 3 days. How long on the same GPUs?",
            "3 days",
        ),
    ],
)
def test_with_how_long_asked_the_run_is_named(question: str, typed: str) -> None:
    """'how long' asked beside a finished run's days: the days are that run's observation, named."""
    res = parse(question)
    assert res.request.hours is None and res.request.deadline_days != 3.0
    assert (typed, "observed") in res.unused_numbers


def test_the_reply_prices_the_gpu_hours(capsys) -> None:
    out = ask_json(capsys, RUNS[0])
    head = out["reply"].split("\n")[:2]
    assert "4.6K H100-hours" in head[0] and head[1] == "Cost: $6,912 – $16,128"  # 4,608 × $1.50–3.50
    assert "Not within" not in out["reply"]
    out = ask_json(capsys, RUNS[2])
    assert "4,608 H100·时" in out["reply"].split("\n")[0]
