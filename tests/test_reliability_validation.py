"""Issue 17, failures 7 and 8: one validation for every input path, bad numbers named as ignored.

The bounds live with the settings type (:mod:`bot.settings.chat`): a value a typed setting would
refuse is refused from a (forged) button too, a stored value from before the bounds is dropped on
read, and a question or follow-up that says "MFU 1e-20" or "NaN B" gets an answer that names what
it ignored -- through the real ``Application`` and the fake Bot API, and through the CLI.
"""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from pydantic import ValidationError
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.chat.commands import PRICE_PROBLEMS
from bot.chat.wording import SAVED, VALUE_REFUSED
from bot.cli import main as cli
from bot.parse import parse
from bot.settings.chat import DEADLINE_DAYS_BOUNDS, MFU_BOUNDS, PRICE_BOUNDS, ChatSettings, within
from bot.settings.store import SettingsStore

TOKEN = "123456:FAKE-TOKEN-abc"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    return path


@pytest.fixture
def api(db: Path) -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def run(api: FakeBotAPI, body: object) -> None:
    async def main() -> None:
        async with polling(tg.build_application(settings_for(api, user_rate="off", chat_rate="off"))):
            await body(api)  # type: ignore[operator]

    asyncio.run(asyncio.wait_for(main(), 20))


# -- 7. values from buttons bypass no validation ---------------------------------------------------
FORGED = {
    "deadline 1e23 days": (kb.SET_DEADLINE, "99999999999999999999999"),
    "deadline 0 days": (kb.SET_DEADLINE, "0"),
    "deadline -5 days": (kb.SET_DEADLINE, "-5"),
    "MFU 100000 %": (kb.SET_MFU, "100000"),
    "MFU 0 %": (kb.SET_MFU, "0"),
}


def test_forged_settings_buttons_are_refused_like_typed_values(api: FakeBotAPI, db: Path) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        panel = api.bot_messages(chat["id"])[-1]
        for action, arg in FORGED.values():
            api.press(panel, kb.encode(kb.SETTINGS_SLOT, action, arg), user=user)
        api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, "30"), user=user)  # a real one
        await asyncio.to_thread(api.wait_for, "answerCallbackQuery", len(FORGED) + 1)

    run(api, body)
    answers = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert answers == [VALUE_REFUSED["en"]] * len(FORGED) + [SAVED["en"]]
    with SettingsStore(db) as store:
        assert store.get(chat["id"]) == ChatSettings(deadline_days=30)


@pytest.mark.parametrize(
    "text", ["price A100 0.000000001", "price A100 nan", "price A100 1e9", "price H100 inf"]
)
def test_typed_price_outside_the_bounds_is_refused(api: FakeBotAPI, db: Path, text: str) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text(f"/settings {text}", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)

    run(api, body)
    [reply] = api.calls_to("sendMessage")
    assert telegram_html_text(reply.params["text"]) == PRICE_PROBLEMS["out_of_range"]["en"]
    with SettingsStore(db) as store:
        assert store.get(chat["id"]) == ChatSettings()


def test_a_stored_value_from_before_the_bounds_is_dropped_and_never_shown(api: FakeBotAPI, db: Path) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)
    SettingsStore(db).close()
    with sqlite3.connect(db) as conn:  # what the forged button stored before the bounds
        row = (chat["id"], '{"deadline_days":1e+23,"lang":"en"}')
        conn.execute("INSERT INTO chat_settings VALUES (?, ?, 0)", row)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("7B 1T tokens A100", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)

    run(api, body)
    answer = telegram_html_text(api.calls_to("sendMessage")[0].params["text"])
    assert "100000000000000000000000" not in answer and "30 days" in answer  # the default deadline
    with SettingsStore(db) as store:
        assert store.get(chat["id"]) == ChatSettings(lang="en")  # the rest of the row is kept


@pytest.mark.parametrize("mfu", [1e-300, 1e-20, 0.001, 0.0099, 0.01, 0.4, 1.0, 1.5, math.nan, math.inf])
def test_one_mfu_bound_for_settings_and_questions(mfu: float) -> None:
    allowed = within(MFU_BOUNDS, mfu)
    try:
        ChatSettings(mfu=mfu)
        stored = True
    except ValidationError:
        stored = False
    parsed = parse(f"7B 1T tokens A100 MFU {mfu * 100!r}%").request.mfu
    assert stored == allowed == (parsed is not None)


@pytest.mark.parametrize("days", [1e-7, 0.01, 1 / 24, 1, 3650, 4000, 1e23])
def test_one_deadline_bound_for_settings_and_questions(days: float) -> None:
    allowed = within(DEADLINE_DAYS_BOUNDS, days)
    try:
        ChatSettings(deadline_days=days)
        stored = True
    except ValidationError:
        stored = False
    parsed = parse(f"7B 1T tokens A100 in {days:f} days").request.deadline_days
    assert stored == allowed == (parsed is not None)


def test_price_bounds_are_shared() -> None:
    for price, ok in ((0.001, False), (0.01, True), (2.5, True), (10_000, True), (20_000, False)):
        assert within(PRICE_BOUNDS, price) is ok
        assert (parse(f"7B 1T tokens A100 at ${price}/hr").request.price_per_gpu_hour is not None) is ok


# -- 8. bad numbers: named in the reply as ignored ---------------------------------------------------
BAD = {
    "7B 1T tokens A100 MFU 1e-300": "1e-300",
    "7B 1T tokens A100 MFU 1e-20": "1e-20",
    "1e309B model 1T tokens A100": "1e309b",
    "10^400 parameters, 1T tokens, A100": "1e400",
    "NaN B model 1T tokens A100": "nan b",
    "∞B model 1T tokens A100": "∞b",
    "7B 1T tokens A100 in 0.0000001 days": "0.0000001",
}


@pytest.mark.parametrize("question", list(BAD))
def test_bad_numbers_are_named_through_the_cli(question: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli(["ask", "--format", "json", question])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["understood"] is True
    assert f"“{BAD[question]}”" in data["reply"] and "I ignored" in data["reply"]
    assert "at 0% MFU" not in data["reply"]


def test_bad_numbers_in_a_question_and_a_follow_up_are_named_in_telegram(api: FakeBotAPI) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("NaN B model 7B 1T tokens A100", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        api.send_text("with 64 GPUs and MFU 1e-300", chat=chat, user=user)  # a follow-up: same rules
        await asyncio.to_thread(api.wait_for, "sendMessage", 2)

    run(api, body)
    first, second = (telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage"))
    assert "“nan b”" in first and "7B pre-training" in first
    assert "“1e-300”" in second and "7B pre-training" in second and "64 ×" in second  # not the help
