"""A service run around the clock (trial s18 #5): '24/7', '7x24 小时', 'round the clock' are a schedule of 24
hours a day, never '24' users and an unread '7'. Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

CASES = [
    ("Monthly cost of serving Llama 3.1 8B on 2 H100 for 150 concurrent users 24/7?", 150),
    ("部署 Qwen2.5-7B，60 并发，7x24 小时运行，用 2 张 L40S 每月多少钱？", 60),
    ("Serve Qwen2.5-14B round the clock on 2 A100 for 30 concurrent users: monthly cost?", 30),
    ("全天候跑 Qwen2.5-7B 推理，40 并发，2 张 A10，一个月多少钱？", 40),
]


@pytest.mark.parametrize(("text", "load"), CASES)
def test_around_clock_is_a_schedule(text: str, load: int) -> None:
    data = answer_json(text)
    assert data["request"]["hours_per_day"] == 24.0
    assert data["request"]["concurrency"] == load
    named = {i["text"] for i in data["interpretation"]["ignored"]}
    assert not named & {"24", "7"}


def test_product_of_three_is_not_a_schedule() -> None:
    # '24x7x365' is no schedule form of this reader: hours_per_day stays unset, the load is the 20
    data = answer_json("Serving Llama 3.1 8B on 1 H100, 24x7x365 uptime, 20 concurrent users")
    assert data["request"].get("hours_per_day") is None
    assert data["request"]["concurrency"] == 20
