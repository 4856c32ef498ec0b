"""Issue 30 through the real ``Application`` and the fake Bot API: the right words when the admin check
fails (item 8), replies fitted to Telegram's 4,096 characters whatever the inputs (item 3), and text
that cannot be encoded cleaned where it enters (item 4). Loopback only."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import Call, FakeBotAPI, Fault
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
from bot.chat.wording import ERROR_REPLY, PERMISSION_CHECK_FAILED, TELEGRAM_TROUBLE
from bot.telegram import enable_ptb_webhook_server
from bot.telegram.transport import RetryPolicy

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

TOKEN = "123456:FAKE-TOKEN-abc"
FAST = RetryPolicy(attempts=2, base_delay_s=0.01, max_delay_s=0.02, budget_s=2.0)
TIMEOUT_S = 30


api = api_fixture(TOKEN)


def scenario(body: Callable[[FakeBotAPI], Awaitable[None]], api: FakeBotAPI, **build: Any) -> None:
    build.setdefault("retry", FAST)

    async def main() -> None:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        async with polling(tg.build_application(settings, **build)):
            await body(api)
            await asyncio.sleep(0.2)  # an apology or a second reply would have time to come

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))


async def calls(api: FakeBotAPI, method: str, count: int) -> list[Call]:
    return await asyncio.to_thread(api.wait_for, method, count, 20.0)


def shown(call: Call) -> str:
    return telegram_html_text(call.params.get("text") or "")


# -- item 8: the permission check failed, not the delivery ---------------------------------------
def test_admin_check_failing_with_500_says_the_permission_check_failed(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    group = api.group_chat()
    member = api.user("Ada", "en")

    async def body(api: FakeBotAPI) -> None:
        api.inject("getChatMember", *[Fault.http(500)] * FAST.attempts)
        api.send_text("/settings price A100 18", chat=group, user=member)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    [sent] = api.calls_to("sendMessage")
    assert shown(sent) == PERMISSION_CHECK_FAILED["en"]
    assert shown(sent) not in (TELEGRAM_TROUBLE["en"], ERROR_REPLY["en"])
    assert "permissions" in shown(sent) and "try again" in shown(sent)
    assert len(api.faults) == FAST.attempts  # the check was retried, then given up
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_admin_check_failing_on_a_settings_button_answers_the_button(api: FakeBotAPI) -> None:
    import bot.telegram.keyboards as kb

    group = api.group_chat()
    member = api.user("Li", "zh-hans")

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=group, user=member)
        await calls(api, "sendMessage", 1)
        message = api.bot_messages(group["id"])[-1]
        api.inject("getChatMember", *[Fault.http(502, "Bad Gateway")] * FAST.attempts)
        api.press(message, kb.encode(kb.SETTINGS_SLOT, kb.SET_MFU, "50"), user=member)
        await calls(api, "answerCallbackQuery", 1)

    scenario(body, api)
    [answered] = api.calls_to("answerCallbackQuery")
    assert answered.params["text"] == PERMISSION_CHECK_FAILED["zh"]
    assert "权限" in answered.params["text"]
    assert len(api.calls_to("sendMessage")) == 1  # no apology message besides the button answer


# -- item 3: a reply too long for the platform is shortened, never lost ----------------------------
OFFER = {"provider": "P", "gpu": [{"family": "A100", "price_cny_per_gpu_hour": 12}]}
HUGE_NUMBER = "9" * 4000
CONFIG_KEYS = (
    "hidden_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "intermediate_size",
    "vocab_size",
    "max_position_embeddings",
)


def test_a_5000_character_contact_line_still_gets_the_answer(api: FakeBotAPI) -> None:
    """The offer's contact is capped at validation (500); an offer built past validation (another
    front end, an older file format) must still not lose the answer: the line is capped at a quarter
    of the limit and the answer is fitted to the rest."""
    from bot.settings.presales import PresalesConfig

    offer = PresalesConfig.model_validate(OFFER)
    object.__setattr__(offer, "contact", "Call us: " + "x" * 5000)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api, presales=offer)
    [sent] = api.calls_to("sendMessage")
    text = shown(sent)
    assert text not in (ERROR_REPLY["en"], TELEGRAM_TROUBLE["en"])
    assert len(text.encode("utf-16-le")) // 2 <= 4096
    assert "A100" in text.splitlines()[0] and "¥" in text  # the answer, priced from the offer
    assert text.endswith("…") and "Call us: xxx" in text.splitlines()[-1]
    assert len(text.splitlines()[-1]) == 1024  # the contact line: a quarter of the limit


def test_a_config_document_with_4000_digit_numbers_gets_its_error_reply(api: FakeBotAPI) -> None:
    """The error reply names every bad field with its value: 28,225 characters before fitting."""
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    doc = "{" + ",".join(f'"{k}": {HUGE_NUMBER}' for k in CONFIG_KEYS) + ', "model_type": "llama"}'

    async def body(api: FakeBotAPI) -> None:
        api.send_document(doc.encode(), chat=chat, user=user)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    [sent] = api.calls_to("sendMessage")
    text = shown(sent)
    assert text not in (ERROR_REPLY["en"], TELEGRAM_TROUBLE["en"])
    assert len(text) <= 4096
    assert text.startswith("Some values in this config.json are not possible for a real model")
    assert "layers=" in text and "(4,007 chars)" in text  # "layers=999…999" shortened, its length said


@pytest.mark.parametrize("limit", [4096, 2000, 500])
def test_fit_takes_the_platform_limit(limit: int) -> None:
    """The fitting is a front-end-neutral function of the limit (bot.render.fit)."""
    from bot.core.pipeline import Context, answer
    from bot.render.fit import fit_html, fit_with_footer
    from bot.render.html import visible_length
    from bot.render.renderer import render

    full = render(answer("7B 1T tokens A100", Context(fixed_lang="en"), None, None), "html")
    assert visible_length(full) > 500
    fitted = fit_html(full, limit)
    assert visible_length(fitted) <= limit and fitted.split("\n")[0] == full.split("\n")[0]
    with_line = fit_with_footer(full, "sales: " + "y" * 10_000, limit)
    assert visible_length(with_line) <= limit and with_line.endswith("…")
    assert fit_html(full, 100_000) == full  # what fits is left alone


# -- item 4: text that cannot be encoded is cleaned where it enters --------------------------------
LONE = "\ud800"
PASTED_CONFIG = (
    '{"_name_or_path": "Foo' + LONE + 'Bar", "model_type": "llama", "hidden_size": 4096, '
    '"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, '
    '"intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 8192}'
)
CONFIG_FILE = PASTED_CONFIG.replace(LONE, "\\ud800")  # the JSON escape, as a file holds it


def _clean(text: str) -> bool:
    text.encode("utf-8")  # raises on a lone surrogate
    return True


def test_a_lone_surrogate_in_a_message_is_cleaned_and_answered(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada" + LONE, "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("serve this on 2 A100: " + PASTED_CONFIG, chat=chat, user=user)  # name echoed
        api.send_text("7B" + LONE + " 1T tokens A100", chat=chat, user=user)
        api.send_text("/models zorb" + LONE, chat=chat, user=user)  # echoed outside the pipeline
        await calls(api, "sendMessage", 3)

    scenario(body, api)
    first, second, third = (shown(c) for c in api.calls_to("sendMessage"))
    assert third == "No model in the catalog starts with “zorb\ufffd”. /models lists them all."
    assert first.startswith("Foo\ufffdBar bf16 inference on 2 × A100") and _clean(first)
    assert second not in (ERROR_REPLY["en"], TELEGRAM_TROUBLE["en"]) and "A100" in second
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_a_lone_surrogate_in_a_caption_and_in_the_file_is_cleaned(api: FakeBotAPI) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_document(CONFIG_FILE.encode(), chat=chat, user=user, caption="serve it on 2 A100" + LONE)
        await calls(api, "sendMessage", 1)

    scenario(body, api)
    [sent] = api.calls_to("sendMessage")
    assert shown(sent).startswith("Foo\ufffdBar bf16 inference on 2 × A100")


def test_a_lone_surrogate_in_an_inline_query_is_cleaned(api: FakeBotAPI) -> None:
    user = api.user("Ada", "en")

    async def body(api: FakeBotAPI) -> None:
        api.inline_query("7B 1T tokens A100" + LONE, user=user)
        await calls(api, "answerInlineQuery", 1)

    scenario(body, api)
    [call] = api.calls_to("answerInlineQuery")
    results = call.params["results"]
    text = results[0]["input_message_content"]["message_text"]
    assert "A100" in text.split("\n")[0] and _clean(text) and _clean(json.dumps(results, ensure_ascii=False))


def test_the_bot_api_transport_cleans_every_string_once() -> None:
    """Where Telegram's text enters (getUpdates and every other answer): keys and values, nested."""
    from bot.telegram.transport import WrappedRequest

    body = json.dumps({"ok": True, "result": [{"message": {"text": "a" + LONE, "caption": LONE}}]})
    parsed = WrappedRequest.parse_json_payload(body.encode())
    assert parsed["result"][0]["message"] == {"text": "a\ufffd", "caption": "\ufffd"}


