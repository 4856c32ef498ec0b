"""Hardening through the real ``Application`` and the fake Bot API: flood control (per user, per chat,
buttons, inline mode, Telegram's 429 RetryAfter), very long messages, and no internals or secrets in
replies or logs. No network: loopback only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI
from htmlcheck import MAX_TEXT_CHARS, assert_telegram_html, telegram_html_text
from telegram.ext import AIORateLimiter
from tg_harness import api_fixture, polling, settings_for

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


api = api_fixture(TOKEN)


def scenario(
    body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, *, clock: Any = None, **settings: Any
) -> None:
    async def main() -> None:
        sleep = getattr(clock, "sleep", None)  # a SleepingClock's wait advances it
        async with polling(tg.build_application(settings_for(api, **settings), clock=clock, sleep=sleep)):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), SCENARIO_TIMEOUT_S))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def quoted_id(call: Call) -> int | None:
    return (call.params.get("reply_parameters") or {}).get("message_id")


# -- flood control ---------------------------------------------------------------------------
# Issue 22 item 2 changed the behaviour these tests pin: commands are navigation (never limited) and
# a typed question over the limit is answered late (its slot booked), never silently dropped.
class SleepingClock(FakeClock):
    """A fake clock with the sleep that goes with it: a booked answer's wait advances the clock."""

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def test_user_over_the_limit_is_answered_late_with_one_line_and_commands_are_never_limited(
    api: FakeBotAPI,
) -> None:
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)
    clock = SleepingClock()

    async def body(api: FakeBotAPI) -> None:
        for _ in range(3):
            api.send_text("7B 1T A100", chat=chat, user=user)
        api.send_text("/gpus", chat=chat, user=user)  # navigation: not counted, answered
        api.send_text("/start", chat=chat, user=user)  # answered (and forgets the question)
        await calls(api, "sendMessage", 6)  # 2 answers, a "later" line, the late answer, /gpus, /start

    scenario(body, api, clock=clock, user_rate="2/30s", chat_rate="20/30s")
    texts = [telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage")]
    assert texts[2] == tg.ANSWER_LATE.format("zh", seconds=30) == "请求太频繁：这条消息约 30 秒后回答。"
    assert all(t.startswith("7B 预训练") for t in (texts[0], texts[1], texts[3]))  # the third, late
    assert "H100" in texts[4] and "A100" in texts[4]  # the /gpus table, in order after it
    assert clock.now == 5030.0  # the late answer waited for the window, not longer


def test_group_over_the_chat_limit_is_answered_late_and_chatter_does_not_count(api: FakeBotAPI) -> None:
    group = api.group_chat()
    users = [api.user(f"U{n}", "en") for n in range(6)]
    clock = SleepingClock()

    async def body(api: FakeBotAPI) -> None:
        for user in users[:3]:
            api.send_text("lunch?", chat=group, user=user)  # ignored chatter: not an answer
            api.send_text("/size 7B 1T A100", chat=group, user=user)
        late = api.send_text("/size 70B 2T H100", chat=group, user=users[3])
        api.send_text("/models", chat=group, user=users[5])  # navigation: answered after it, in order
        await calls(api, "sendMessage", 6)
        in_group = [c for c in api.calls_to("sendMessage") if c.params["chat_id"] == group["id"]]
        assert quoted_id(in_group[3]) == late["message_id"]  # the "later" line quotes the question
        assert quoted_id(in_group[4]) == late["message_id"]  # and so does its answer

    scenario(body, api, clock=clock, user_rate="6/30s", chat_rate="3/30s")
    sent = [c for c in api.calls_to("sendMessage") if c.params["chat_id"] == group["id"]]
    texts = [telegram_html_text(c.params["text"]) for c in sent]
    assert len(sent) == 6
    assert texts[3] == tg.ANSWER_LATE.format("en", seconds=30)
    assert texts[4].startswith("70B pre-training")
    assert "Qwen" in texts[5]  # the /models page


def test_limited_button_press_is_still_answered_with_a_short_wait_and_details_are_free(
    api: FakeBotAPI,
) -> None:
    user = api.user("Ann", "en")
    chat = api.private_chat(user)
    clock = FakeClock()

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        answer = api.bot_messages(chat["id"])[-1]
        actions = {
            cb.action: data
            for row in answer["reply_markup"]["inline_keyboard"]
            for b in row
            if (cb := kb.decode(data := b.get("callback_data"))) is not None
        }
        api.press(answer, actions[kb.GPU], user=user)  # allowed: the second answer
        api.press(answer, actions[kb.GPU], user=user)  # limited: a short text, no edit
        for _ in range(3):
            api.press(answer, actions[kb.DETAILS], user=user)  # navigation: never limited
        api.press(answer, "not ours", user=user)  # answered, nothing done
        await calls(api, "answerCallbackQuery", 6)

    scenario(body, api, clock=clock, user_rate="2/30s")
    texts = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert texts.count(tg.WAIT_SECONDS.format("en", seconds=30)) == 1
    assert texts.count(None) == 5
    assert len(api.calls_to("editMessageText")) == 4  # the GPU switch and the three toggles


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

    scenario(body, api, clock=SleepingClock(), user_rate="1/30s")  # the second question waits 30 s
    assert any("rate limited" in r.getMessage() for r in caplog.records)
    assert any("Retrying" in r.getMessage() or "Rate limit" in r.getMessage() for r in caplog.records)
    assert TOKEN not in caplog.text
    assert all(TOKEN not in (r.exc_text or "") for r in caplog.records)
