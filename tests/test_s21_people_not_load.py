"""The people a service is for are not sequences at once (trial s21 #3). Before: '公司大概200人用' and
'for 200 employees' were sized as 200 concurrent sequences (32 A100 for R1-distill-32B at 32K). Now a
head count (employees, staff, 人用; not 'users') of 50 or more with no load word is ``users``; the load
is ⌈200 × 10 %⌉ = 20 at once, said in the assumptions and the 'Used' line (estimator.active_users). A
stated concurrency still wins, and a few people ('5 people, each with …') are the load as said."""

from __future__ import annotations

import pytest

from bot.cli import ask
from estimator.active_users import active_sequences
from tests.real_questions import answer_json


@pytest.mark.parametrize(
    "text",
    [
        "deploy Qwen2.5-32B for 200 employees, how many A100s",
        "老板让我评估一下，私有化部署deepseek r1 蒸馏版 32b，公司大概200人用，需要买什么卡",
    ],
)
def test_a_head_count_is_ten_percent_at_once(text: str) -> None:
    data = answer_json(text)
    assert data["request"]["users"] == 200 and data["request"]["concurrency"] == 20
    conc = next(a for a in data["assumptions"] if a["field"] == "concurrency")
    assert conc["why"] == "users_active_share" and conc["params"] == {"users": 200}
    assert {"text": "200", "reason": "users_active_share"} in data["interpretation"]["ignored"]
    assert data["report"]["inference"]["concurrency"] == 20


def test_headline_names_the_load_sized() -> None:
    head = ask("deploy Qwen2.5-32B for 200 employees, how many A100s", None, "text")[0].splitlines()[0]
    assert head.startswith("Qwen2.5 32B bf16 inference for 20 concurrent × 4K context: 2 × A100 80G")


def test_a_stated_concurrency_wins() -> None:
    req = answer_json("给 200 人用，大概同时 30 个并发，部署 Qwen2.5-14B 要几张 4090")["request"]
    assert req["concurrency"] == 30 and req["users"] is None


def test_a_few_people_each_with_a_context_are_the_load() -> None:
    req = answer_json("serve Llama-3.3-70b with vLLM to about 5 people, each with the full 128k context")[
        "request"
    ]
    assert req["concurrency"] == 5 and req["users"] is None


def test_active_sequences() -> None:
    assert [active_sequences(n) for n in (200, 1000, 25, 1)] == [20, 100, 3, 1]
