"""Issue 30 item 5: a send outage does not lose answers. With every send refused for 8 s while polling
still works, the answers stay unmarked in the update journal and go out once sending works again,
saying they are late; past the age bound (1 h) an answer is given up. Real Application, fake Bot API
with fault injection, loopback only."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI, Fault
from htmlcheck import telegram_html_text
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
import bot.telegram.processor as proc
from bot.chat.wording import ERROR_REPLY, TELEGRAM_TROUBLE
from bot.telegram.transport import RetryPolicy

pytestmark = pytest.mark.filterwarnings("ignore:.*retry_after.*:DeprecationWarning")

TOKEN = "123456:FAKE-TOKEN-outage"
FAST = RetryPolicy(attempts=2, base_delay_s=0.01, max_delay_s=0.02, budget_s=2.0)
OUTAGE_S = 8.0
LATE_EN = "(delayed: Telegram was unreachable)"


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBotAPI]:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    monkeypatch.setattr(proc, "REDELIVER_DELAYS_S", (0.5, 1.0, 2.0))
    with checked_fake_api(TOKEN) as fake:
        yield fake


def unhandled(journal: Path) -> int:
    with sqlite3.connect(journal) as conn:
        return conn.execute("SELECT COUNT(*) FROM updates WHERE done IS NULL").fetchone()[0]


def test_answers_refused_for_8_s_stay_in_the_journal_and_go_out_late(api: FakeBotAPI, tmp_path: Path) -> None:
    journal = tmp_path / "settings-updates.sqlite3"
    questions = ["7B 1T tokens H100", "70B inference on A100", "13B LoRA fine-tune 1B tokens"]
    counts: list[int] = []

    async def main() -> None:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        async with polling(tg.build_application(settings, retry=FAST)):
            api.fail_randomly(1.0, ("sendMessage",), (Fault.drop(),))  # every send refused
            started = time.monotonic()
            for i, text in enumerate(questions):
                user = api.user(f"U{i}", "en")
                api.send_text(text, chat=api.private_chat(user), user=user)
            await asyncio.to_thread(api.wait_for_faults, 6, 10.0)  # each answer tried, and again
            await asyncio.sleep(1.0)  # the journal's marks would be committed by now
            counts.append(unhandled(journal))
            await asyncio.sleep(max(0.0, OUTAGE_S - (time.monotonic() - started)))
            assert not api.calls_to("sendMessage")  # nothing got through during the outage
            api.fail_randomly(0)  # sending works again
            await asyncio.to_thread(api.wait_for, "sendMessage", len(questions), 20.0)
            await asyncio.sleep(0.5)  # a duplicate or an apology would have time to come
        counts.append(unhandled(journal))

    asyncio.run(asyncio.wait_for(main(), 60))
    sent = [telegram_html_text(c.params["text"]) for c in api.calls_to("sendMessage")]
    assert len(sent) == len(questions)  # every answer, once; no apology
    assert all(text.startswith(LATE_EN) for text in sent)
    headlines = sorted(text.splitlines()[2] for text in sent)  # the note, a blank line, the answer
    assert [sum(model in h for h in headlines) for model in ("7B", "70B", "13B")] == [1, 1, 1], headlines
    assert not any(TELEGRAM_TROUBLE["en"] in t or ERROR_REPLY["en"] in t for t in sent)
    assert counts == [len(questions), 0]  # kept in the journal during the outage, marked once sent


def test_an_answer_undeliverable_for_over_an_hour_is_given_up(
    api: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]

    async def main() -> None:
        settings = settings_for(api, user_rate="off", chat_rate="off")
        app = tg.build_application(settings, retry=FAST)
        processor = app.update_processor
        assert isinstance(processor, proc.ChatOrderedProcessor)
        processor.clock = lambda: now[0]
        async with polling(app):
            api.fail_randomly(1.0, ("sendMessage",), (Fault.drop(),))
            user = api.user("Ann", "en")
            api.send_text("7B 1T tokens H100", chat=api.private_chat(user), user=user)
            await asyncio.to_thread(api.wait_for_faults, 2, 10.0)
            now[0] += proc.MAX_LATE_S + 1  # an hour later, still unreachable
            await asyncio.to_thread(api.wait_for_faults, 6, 10.0)  # retried once more, then apology tried
            api.fail_randomly(0)
            await asyncio.sleep(2.5)  # past every redelivery delay: nothing more is tried

    asyncio.run(asyncio.wait_for(main(), 60))
    assert not [c for c in api.calls_to("sendMessage") if c.params["text"].startswith("7B")]
