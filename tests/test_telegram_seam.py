"""Issue 23 items 1, 2 and 4 through the real Application and the fake Bot API: Telegram's keyboards
only translate the actions core decided; each kind of press has its own pattern ``CallbackQueryHandler``;
Telegram ids reach the conversation and the settings store as ``telegram:<id>`` strings."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotAPI
from telegram.ext import CallbackQueryHandler
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.core.conversation import Conversation

TOKEN = "123456:FAKE-TOKEN-seam"


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    with checked_fake_api(TOKEN) as fake:
        yield fake


def _labels(markup: dict[str, Any] | None) -> list[list[tuple[str, str]]]:
    return [
        [(b["text"], b["callback_data"]) for b in row] for row in (markup or {}).get("inline_keyboard", [])
    ]


def test_each_kind_of_press_has_its_own_pattern_handler(api: FakeBotAPI) -> None:
    app = tg.build_application(settings_for(api))
    presses = [h for h in app.handlers[0] if isinstance(h, CallbackQueryHandler)]
    names = [h.callback.__name__ for h in presses]
    assert names == [
        "on_models_page",
        "on_settings_button",
        "on_details",
        "on_variant",
        "_send_chart",
        "_send_recipes",
        "_send_quote",
        "on_other",
    ]
    assert all(h.pattern is not None for h in presses[:-1]) and presses[-1].pattern is None
    routed = {
        "v1|-|mp|1:llama": "on_models_page",
        "v1|-|sd|30": "on_settings_button",
        "v1|Ab3dE6gH|d|0": "on_details",
        "v1|Ab3dE6gH|g|H100-SXM5-80GB": "on_variant",
        "v1|Ab3dE6gH|l|en": "on_variant",
        "v1|Ab3dE6gH|c|": "_send_chart",
        "v1|Ab3dE6gH|x|": "on_other",
        "v2|Ab3dE6gH|d|0": "on_other",
        "v1|Ab3dE6gH|d|0|extra": "on_other",
    }
    for data, name in routed.items():
        assert next(h.callback.__name__ for h in presses if h.check_update(_press_update(app, data))) == name


def _press_update(app: Any, data: str) -> Any:
    from telegram import CallbackQuery, Update, User

    query = CallbackQuery("1", User(1, "Ada", False), "chat", data=data)
    return Update(1, callback_query=query)


def test_buttons_are_the_core_actions_and_ids_are_scoped_strings(api: FakeBotAPI, tmp_path: Path) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    conversation = Conversation()

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        [sent] = await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        message = api.bot_messages(chat["id"])[-1]
        turn_id = conversation.last_turn_id(f"telegram:{chat['id']}", f"telegram:{user['id']}")
        assert turn_id is not None
        turn = conversation.turn(turn_id)
        assert turn is not None and turn.chat_id == f"telegram:{chat['id']}"
        rows = conversation.actions(turn)
        expected = [[(a.label("en"), kb.encode(turn_id, a.kind, a.arg)) for a in row] for row in rows]
        assert _labels(sent.params["reply_markup"]) == expected  # the keyboard only translates actions
        assert ("🔼 Hide details", kb.encode(turn_id, kb.DETAILS, "0")) in expected[-1]
        api.press(message, kb.encode(turn_id, "x", ""), user=user)  # an action no keyboard offers
        [ignored] = await asyncio.to_thread(api.wait_for, "answerCallbackQuery", 1)
        assert not ignored.params.get("text")
        api.send_text("/settings", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 2)
        panel = api.bot_messages(chat["id"])[-1]
        api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, "60"), user=user)
        await asyncio.to_thread(api.wait_for, "answerCallbackQuery", 2)

    async def main() -> None:
        async with polling(tg.build_application(settings_for(api), conversation=conversation)):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), 30))
    assert len(api.calls_to("editMessageText")) == 1  # the settings panel; the forged press edited nothing
    with sqlite3.connect(tmp_path / "settings.sqlite3") as conn:
        rows = conn.execute("SELECT scope_id, settings FROM chat_settings").fetchall()
    conn.close()
    assert rows == [(f"telegram:{chat['id']}", '{"deadline_days":60.0}')]


def _turn_of(markup: dict[str, Any]) -> str:
    callback = kb.decode(_labels(markup)[-1][0][1])  # the details toggle, first on the last row
    assert callback is not None and callback.action == kb.DETAILS
    return callback.turn_id


def test_telegram_implements_the_adapter_interface_through_the_seam(api: FakeBotAPI) -> None:
    from telegram import Bot

    from bot.chat.adapter import Adapter
    from bot.chat.seam import Seam
    from bot.telegram.adapter import TelegramAdapter, html_footer
    from bot.telegram.reply import reply_html

    user = api.user("Li", "zh-hans")
    chat = api.private_chat(user)
    conversation = Conversation()
    render = lambda turn, details: reply_html(turn, details=details)  # noqa: E731
    seam = Seam(conversation, render=render, contact="Sales <ada@example.com> & co", footer=html_footer)
    adapter = TelegramAdapter(Bot(TOKEN, base_url=api.base_url), poll_timeout_s=0)
    assert isinstance(adapter, Adapter)

    async def main() -> None:
        serving = asyncio.create_task(seam.serve(adapter))
        api.send_text("7B模型1万亿token要多少A100", chat=chat, user=user)
        [first] = await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        api.send_text("那H100呢", chat=chat, user=user)
        [_, second] = await asyncio.to_thread(api.wait_for, "sendMessage", 2)
        message = api.bot_messages(chat["id"])[-1]
        turn_id = _turn_of(second.params["reply_markup"])
        api.press(message, kb.encode(turn_id, kb.DETAILS, "0"), user=user)
        [edit] = await asyncio.to_thread(api.wait_for, "editMessageText", 1)
        await adapter.stop()
        await asyncio.wait_for(serving, 10)
        turn = conversation.turn(turn_id)
        assert turn is not None and turn.answer.followup and turn.request.gpu == "H100-SXM5-80GB"
        assert (turn.chat_id, turn.user_id) == (f"telegram:{chat['id']}", f"telegram:{user['id']}")
        first_turn = conversation.turn(_turn_of(first.params["reply_markup"]))
        assert first_turn is not None  # the app's HTML and contact line, escaped (as bot.telegram.reply does)
        assert first.params["text"] == reply_html(first_turn, contact="Sales <ada@example.com> & co")
        assert first.params["text"].endswith("\n\nSales &lt;ada@example.com&gt; &amp; co")
        assert "<blockquote expandable>" in second.params["text"] and "<blockquote" not in edit.params["text"]
        assert edit.params["message_id"] == message["message_id"]
        assert _labels(edit.params["reply_markup"])[-1][0][0] == "🔽 展开详情"

    asyncio.run(asyncio.wait_for(main(), 30))
    assert len(api.calls_to("answerCallbackQuery")) == 1  # the press was answered