def test_a_lone_surrogate_in_callback_data_is_answered(
    api: FakeBotAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await calls(api, "sendMessage", 1)
        api.press(api.bot_messages(chat["id"])[-1], "x|" + LONE * 10, user=user)
        await calls(api, "answerCallbackQuery", 1)

    scenario(body, api)
    [answered] = api.calls_to("answerCallbackQuery")
    assert _clean(str(answered.params.get("text") or ""))
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


def test_a_lone_surrogate_in_a_config_file_through_the_cli(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    path = tmp_path / "config.json"
    path.write_text(CONFIG_FILE, encoding="ascii")
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--config", str(path), "serve it on 2 A100"],
        capture_output=True, env={**env, "PYTHONPATH": str(root)}, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("Foo\ufffdBar bf16 inference on 2 × A100") and done.stderr == b""


def test_every_front_end_gets_clean_text_from_the_pipeline() -> None:
    """The web page, Feishu, WeCom and DingTalk call the same function: its answer encodes."""
    from bot.contract import to_json
    from bot.core.pipeline import Context, answer
    from bot.render.renderer import render

    a = answer("serve this on 2 A100: " + PASTED_CONFIG, Context(fixed_lang="en"), None, None)
    for fmt in ("html", "text", "markdown"):
        assert _clean(render(a, fmt)) and "Foo\ufffdBar" in render(a, fmt)
    assert _clean(json.dumps(to_json(a, render(a, "text")), ensure_ascii=False))


def test_a_lone_surrogate_in_a_webhook_update_is_cleaned(api: FakeBotAPI) -> None:
    """A webhook update does not pass through the Bot API transport: the journal's queue cleans it."""
    import socket

    import httpx

    secret = "s3cret_Webhook-token"
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    port = server.getsockname()[1]
    server.listen(16)
    server.setblocking(False)
    url = f"http://127.0.0.1:{port}/hook"
    settings = settings_for(
        api, webhook_url=url, webhook_secret=secret, webhook_listen="127.0.0.1", webhook_port=port,
        user_rate="off", chat_rate="off",
    )  # fmt: skip
    user = api.user("Ann", "en")
    chat = api.private_chat(user)

    def update(text: str) -> bytes:  # JSON's "\ud800" escape, as json.dumps writes it
        message = api.text_message(text, chat=chat, user=user)
        return json.dumps({"update_id": api.next_update_id(), "message": message}).encode()

    async def main() -> None:
        app = tg.build_application(settings, retry=FAST)
        async with app:
            await app.start()
            assert app.updater is not None
            enable_ptb_webhook_server()  # PTB's own tornado server: bot.telegram leaves it out
            await app.updater.start_webhook(
                url_path="hook", webhook_url=url, secret_token=secret, unix=server
            )
            try:
                headers = {"Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret}
                async with httpx.AsyncClient() as client:
                    for text in ("serve this on 2 A100: " + PASTED_CONFIG, "/models zorb" + LONE):
                        posted = await client.post(url, content=update(text), headers=headers)
                        assert posted.status_code == 200
                        await calls(api, "sendMessage", 1 if text.startswith("serve") else 2)
            finally:
                await app.updater.stop()
                await app.stop()
        if app.post_shutdown is not None:  # closes the settings store's worker threads (as run_webhook)
            await app.post_shutdown(app)

    asyncio.run(asyncio.wait_for(main(), TIMEOUT_S))
    sized, models = (shown(c) for c in api.calls_to("sendMessage"))
    assert sized.startswith("Foo\ufffdBar bf16 inference on 2 × A100")
    assert models == "No model in the catalog starts with “zorb\ufffd”. /models lists them all."
