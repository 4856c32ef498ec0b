"""A Chinese hours-a-day follow-up with '一个月' bills the month of those days (s18-fxc #1).

'部署 Qwen2.5-72B 50 并发 要几张 H20' then '只在白天用 8 小时，一个月多少钱' billed 720 h (24 h a day): the
follow-up's own '一个月' (720 h) was kept as the rental while its schedule was read against the previous
request's hours (none). A month (730 h) of 8-hour days is 243.3 h; 4 cards × 243.3 = 973 card-hours.
"""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.render.renderer import render

FIRST = "部署 Qwen2.5-72B 50 并发 要几张 H20"


@pytest.mark.parametrize(
    ("followup", "per_day", "line"),
    [
        ("只在白天用 8 小时，一个月多少钱", 8, "4 张 H20，每天 8 小时，共 243 小时 = 973 卡·时"),
        ("每天只开 12 小时，一个月多少钱", 12, "4 张 H20，每天 12 小时，共 365 小时 = 1,460 卡·时"),
    ],
)
def test_month_of_short_days_is_billed_for_those_hours(followup: str, per_day: int, line: str) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, FIRST)
    a = conv.ask(1, 10, followup).answer
    assert a.report.request.hours_per_day == per_day
    assert a.report.request.hours == pytest.approx(730 * per_day / 24)  # 243.3 h / 365 h, not 720 h
    assert render(a, "text").splitlines()[1].startswith(line)


def test_english_followup_month_of_eight_hour_days() -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, "Serve Qwen2.5-72B with 50 concurrent users on H20")
    a = conv.ask(1, 10, "only 8 hours a day, what's the monthly cost?").answer
    assert a.report.request.hours_per_day == 8
    assert a.report.inference.cost_per_month is not None


@pytest.mark.parametrize(
    ("first", "followup", "phrase", "words"),
    [
        (FIRST, "周一到周五每天开 10 小时，一个月多少钱", "周一到周五", "只在工作日约 21.7 天（5/7 × 30.4）"),
        (FIRST, "只在工作日用，每天 10 小时，一个月多少钱", "工作日", "月费约为所给的 5/7"),
        (
            "Serve Qwen2.5-72B with 50 concurrent users on H20",
            "we only run it 10 hours a day on weekdays, monthly cost?",
            "on weekdays",
            "weekdays only are ≈ 21.7 of them (5/7 × 30.4)",
        ),
    ],
)
def test_weekdays_are_named_as_not_used(first: str, followup: str, phrase: str, words: str) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    conv.ask(1, 10, first)
    a = conv.ask(1, 10, followup).answer
    assert a.report.request.hours_per_day == 10  # the daily hours are still used
    text = render(a, "text")
    assert f"“{phrase}”" in text and words in text
    assert "“五”" not in text  # '周一到周五' is no figure


@pytest.mark.parametrize(
    "text",
    ["finish fine-tuning Qwen2.5-7B on 8 A100 within 5 business days", "5 个工作日内完成全量微调 Qwen2.5-7B"],
)
def test_a_count_of_working_days_is_not_a_weekly_schedule(text: str) -> None:
    from bot.parse import parse

    assert all(why != "weekdays_only" for _, why in parse(text).unused_numbers)
