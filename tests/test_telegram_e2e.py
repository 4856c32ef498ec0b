"""End to end: the real python-telegram-bot ``Application`` against a fake Bot API on loopback.

No network: ``build_application`` gets the fake's ``base_url``; updates are fed through
getUpdates long polling and the bot's replies are read from the fake's sendMessage log.
Group silence is checked by order, not by sleeping: PTB processes updates one at a time, in
order, so once the reply to a later, addressed message has arrived, every earlier message has
been handled; and ``Application.stop()`` finishes the queued updates before returning.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import assert_telegram_html, telegram_html_text
from telegram.ext import Application
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
from bot.render.renderer import render_help
from bot.telegram.config import BotSettings

TOKEN = "123456:FAKE-TOKEN-abc"
SCENARIO_TIMEOUT_S = 30  # only a hung scenario waits this long; a loaded CI machine is slow


@pytest.fixture(autouse=True)
def settings_db(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every Application in these tests keeps its chat settings in a fresh SQLite file."""
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    return path


@pytest.fixture
def api() -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


@asynccontextmanager
async def running_bot(api: FakeBotAPI) -> AsyncIterator[Application]:
    """What ``run_polling`` does, minus the signal handling and the blocking loop."""
    async with polling(tg.build_application(settings_for(api))) as app:
        yield app


def scenario(body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI) -> None:
    async def main() -> None:
        async with running_bot(api):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))


async def replies(api: FakeBotAPI, count: int) -> list[Call]:
    """Wait (without blocking the bot's event loop) for ``count`` sendMessage calls."""
    return await asyncio.to_thread(api.wait_for, "sendMessage", count, 5.0)


def quoted_id(call: Call) -> int | None:
    return (call.params.get("reply_parameters") or {}).get("message_id")


# -- private chat ----------------------------------------------------------------------------
SEED_QUESTION = "7B模型1万亿token要多少A100"


