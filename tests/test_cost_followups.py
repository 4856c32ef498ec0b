"""Cost questions ("monthly bill", "每个月多少钱", "一个月电费多少") and a day's hours (s18-fix #4).

The trial: after 'Serve Qwen2.5-72B-Instruct with vLLM on 4 H100s for 30 concurrent users at 8k context',
"what's the monthly bill?", "only 8 hours a day" and "每个月多少钱？" were answered with the help text;
'只在白天用 8 小时，一个月多少钱' priced one 8-hour day and read '一个月' as a 30-day training deadline.
"""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.render.renderer import render

SERVE = "Serve Qwen2.5-72B-Instruct with vLLM on 4 H100s for 30 concurrent users at 8k context"
TRIAL_ZH = "70B 模型推理，128K 上下文，并发 10，用 A100 80G 需要几张？只在白天用 8 小时，一个月多少钱？"


@pytest.mark.parametrize(
    "text",
    ["what's the monthly bill?", "每个月多少钱？", "一个月电费多少", "一个月租金多少", "每月要花多少钱"],
)
def test_cost_words_ask_the_cost(text: str) -> None:
    assert parse(text).asks_cost


def test_trial_followups_are_understood_in_turn() -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    first = conv.ask(1, 10, SERVE).answer
    month = first.report.inference.cost_per_month
    bill = conv.ask(1, 10, "what's the monthly bill?").answer
    assert bill.understood and bill.followup and bill.changed == []
    assert bill.report.inference.cost_per_month == month  # the same deployment, its month in the headline
    assert "per month" in render(bill, "text").splitlines()[0]
    daily = conv.ask(1, 10, "only 8 hours a day").answer
    assert daily.understood and daily.changed == ["hours_per_day"]
    assert daily.report.request.hours_per_day == 8
    # estimator.serving_schedule: the around-the-clock month × 8 ÷ 24
    assert daily.report.inference.cost_per_month.low == pytest.approx(month.low * 8 / 24)
    zh = conv.ask(1, 10, "每个月多少钱？").answer
    assert zh.understood and zh.followup and zh.report.request.hours_per_day == 8
    assert "每月" in render(zh, "text").splitlines()[0]


def test_trial_zh_prices_a_month_of_eight_hour_days() -> None:
    a = answer(TRIAL_ZH, Context())
    req = a.report.request
    assert req.hours_per_day == 8 and req.deadline_days is None  # '一个月' is the rental, not a deadline
    assert req.hours == pytest.approx(730 * 8 / 24)  # a month (730 h) of 8-hour days: 243.3 h
    line = render(a, "text").splitlines()[1]
    assert line.startswith("8 张 A100 80G，每天 8 小时，共 243 小时 = 1,947 卡·时")  # 8 × 243.3 = 1,946.7


def test_a_cost_question_with_nothing_before_is_not_a_followup() -> None:
    assert not answer("what's the monthly bill?", Context()).understood
