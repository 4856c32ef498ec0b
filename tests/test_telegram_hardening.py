"""Hardening through the real ``Application`` and the fake Bot API: flood control (per user, per chat,
buttons, inline mode, Telegram's 429 RetryAfter), very long messages, and no internals or secrets in
replies or logs. No network: loopback only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import MAX_TEXT_CHARS, assert_telegram_html, telegram_html_text
from telegram.ext import AIORateLimiter
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb

# AIORateLimiter reads RetryAfter.retry_after, which PTB 22.2+ flags as changing type in v23
pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

TOKEN = "123456:FAKE-TOKEN-abc"
SCENARIO_TIMEOUT_S = 30  # only a hung scenario waits this long; a loaded CI machine is slow


class FakeClock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBotAPI]:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    with checked_fake_api(TOKEN) as fake:
        yield fake







def scenario(
    body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, *, clock: Any = None, **settings: Any
) -> None:
    async def main() -> None:
        async with polling(tg.build_application(settings_for(api, **settings), clock=clock)):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def quoted_id(call: Call) -> int | None:
    return (call.params.get("reply_parameters") or {}).get("message_id")


# -- flood control ---------------------------------------------------------------------------
def test_user_over_the_limit_gets_one_localized_notice_then_silence_until_the_window_frees(
    api: FakeBotAPI,
) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def body(api: FakeBotAPI) -> None:
        for _ in range(5):
            api.send_text("7B 1T A100", chat=chat, user=user)
        api.send_text("/gpus", chat=chat, user=user)  # commands count too
        api.send_text("/start", chat=chat, user=user)  # silent: it does not forget the question either
        api.inline_query("7B 1T A100", user=user)  # an update after them: all handled once answered
        await calls(api, "answerInlineQuery", 1)
        assert len(api.calls_to("sendMessage")) == 3  # 2 answers + 1 notice; marker got nothing
        clock.now += 30  # the window frees up
        api.send_text("那H100呢", chat=chat, user=user)
        await calls(api, "sendMessage", 4)

    scenario(body, api, clock=clock, user_rate="2/30s", chat_rate="20/30s")
    texts = [telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage")]
    assert texts[2] == tg.SLOW_DOWN["zh"] == "请求太频繁，请稍后再试"
    assert "A100" in texts[0] and "A100" in texts[1]
    assert "H100" in texts[3]  # answered again, as a follow-up


def test_group_over_the_chat_limit_is_noticed_once_and_chatter_does_not_count(api: FakeBotAPI) -> None:
    group = api.group_chat()
    users = [api.user(f"U{n}", "en") for n in range(6)]

    async def body(api: FakeBotAPI) -> None:
        for user in users[:3]:
            api.send_text("lunch?", chat=group, user=user)  # ignored chatter: not an answer
            api.send_text("/size 7B 1T A100", chat=group, user=user)
        refused = api.send_text("/size 70B 2T H100", chat=group, user=users[3])
        api.send_text(f"@{api.bot_username} 13B 1T H100", chat=group, user=users[4])  # silent
        api.send_text("/models", chat=group, user=users[5])  # silent
        other = api.private_chat(users[5])
        api.send_text("7B 1T A100", chat=other, user=users[5])  # another chat is unaffected
        sent = await calls(api, "sendMessage", 5)
        # chats are handled concurrently (bot.telegram.processor): match replies by chat
        assert [c.params["chat_id"] for c in sent].count(other["id"]) == 1
        in_group = [c for c in sent if c.params["chat_id"] == group["id"]]
        assert quoted_id(in_group[3]) == refused["message_id"]  # the notice quotes the refused message

    scenario(body, api, user_rate="6/30s", chat_rate="3/30s")
    sent = [c for c in api.calls_to("sendMessage") if c.params["chat_id"] == group["id"]]
    assert len(sent) == 4
    assert telegram_html_text(sent[3].params["text"]) == tg.SLOW_DOWN["en"]


def test_limited_button_press_is_still_answered_with_a_short_slow_down(api: FakeBotAPI) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        answer = api.bot_messages(chat["id"])[-1]
        details = next(
            b["callback_data"]
            for row in answer["reply_markup"]["inline_keyboard"]
            for b in row
            if (kb.decode(b.get("callback_data")) or kb.Callback("", "", "")).action == kb.DETAILS
        )
        api.press(answer, details, user=user)  # allowed: the second answer
        api.press(answer, details, user=user)  # limited: answered with the short text, no edit
        api.press(answer, "not ours", user=user)  # limited too: still answered
        await calls(api, "answerCallbackQuery", 3)

    scenario(body, api, user_rate="2/30s")
    # updates are handled concurrently: the allowed press may be answered after the limited ones
    texts = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert sorted(texts, key=str) == sorted([None, tg.SLOW_DOWN["en"], tg.SLOW_DOWN["en"]], key=str)
    assert len(api.calls_to("editMessageText")) == 1


def test_limited_inline_query_is_answered_with_a_slow_down_button(api: FakeBotAPI) -> None:
    user = api.user("Li", "zh")

    async def body(api: FakeBotAPI) -> None:
        for _ in range(3):
            api.inline_query("7B 1T tokens", user=user)
        await calls(api, "answerInlineQuery", 3)

    scenario(body, api, inline_rate="2/30s")
    first, second, limited = api.calls_to("answerInlineQuery")
    assert first.params["results"] and second.params["results"]
    assert limited.params["results"] == []
    assert limited.params["button"]["text"] == tg.SLOW_DOWN["zh"]
    assert limited.params.get("cache_time") == 0


def test_aio_rate_limiter_is_on_and_retries_telegrams_429(api: FakeBotAPI) -> None:
    """Built as the service builds it (AIORateLimiter on): a 429 RetryAfter on the reply is waited out
    and retried, and the user still gets exactly one answer."""
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    app = tg.build_application(settings_for(api))
    assert isinstance(app.bot.rate_limiter, AIORateLimiter)

    async def main() -> None:
        async with polling(app):
            api.flood("sendMessage", times=1, retry_after=1)
            api.send_text("7B 1T tokens A100", chat=chat, user=user)
            await calls(api, "sendMessage", 2)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))
    refused, delivered = api.calls_to("sendMessage")
    assert refused.params["text"] == delivered.params["text"]
    assert [m["text"] for m in api.bot_messages(chat["id"])] == [telegram_html_text(delivered.params["text"])]


# -- long messages ---------------------------------------------------------------------------
def test_10000_character_message_gets_exactly_one_reply_within_4096_chars_with_the_note(
    api: FakeBotAPI,
) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    pasted = "\n".join(f"step {n} loss 2.{n % 97:02d} lr 3e-4 tokens {n * 1000}" for n in range(400))
    text = f"how many A100 hours for a 7B model on 1T tokens? my log:\n{pasted}"[:10_000]
    assert len(text) == 10_000

    async def body(api: FakeBotAPI) -> None:
        api.send_text(text, chat=chat, user=user)
        api.send_text("/help", chat=chat, user=user)  # a later update: the long one was fully handled
        await calls(api, "sendMessage", 2)

    scenario(body, api)
    reply, _ = api.calls_to("sendMessage")
    assert_telegram_html(reply.params["text"])
    shown = telegram_html_text(reply.params["text"])
    assert len(shown) <= MAX_TEXT_CHARS == 4096
    assert "Your message was long" in shown
    assert len(api.bot_messages(chat["id"])) == 2


# -- no internals, no secrets ----------------------------------------------------------------
def test_error_replies_carry_no_exception_text_paths_or_tokens(
    api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret_path = "/srv/sizing-bot/bot/core/conversation.py"

    def broken(self: Any, *args: Any, **kw: Any) -> Any:
        raise KeyError(f"{secret_path} line 42 bot{TOKEN}")

    monkeypatch.setattr(tg.Conversation, "ask", broken)
    monkeypatch.setattr(tg.Conversation, "turn", broken)
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        message = api.text_message("hello", chat=chat, user=api.bot_user)
        api.press(message, kb.encode("abcdefgh", kb.DETAILS, "0"), user=user)
        await calls(api, "answerCallbackQuery", 1)

    scenario(body, api)
    [sent] = api.calls_to("sendMessage")
    [answered] = api.calls_to("answerCallbackQuery")
    assert sent.params["text"] == tg.ERROR_REPLY["en"]
    assert answered.params["text"] == tg.ERROR_REPLY["en"]
    for text in (sent.params["text"], answered.params["text"]):
        assert secret_path not in text and "KeyError" not in text and "/" not in text
    assert any(r.exc_info for r in caplog.records)  # the details went to the log …
    assert TOKEN not in caplog.text  # … without the token


def test_rate_limited_run_never_logs_the_token(api: FakeBotAPI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.flood("sendMessage", times=1, retry_after=1)
        for _ in range(3):
            api.send_text("7B 1T A100", chat=chat, user=user)
        api.inline_query("7B", user=user)
        await calls(api, "answerInlineQuery", 1)

    scenario(body, api, user_rate="1/30s")
    assert any("rate limited" in r.getMessage() for r in caplog.records)
    assert any("Retrying" in r.getMessage() or "Rate limit" in r.getMessage() for r in caplog.records)
    assert TOKEN not in caplog.text
    assert all(TOKEN not in (r.exc_text or "") for r in caplog.records)
