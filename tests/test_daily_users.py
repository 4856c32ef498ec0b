"""Trial s22 #4: daily active users ('日活1000人', '1000 daily active users', 'DAU 5万') are the people a
service is for: the request's ``users`` (json_order 76), sized at ⌈users × 10 %⌉ sequences at once
(estimator.active_users.ACTIVE_SHARE, said), never 'unused 1000'. A stated concurrency wins and the DAU
is named as not the load. Through ``sizing-bot ask --format json``, both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text,users,typed",
    [
        ("部署 Qwen2.5-72B，预算每月5万，日活1000人", 1000, "1000"),
        ("Serve Qwen2.5-72B for 1000 daily active users, budget $5000 a month", 1000, "1000"),
        ("部署Qwen2.5-32B，DAU 5万，用4张A100", 50_000, "5万"),
        ("Qwen2.5-7B chatbot with 10k DAU on L40S: how many GPUs?", 10_000, "10k"),
        ("部署Qwen2.5-14B，日活跃用户约2万，要几张4090", 20_000, "2万"),
    ],
)
def test_daily_active_users_are_the_people_the_service_is_for(capsys, text, users, typed):
    out = ask(capsys, text)
    assert out["request"]["users"] == users
    assert out["request"]["concurrency"] == -(-users // 10)  # ⌈users × 10 %⌉: 1000 → 100
    ignored = {(i["text"], i["reason"]) for i in out["interpretation"]["ignored"]}
    assert (typed, "users_active_share") in ignored and (typed, "unread") not in ignored


@pytest.mark.parametrize(
    "text,conc",
    [("部署Qwen2.5-32B，日活2万，峰值并发50", 50), ("Serve Qwen2.5-32B, DAU 20000, 50 concurrent", 50)],
)
def test_a_stated_concurrency_wins_over_the_daily_users(text, conc):
    r = parse(text)
    assert r.request.concurrency == conc and r.request.users is None
    assert [u for u in r.unused_numbers if u[1] == "users_not_load"]
