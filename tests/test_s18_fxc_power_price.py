"""Electricity is not rent (s18-fxc #3): a tariff per kWh is no budget, and an electricity question is
named as not priced (the cost given is the GPU rental)."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.parse import parse
from bot.render.renderer import render


def test_tariff_is_no_budget_and_is_not_carried() -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, "Serve Qwen2.5-72B with 50 concurrent users on H100")
    a = conv.ask(1, 10, "what's the electricity bill per month at 0.12 USD/kWh?").answer
    assert a.report.request.budget is None  # was $0.12 ("pays … for 0 months")
    text = render(a, "text")
    assert "“0.12 usd/kwh” (electricity: not priced — the cost given is the GPU rental" in text
    assert "budget" not in text.lower()
    nxt = conv.ask(1, 10, "how about 100 concurrent?").answer
    assert nxt.report.request.concurrency == 100 and nxt.report.request.budget is None


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("电费 0.6 元/度，一个月电费多少", "0.6 元/度"),
        ("每度电 0.6 元，一个月电费多少", "每度电 0.6 元"),
        ("一个月电费多少？", "电费"),
    ],
)
def test_zh_electricity_named_as_not_priced(text: str, phrase: str) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, "部署 Qwen2.5-72B 50 并发 要几张 H20")
    a = conv.ask(1, 10, text).answer
    assert a.report.request.budget is None
    assert f"“{phrase}”（电费：不计价——给出的费用是 GPU 租金" in render(a, "text")


def test_rent_words_are_not_named_and_a_budget_still_reads() -> None:
    assert parse("一个月租金多少").unused_numbers == []
    assert parse("部署 70B，预算 5 万元，要几张 A100").request.budget == 50000
