"""Issue 17, failures 1-3, through the real ``Application`` and the fake Bot API with injected faults:
a transient error on a send is retried and answered once; a send that times out waiting for Telegram
is neither repeated nor apologised for; expected 400/403 outcomes end quietly with one log line and
no further call. Loopback only.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI, Fault
from htmlcheck import telegram_html_text
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    NetworkError,
    TelegramError,
    TimedOut,
)
from telegram.ext import Application
from telegram.request import HTTPXRequest
from tg_harness import api_fixture, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.chat.wording import ERROR_REPLY, TELEGRAM_TROUBLE
from bot.telegram import transport
from bot.telegram.faults import Fault as Kind
from bot.telegram.faults import classify
from bot.telegram.transport import MaybeDelivered, RetryPolicy

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

TOKEN = "123456:FAKE-TOKEN-abc"
FAST = RetryPolicy(attempts=4, base_delay_s=0.01, max_delay_s=0.05, budget_s=3.0)
QUESTION = "7B 1T tokens A100"


api = api_fixture(TOKEN)


@asynccontextmanager
async def polling(app: Application) -> AsyncIterator[Application]:
    """What ``run_polling`` does (polling errors go to the error handler, as there), minus signals."""
    async with app:
        assert app.post_init is not None and app.updater is not None
        await app.post_init(app)
        await app.start()

        def error_callback(exc: TelegramError) -> None:
            app.create_task(app.process_error(error=exc, update=None))

        await app.updater.start_polling(
            poll_interval=0, timeout=dtm.timedelta(seconds=1), error_callback=error_callback
        )
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)


def scenario(body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, **build: Any) -> None:
    build.setdefault("retry", FAST)

    async def main() -> None:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        async with polling(tg.build_application(settings, **build)):
            await body(api)
            await asyncio.sleep(0.2)  # anything that would follow (a retry, an apology) has time to

    asyncio.run(asyncio.wait_for(main(), 20))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def texts(api: FakeBotAPI, method: str = "sendMessage") -> list[str]:
    return [telegram_html_text(c.params.get("text") or "") for c in api.calls_to(method)]


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.exc_text], "a traceback was logged"


# -- 1. one transient error must not lose the answer -----------------------------------------------
@pytest.mark.parametrize(
    "fault",
    [Fault.http(500), Fault.http(502, "Bad Gateway"), Fault.drop(), Fault.malformed("{not json")],
    ids=["500", "502", "dropped-connection", "malformed-body"],
)
def test_a_transient_send_failure_is_retried_and_answered_once(
    api: FakeBotAPI, fault: Fault, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.inject("sendMessage", fault)
        api.send_text(QUESTION, chat=chat, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    assert [c.fault for c in api.faults] == [fault.label]
    [answer] = texts(api)  # delivered once, and nothing else: no apology
    assert "A100" in answer and "pre-training" in answer
    assert len(api.bot_messages(chat["id"])) == 1
    assert any("retry 1 of 3" in r.getMessage() for r in caplog.records)
    no_tracebacks(caplog)


def test_a_server_that_keeps_failing_gets_one_apology_that_does_not_blame_the_question(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.inject("sendMessage", *[Fault.http(502, "Bad Gateway")] * FAST.attempts)  # every try fails
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)  # the apology: Telegram is back

    scenario(body, api)
    assert len(api.faults) == FAST.attempts
    assert texts(api) == [TELEGRAM_TROUBLE["zh"]]
    for lang in ("en", "zh"):
        assert "rephras" not in TELEGRAM_TROUBLE[lang] + ERROR_REPLY[lang]
        assert "换个说法" not in TELEGRAM_TROUBLE[lang] + ERROR_REPLY[lang]
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "transient" in warning.getMessage() and "Bad Gateway" in warning.getMessage()
    no_tracebacks(caplog)


def test_retries_stay_within_the_time_budget() -> None:
    policy = RetryPolicy()
    waits = [policy.delay(n, lambda: 1.0) for n in range(1, policy.attempts)]
    assert waits == [0.5, 1.0, 2.0] and sum(waits) <= policy.budget_s
    assert all(policy.delay(n, lambda: 0.0) == policy.delay(n, lambda: 1.0) / 2 for n in (1, 2, 3))
    assert policy.delay(10, lambda: 1.0) == policy.max_delay_s


# -- 2. a slow send must not double the reply ---------------------------------------------------
def test_a_send_that_times_out_is_maybe_delivered_not_repeated_not_apologised_for(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    impatient = HTTPXRequest(connection_pool_size=8, read_timeout=0.3)  # Telegram answers after 1 s

    async def body(api: FakeBotAPI) -> None:
        api.inject("sendMessage", Fault.slow(1.0))
        api.send_text(QUESTION, chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        await asyncio.sleep(1.2)  # the slow answer arrives; nothing else may follow

    scenario(body, api, request=impatient)
    assert len(api.calls_to("sendMessage")) == 1  # one send: not repeated, no apology
    assert len(api.bot_messages(chat["id"])) == 1  # and it was delivered
    [warning] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "may have been delivered" in warning.getMessage() and "no apology" in warning.getMessage()
    no_tracebacks(caplog)


def test_sends_wait_longer_than_a_slow_telegram() -> None:
    request = transport.send_request()
    assert request.read_timeout == transport.SEND_READ_TIMEOUT_S > 7  # the probes saw a 7 s answer
    assert isinstance(request.inner, HTTPXRequest)


# -- 3. expected API errors end quietly -------------------------------------------------------------
def test_a_blocked_user_gets_no_apology_and_costs_one_info_line(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot")
    user = api.user("Gone", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.inject("sendMessage", Fault.http(403, "Forbidden: bot was blocked by the user"))
        api.send_text(QUESTION, chat=chat, user=user)
        await asyncio.to_thread(api.wait_for_faults, 1)

    scenario(body, api)
    assert api.calls_to("sendMessage") == []  # no second call: no apology to someone who blocked us
    lines = [r for r in caplog.records if r.name.startswith("bot") and r.levelno >= logging.INFO]
    [line] = [r for r in lines if "blocked" in r.getMessage()]
    assert line.levelno == logging.INFO and "gone" in line.getMessage()
    assert not [r for r in lines if r.levelno >= logging.ERROR]
    no_tracebacks(caplog)


def test_a_button_under_a_message_telegram_no_longer_has_is_answered_once(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text(QUESTION, chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        answer = api.bot_messages(chat["id"])[-1]
        button = answer["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        gone = {**answer, "message_id": 424242}  # the server has no such message: the edit fails 400
        api.press(gone, button, user=user)
        await asyncio.to_thread(api.wait_for, "editMessageText", 1)

    scenario(body, api)
    assert len(api.calls_to("answerCallbackQuery")) == 1  # answered once, no error answer after
    [line] = [r for r in caplog.records if "message to edit not found" in r.getMessage().lower()]
    assert line.levelno == logging.INFO
    no_tracebacks(caplog)


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (Forbidden("Forbidden: bot was blocked by the user"), Kind.GONE),
        (Forbidden("Forbidden: bot was kicked from the supergroup chat"), Kind.GONE),
        (Forbidden("Forbidden: user is deactivated"), Kind.GONE),
        (BadRequest("Bad Request: chat not found"), Kind.GONE),
        (ChatMigrated(-1001), Kind.GONE),
        (BadRequest("Bad Request: message is not modified: specified new message content"), Kind.STALE),
        (BadRequest("Bad Request: message to edit not found"), Kind.STALE),
        (BadRequest("Bad Request: message can't be edited"), Kind.STALE),
        (
            BadRequest("Bad Request: query is too old and response timeout expired or query ID is invalid"),
            Kind.STALE,
        ),
        (MaybeDelivered("sendMessage"), Kind.MAYBE_SENT),
        (NetworkError("Bad Gateway"), Kind.TRANSIENT),
        (TimedOut(), Kind.TRANSIENT),
        (Conflict("Conflict: terminated by other getUpdates request"), Kind.CONFLICT),
        (BadRequest("Bad Request: can't parse entities: unsupported start tag"), Kind.BUG),
        (KeyError("our own bug"), Kind.BUG),
    ],
)
def test_errors_are_classified(error: BaseException, kind: Kind) -> None:
    assert classify(error) is kind


def test_a_malformed_getupdates_body_is_one_warning_and_nothing_is_lost(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.inject("getUpdates", Fault.malformed("<html>gateway</html>"), Fault.http(500))
        api.send_text(QUESTION, chat=chat, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    assert len(texts(api)) == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("polling" in w and "not JSON" in w for w in warnings)
    no_tracebacks(caplog)


def test_a_callback_answer_for_a_removed_query_is_quiet(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        message = api.text_message("hello", chat=chat, user=api.bot_user)
        api.inject(
            "answerCallbackQuery",
            Fault.http(
                400, "Bad Request: query is too old and response timeout expired or query ID is invalid"
            ),
        )
        api.press(message, kb.encode("abcdefgh", kb.DETAILS, "0"), user=user)  # an expired turn
        await asyncio.to_thread(api.wait_for_faults, 1)

    scenario(body, api)
    assert api.calls_to("answerCallbackQuery") == [] and api.calls_to("sendMessage") == []
    no_tracebacks(caplog)
