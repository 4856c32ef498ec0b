"""A daily schedule applies once, to the around-the-clock month (session 19, s19-fix item 7: checked).

4 × H100 serving Llama-3-70B: $1.50–3.50 per GPU-hour × 4 GPUs × 730 h = $4,380 – $10,220 a month around
the clock; 'only 8 hours a day' after 'what's the monthly bill?' is 8/24 of it, $1,460 – $3,407, and saying
it again (or after another follow-up) never cuts the hours already cut.
"""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation


def _months(turns: list[str]) -> list[tuple[int, int]]:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    out = []
    for t in turns:
        cost = conv.ask(1, 10, t).answer.report.inference.cost_per_month
        out.append((round(cost.low), round(cost.high)))
    return out


@pytest.mark.parametrize(
    "turns",
    [
        [
            "serve Llama-3-70B on 4 H100s",
            "what's the monthly bill?",
            "only 8 hours a day",
            "only 8 hours a day",
        ],
        [
            "serve Llama-3-70B on 4 H100s",
            "only 8 hours a day",
            "what's the monthly bill?",
            "only 8 hours a day",
        ],
    ],
)
def test_hours_a_day_after_another_followup_scales_once(turns: list[str]) -> None:
    months = _months(turns)
    full = (4380, 10220)
    cut = (1460, 3407)  # × 8/24
    assert full in months[:2] and months[-1] == cut and months.count(cut) == len(months) - months.index(cut)


def test_chinese_schedule_after_a_cost_question() -> None:
    months = _months(["4 张 H100 部署 Llama-3-70B，一个月多少钱", "每天只开 8 小时", "那每天 8 小时呢"])
    assert months == [(43800, 116800), (14600, 38933), (14600, 38933)]  # ¥15–40 × 4 × 730; × 8/24
