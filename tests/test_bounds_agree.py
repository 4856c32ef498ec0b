"""One declaration per bound (part NC item 4): the deadline, price and concurrency bounds a user may
state are declared on the SizingRequest fields (estimator/request.py, ``stated``) and read by the
parser (typed questions and pasted configs), a chat's /settings and the presales offer, so a value
just past a bound is refused by all three and the bound itself is used by all three -- through
``sizing-bot ask`` and the real ``Application`` against the fake Bot API."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI
from htmlcheck import telegram_html_text
from tg_harness import api_fixture, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.keyboards as kb
from bot.chat.commands import PRICE_PROBLEMS
from bot.chat.wording import SAVED, VALUE_REFUSED
from bot.cli import main as cli
from bot.parse import request_fields
from bot.settings import chat as chat_settings
from bot.settings import presales
from bot.settings.store import SettingsStore
from estimator.request import bounds

TOKEN = "123456:FAKE-TOKEN-bounds"


def test_every_path_reads_the_request_declaration() -> None:
    assert bounds("deadline_days") == bounds("deadline_default_days") == (1 / 24, 3650.0)
    assert bounds("price_per_gpu_hour") == (0.01, 10_000.0)
    assert bounds("concurrency") == (1, 1_000_000)
    assert bounds("deadline_days") == chat_settings.DEADLINE_DAYS_BOUNDS
    assert bounds("price_per_gpu_hour") == chat_settings.PRICE_BOUNDS
    assert bounds("concurrency") == chat_settings.CONCURRENCY_BOUNDS
    assert bounds("price_per_gpu_hour") == (presales.MIN_PRICE, presales.MAX_PRICE_PER_GPU_HOUR)
    for name in ("deadline_days", "price_per_gpu_hour", "concurrency"):
        assert request_fields._CAPS[name] == bounds(name)[1], name


def ask(question: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert cli(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("question", "field", "at_bound"),
    [
        ("7B 1T tokens A100 in {} days", "deadline_days", "3650"),
        ("7B 1T tokens A100 at ${}/hr", "price_per_gpu_hour", "10000"),
        ("serve Llama 3 8B for {} concurrent users", "concurrency", "1000000"),
    ],
)
def test_the_parser_takes_the_bound_and_names_one_past_it(
    question: str, field: str, at_bound: str, capsys: pytest.CaptureFixture[str]
) -> None:
    used = ask(question.format(at_bound), capsys)
    assert used["request"][field] == float(at_bound) and "I ignored" not in used["reply"]
    past = str(int(at_bound) + 1)
    refused = ask(question.format(past), capsys)
    assert refused["request"][field] != float(past)  # not used (a deadline falls back to the default)
    assert f"I ignored “{past}”: not a usable value" in refused["reply"]


def test_a_pasted_max_num_seqs_past_the_bound_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask("vllm serve meta-llama/Meta-Llama-3-8B --max-num-seqs 1000001", capsys)
    assert data["request"]["concurrency"] != 1_000_001
    assert "“concurrency: 1000001” (not a value this setting can take)" in data["reply"]
    at_bound = ask("vllm serve meta-llama/Meta-Llama-3-8B --max-num-seqs 1000000", capsys)
    assert at_bound["request"]["concurrency"] == 1_000_000 and "Not used" not in at_bound["reply"]


api = api_fixture(TOKEN)


def test_settings_take_the_bound_and_refuse_one_past_it(api: FakeBotAPI, tmp_path: Path) -> None:
    user = api.user("Ada", "en")
    chat = api.private_chat(user)

    async def body(api: FakeBotAPI) -> None:
        api.send_text("/settings price A100 10000.01", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 1)
        api.send_text("/settings", chat=chat, user=user)
        await asyncio.to_thread(api.wait_for, "sendMessage", 2)
        panel = api.bot_messages(chat["id"])[-1]
        api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, "3651"), user=user)
        api.press(panel, kb.encode(kb.SETTINGS_SLOT, kb.SET_DEADLINE, "3650"), user=user)
        await asyncio.to_thread(api.wait_for, "answerCallbackQuery", 2)

    async def main() -> None:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        async with polling(tg.build_application(settings)):
            await body(api)

    asyncio.run(asyncio.wait_for(main(), 30))
    refused_price = telegram_html_text(api.calls_to("sendMessage")[0].params["text"])
    assert refused_price == PRICE_PROBLEMS["out_of_range"]["en"]
    answers = [c.params.get("text") for c in api.calls_to("answerCallbackQuery")]
    assert answers == [VALUE_REFUSED["en"], SAVED["en"]]
    with SettingsStore(tmp_path / "settings.sqlite3") as store:
        saved = store.get(chat["id"])
    assert saved.deadline_days == 3650 and saved.prices == {}


@pytest.mark.parametrize(("price", "loads"), [("10000", True), ("10000.01", False)])
def test_the_presales_offer_takes_the_bound_and_refuses_one_past_it(
    price: str,
    loads: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    offer = tmp_path / "offer.toml"
    offer.write_text(f'provider = "X"\n[[gpu]]\nfamily = "A100"\nprice_usd_per_gpu_hour = {price}\n')
    monkeypatch.setenv("SIZING_BOT_PRESALES", str(offer))
    code = cli(["ask", "Llama 3 8B 1B tokens A100"])
    out = capsys.readouterr()
    if loads:
        assert code == 0 and "Llama 3 8B" in out.out
    else:
        assert code == 2 and "gpu[0].price_usd_per_gpu_hour" in out.err and "10000" in out.err
