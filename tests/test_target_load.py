"""Two loads, one now and one at the peak or later: the target is sized, the current one named
(``current_load``) — capacity is planned for the peak (trial s14 #1: '现在 20 个并发，年底峰值并发大概 100'
sized 20 and called the 100 unread; '20 concurrent users now, … scale up to 64 users' sized 20 and
called the 64 "people who use the service")."""

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


CASES = [
    ("Qwen2.5-14B 上 L40S，目前每天 30 个并发，年底高峰大概 120 个并发，几张卡？", 120, "30"),
    ("部署 Qwen2.5-14B，眼下 30 并发，峰值并发大约 120，L40S 需要几张", 120, "30"),
    ("Qwen2.5-14B 用 L40S 部署，现在 30 个并发，上线后预计 120 个并发，要几张？", 120, "30"),
    ("Qwen2.5-14B，L40S，平时 30 个并发，最多 120 个并发，几张够？", 120, "30"),
    ("Qwen2.5-14B 部署在 L40S，现在 30 并发，未来要扩到 120 个用户，几张卡", 120, "30"),
    ("Qwen2.5-14B on L40S: 30 concurrent users today, 120 at peak. How many cards?", 120, "30"),
    (
        "Serving Qwen2.5-14B on L40S for 30 concurrent users now; we plan to grow to 120 users. How many?",
        120,
        "30",
    ),
    ("Qwen2.5-14B on L40S, currently 30 concurrent, target 120 concurrent users: how many GPUs?", 120, "30"),
    (
        "Qwen2.5-14B on L40S — 30 concurrent users right now, eventually 120 concurrent. How many L40S?",
        120,
        "30",
    ),
    (
        "Qwen2.5-14B on L40S, 30 concurrent today, at most 120 concurrent users by launch; how many?",
        120,
        "30",
    ),
    ("部署 Qwen2.5-14B，目前峰值并发 30，预计明年 120 并发，L40S 要几张？", 120, "30"),
    (
        "Qwen2.5-14B on L40S: today's peak is 30 concurrent users, we expect 120 concurrent next year.",
        120,
        "30",
    ),
]


@pytest.mark.parametrize(("question", "sized", "named"), CASES)
def test_the_target_load_is_sized(question: str, sized: int, named: str) -> None:
    res = parse(question)
    assert (res.request.stage, res.request.gpu, res.request.concurrency) == ("inference", "L40S", sized)
    assert (named, "current_load") in res.unused_numbers


def test_users_beside_a_concurrency_stay_users() -> None:
    """No target word: '200 users, about 30 concurrent' still sizes the 30 (s13 N3)."""
    res = parse("Qwen2.5-14B on L40S: 200 users, about 30 concurrent. How many cards?")
    assert res.request.concurrency == 30
    assert ("200", "users_not_load") in res.unused_numbers


def test_the_reply_names_the_current_load(capsys) -> None:
    out = ask_json(capsys, "部署 Qwen2.5-14B，现在 20 个并发，年底峰值并发大概 100，用 L40S 要几张？")
    assert out["request"]["concurrency"] == 100
    assert {"text": "20", "reason": "current_load"} in out["interpretation"]["ignored"]
    lines = out["reply"].split("\n")
    # s20 #5: on L40S (no NVLink) the smallest TP group within 1.25 × the fewest GPUs: TP 2 × 2 copies on 4
    # cards, the fewest (before: the same 4 cards at TP 4)
    assert (
        lines[0].startswith("Qwen2.5 14B bf16 推理，100 并发") and "4 张 L40S（TP=2 × 2 个副本）" in lines[0]
    )
    assert lines[1] == "未使用：“20”（现在的负载：容量要按你给的峰值或目标规划，估算用的是那个值）。"
    out = ask_json(
        capsys, "Serving Qwen2-7B to 20 concurrent users now, we want to scale up to 64 users; how many A10s?"
    )
    assert out["request"]["concurrency"] == 64
    assert "2 × A10 (TP=2)" in out["reply"].split("\n")[0]  # s20 #5: TP 1 would take 3 (> 1.25 × 2)
    assert out["reply"].split("\n")[1] == (
        "Not used: “20” (the load you have now: capacity is planned for the peak or target you gave, "
        "which is sized)."
    )