def test_private_question_gets_one_valid_html_reply_in_the_same_chat(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text(SEED_QUESTION, chat=chat, user=user)
        await replies(api, 1)

    scenario(body, api)
    [call] = api.calls_to("sendMessage")
    assert call.params["chat_id"] == chat["id"]
    assert call.params["parse_mode"] == "HTML"
    assert call.params["link_preview_options"] == {"is_disabled": True}
    assert_telegram_html(call.params["text"])


def test_seed_example_reply_quotes_93483_a100_hours(api: FakeBotAPI) -> None:
    """docs/design.md §3.2 seed example: 7B × 10¹² tokens on A100 at 40 % MFU → 93,483 GPU-hours."""
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text(SEED_QUESTION, chat=chat, user=user)
        await replies(api, 1)

    scenario(body, api)
    [call] = api.calls_to("sendMessage")
    shown = telegram_html_text(call.params["text"])
    assert "93,483" in shown or "9.3万" in shown, (
        "WAITING FOR THE REAL PARSER/RENDERER: the reply to the seed question must show the "
        f"A100-hours (93,483 or 9.3万); got: {shown[:300]!r}"
    )


@pytest.mark.parametrize(("language_code", "lang"), [("en", "en"), ("zh-hans", "zh"), (None, "en")])
def test_start_and_help_in_private_show_help_in_the_users_language(
    api: FakeBotAPI, language_code: str | None, lang: str
) -> None:
    user = api.user("Sam", language_code)
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/start", chat=chat, user=user)
        api.send_text("/help", chat=chat, user=user)
        api.send_text("/size", chat=chat, user=user)  # no argument: help too
        await replies(api, 3)

    scenario(body, api)
    texts = [c.params["text"] for c in api.calls_to("sendMessage")]
    assert texts == [render_help(lang, "html")] * 3


def test_command_menu_is_set_in_english_and_chinese(api: FakeBotAPI) -> None:
    async def body(api: FakeBotAPI) -> None:
        pass

    scenario(body, api)
    names = {"start", "help", "size", "estimate", "gpus", "models", "settings"}
    default, zh = api.commands(""), api.commands("zh")
    assert default is not None and {c["command"] for c in default} == names
    assert zh is not None and {c["command"] for c in zh} == names
    assert default != zh


# -- groups ----------------------------------------------------------------------------------
def test_group_ignores_chatter_and_answers_size_command_addressed_to_the_bot(api: FakeBotAPI) -> None:
    group, alice = api.group_chat(), api.user("Alice")

    async def body(api: FakeBotAPI) -> None:
        api.send_text("大家好，今天训练跑得怎么样？", chat=group, user=alice)
        api.send_text("7B 1T A100", chat=group, user=alice)  # a question, but not to the bot
        api.send_text("/size@other_sizer_bot 7B 1T A100", chat=group, user=alice)
        api.send_text("ask @someone_else 70B", chat=group, user=alice)
        asked = api.send_text(f"/size@{api.bot_username} 70B 2T H100", chat=group, user=alice)
        [call] = await replies(api, 1)
        assert quoted_id(call) == asked["message_id"]

    scenario(body, api)
    [call] = api.calls_to("sendMessage")  # still one after every update was handled
    assert call.params["chat_id"] == group["id"]
    assert_telegram_html(call.params["text"])


def test_group_answers_estimate_alias_without_botname(api: FakeBotAPI) -> None:
    group, alice = api.group_chat(), api.user("Alice")

    async def body(api: FakeBotAPI) -> None:
        asked = api.send_text("/estimate 13B 300B tokens 64x H100", chat=group, user=alice)
        [call] = await replies(api, 1)
        assert quoted_id(call) == asked["message_id"]

    scenario(body, api)


def test_group_mention_is_answered_with_the_mention_removed(
    api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions: list[str] = []
    real_ask = tg.Conversation.ask

    def recording_ask(self: Any, chat_id: int, user_id: int, text: str, **kw: Any) -> Any:
        questions.append(text)
        return real_ask(self, chat_id, user_id, text, **kw)

    monkeypatch.setattr(tg.Conversation, "ask", recording_ask)
    group, alice = api.group_chat(), api.user("Alice")

    async def body(api: FakeBotAPI) -> None:
        api.send_text("just chatting about 7B models", chat=group, user=alice)
        # an emoji before the mention moves UTF-16 offsets away from Python indices
        asked = api.send_text(f"🚀 @{api.bot_username} 7B 1T A100", chat=group, user=alice)
        [call] = await replies(api, 1)
        assert quoted_id(call) == asked["message_id"]

    scenario(body, api)
    assert questions == ["🚀 7B 1T A100"]
    assert len(api.calls_to("sendMessage")) == 1


def test_group_reply_to_the_bot_is_answered_reply_to_others_is_not(api: FakeBotAPI) -> None:
    group, alice, bob = api.group_chat(), api.user("Alice"), api.user("Bob")

    async def body(api: FakeBotAPI) -> None:
        api.send_text(f"@{api.bot_username} 7B 1T A100", chat=group, user=alice)
        await replies(api, 1)
        [bot_message] = api.bot_messages(group["id"])
        human = api.send_text("H100 is faster", chat=group, user=bob)
        api.send_text("70B then?", chat=group, user=alice, reply_to=human)  # to Bob: silent
        follow_up = api.send_text("那H100呢？", chat=group, user=alice, reply_to=bot_message)
        calls = await replies(api, 2)
        assert quoted_id(calls[1]) == follow_up["message_id"]

    scenario(body, api)
    assert len(api.calls_to("sendMessage")) == 2


# -- errors, startup, secrets ----------------------------------------------------------------
def test_pipeline_error_gets_a_polite_localized_line_not_internals(
    api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_ask(self: Any, chat_id: int, user_id: int, text: str, **kw: Any) -> Any:
        raise RuntimeError("internal detail: estimator exploded")

    monkeypatch.setattr(tg.Conversation, "ask", broken_ask)
    zh_user, en_user = api.user("Li", "zh-hans"), api.user("Ann", "en")
    zh_chat, en_chat = api.private_chat(zh_user), api.private_chat(en_user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T A100", chat=zh_chat, user=zh_user)
        api.send_text("7B 1T A100", chat=en_chat, user=en_user)
        await replies(api, 2)

    scenario(body, api)
    texts = {c.params["chat_id"]: c.params["text"] for c in api.calls_to("sendMessage")}
    assert texts == {zh_chat["id"]: tg.ERROR_REPLY["zh"], en_chat["id"]: tg.ERROR_REPLY["en"]}


def test_run_without_token_prints_one_line_and_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    assert tg.run(BotSettings(_env_file=None)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("TELEGRAM_BOT_TOKEN is not set: ")
    assert "Traceback" not in captured.err


def test_run_with_a_rejected_token_exits_2_without_showing_it(
    api: FakeBotAPI, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = "999999:WRONG-TOKEN-xyz"
    assert tg.run(settings_for(api, token=wrong)) == 2
    captured = capsys.readouterr()
    assert "rejected" in captured.err
    assert wrong not in captured.err + captured.out + caplog.text


def test_token_never_appears_in_any_log_record(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)  # root: everything PTB, httpx and httpcore would log
    real_ask = tg.Conversation.ask

    def ask_failing_once(self: Any, chat_id: int, user_id: int, text: str, **kw: Any) -> Any:
        if "boom" in text:  # an exception whose message carries the token, to test redaction
            raise RuntimeError(f"boom while calling http://x/bot{TOKEN}/sendMessage")
        return real_ask(self, chat_id, user_id, text, **kw)

    monkeypatch.setattr(tg.Conversation, "ask", ask_failing_once)
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    group, alice = api.group_chat(), api.user("Alice")

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/start", chat=chat, user=user)
        api.send_text(SEED_QUESTION, chat=chat, user=user)
        api.send_text("boom", chat=chat, user=user)
        api.send_text(f"/size@{api.bot_username} 70B 2T H100", chat=group, user=alice)
        await replies(api, 4)

    scenario(body, api)
    assert caplog.records, "expected DEBUG records from the Telegram stack"
    assert any(r.name.startswith("telegram") for r in caplog.records)
    assert any(r.name == "bot.telegram" and r.exc_info for r in caplog.records)
    for record in caplog.records:
        assert TOKEN not in record.getMessage(), record.name
        assert TOKEN not in (record.exc_text or ""), record.name
    assert TOKEN not in caplog.text
