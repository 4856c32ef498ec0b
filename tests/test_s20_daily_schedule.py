"""A daily schedule in every phrasing (s20-fixb item 4): '每天只能跑 8 小时', 'only 8 hours a day', '8h/day' —
in a first message and as a follow-up after a training answer — is hours a day: named as not used on a
training run (its days follow from its compute, around the clock), the hours a day of a serving one; never a
run of 8 hours, another setup's 8, nor the help text. Sentences of our own."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.render.renderer import render
from tests.real_questions import answer_json

TRAIN_ZH = "7B 模型预训练 100B token，8 张 H100，要多久"
TRAIN_EN = "Pretrain a 7B model on 100B tokens on 8 H100s, how long?"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("7B 模型预训练 100B token，8 张 H100，每天只能跑 8 小时", "每天只能跑 8 小时"),
        ("7B LoRA 微调 1 万条数据，2 张 4090，每天最多用 10 小时", "每天最多用 10 小时"),
        ("Pretrain 7B on 100B tokens on 8 H100 at 8h/day", "8h/day"),
        ("Pretrain a 7B model on 100B tokens on 8 H100, but we can only run 8 hours a day", "8 hours a day"),
    ],
)
def test_a_first_message_names_the_schedule_on_a_training_run(text: str, phrase: str) -> None:
    data = answer_json(text)
    assert data["request"]["hours"] is None and data["request"].get("hours_per_day") is None
    # s21 (issue 24 item 4): a run's days on the stated GPUs at these hours a day are its calendar days
    assert {"text": phrase, "reason": "daily_schedule_calendar"} in data["interpretation"]["ignored"]
    assert data["request"]["gpu_count"] in (8, 2)  # the 8 of the schedule is no other setup's count


def test_a_serving_question_uses_the_zh_schedule() -> None:
    data = answer_json("Qwen2.5-7B 推理服务，并发 20，每天只能跑 8 小时，一个月多少钱")
    assert data["request"]["hours_per_day"] == 8.0
    assert data["request"]["hours"] == pytest.approx(730 * 8 / 24)


@pytest.mark.parametrize(
    ("first", "followup"),
    [
        (TRAIN_ZH, "每天只能跑 8 小时"),
        (TRAIN_EN, "only 8 hours a day"),
        (TRAIN_EN, "we can only run 8 hours a day"),
    ],
)
def test_a_schedule_after_a_training_answer_is_named(first: str, followup: str) -> None:
    conv = Conversation(ttl_seconds=600, max_entries=10)
    days = conv.ask(1, 10, first).answer.report
    a = conv.ask(1, 10, followup).answer
    assert a.understood and a.followup
    assert a.report.request.stage == "pretrain" and a.report.request.tokens == 1e11  # the same run
    assert a.report.request.hours is None and a.report.request.hours_per_day is None
    assert a.report.gpu_hours == days.gpu_hours
    second = render(a, "text").splitlines()[1]
    assert "24" in second and ("hours a day" in second or "每天" in second)  # named: sized around the clock
