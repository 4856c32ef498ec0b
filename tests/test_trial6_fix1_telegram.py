"""s6 trial item 4 in a Telegram conversation: follow-ups change the setting they name, through the real
python-telegram-bot ``Application`` against the fake Bot API (as tests/test_followup_meaning.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg

TOKEN = "123456:FAKE-TOKEN-trial6-followups"
SCENARIO_TIMEOUT_S = 60


api = api_fixture(TOKEN)


def _conversation(api: FakeBotAPI, lang: str, questions: list[str]) -> list[str]:
    user = api.user("Li", lang)
    chat: dict[str, Any] = api.private_chat(user)

    async def main() -> None:
        async with polling(tg.build_application(settings_for(api))):
            for n, text in enumerate(questions, 1):
                api.send_text(text, chat=chat, user=user)
                await asyncio.to_thread(api.wait_for, "sendMessage", n, 20.0)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))
    return [telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage")[-len(questions) :]]


def test_followups_change_concurrency_and_gpu_count(api: FakeBotAPI) -> None:
    first, more = _conversation(
        api, "zh-hans", ["部署deepseek-v3 满血版，vllm，并发200，上下文32k，要多少张H20", "并发改成500呢"]
    )
    assert "200 并发" in first.splitlines()[0]
    assert "500 并发 × 32K 上下文" in more.splitlines()[0]


def test_followup_on_4_of_them_is_the_gpu_count(api: FakeBotAPI) -> None:
    first, more = _conversation(
        api,
        "en",
        ["serving mixtral 8x7b on 2 H100 with fp8, 128 concurrent, 4k context", "what about on 4 of them"],
    )
    assert "on 2 × H100 80G" in first.splitlines()[0]
    assert "on 4 × H100 80G" in more.splitlines()[0]  # was: 2 GPUs kept, the 4 read as a sample count
