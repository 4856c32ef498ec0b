"""Epochs changed in a follow-up (s8 fix item 6): "epochs to 3" / "把epoch改成3" after a fine-tuning
question were not read (the 3 was named as not used); now the change verb reads as the setting's value,
as "并发改成500" does (bot.parse.followup_words), through the real python-telegram-bot Application
against the fake Bot API. 1B tokens × 3 epochs = 3B tokens: C = 6·7.61e9·3e9 = 1.37e20 FLOPs, three
times the hours of one epoch."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
from bot.cli import main

TOKEN = "123456:FAKE-TOKEN-s8-epochs"
SCENARIO_TIMEOUT_S = 60


api = api_fixture(TOKEN)


def _conversation(api: FakeBotAPI, lang: str, questions: list[str]) -> list[str]:
    user = api.user("Li", lang)
    chat: dict[str, Any] = api.private_chat(user)

    async def run() -> None:
        async with polling(tg.build_application(settings_for(api))):
            for n, text in enumerate(questions, 1):
                api.send_text(text, chat=chat, user=user)
                await asyncio.to_thread(api.wait_for, "sendMessage", n, 20.0)

    asyncio.run(asyncio.wait_for(run(), SCENARIO_TIMEOUT_S))
    return [telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage")[-len(questions) :]]


@pytest.mark.parametrize(
    ("lang", "first", "followup", "before", "after"),
    [
        (
            "en",
            "full fine-tune Qwen2.5-7B on 8 A100 with 1B tokens",
            "epochs to 3",
            "on 1B tokens with 8 × A100 80G ≈ 13 hours (102 A100-hours)",
            "on 3B tokens with 8 × A100 80G ≈ 1.6 days (305 A100-hours)",
        ),
        (
            "zh-hans",
            "全参微调 Qwen2.5-7B，8张A100，10亿token",
            "把epoch改成3",
            "10亿 token，用 8 张 A100 80G 约 13 小时（102 A100·时）",
            "30亿 token，用 8 张 A100 80G 约需 1.6 天（共 305 A100·时）",
        ),
    ],
)
def test_epochs_follow_up_changes_the_data(
    api: FakeBotAPI, lang: str, first: str, followup: str, before: str, after: str
) -> None:
    one, three = _conversation(api, lang, [first, followup])
    assert before in one.splitlines()[0]
    assert after in three.splitlines()[0]


@pytest.mark.parametrize("question", ["epochs to 3", "把epoch改成3", "change epochs to 3", "epoch 改成 3 呢"])
def test_epoch_change_words_read_the_value(capsys, question: str) -> None:
    main(["ask", "--format", "json", question])
    answer = json.loads(capsys.readouterr().out)
    assert answer["request"]["epochs"] == 3
    assert not [i for i in answer["interpretation"]["ignored"] if i["text"] == "3"]
