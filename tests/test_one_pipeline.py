"""One pipeline (issue #11): the same question gives the same reply in `sizing-bot ask --format html`
and in a fresh private chat with the real Application (the bot adds only its buttons)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
from bot.cli import ask

TOKEN = "123456:FAKE-TOKEN-pipeline"
CORPUS = Path(__file__).resolve().parent / "data" / "questions.json"
IDS = ("q001", "q002", "q010", "q013", "q024", "q070", "q075", "q042", "q100", "q110")


def _questions() -> list[tuple[str, str]]:
    """Ten corpus questions in both languages whose words name their language (a names-only
    question would take the chat client's language instead)."""
    by_id = {q["id"]: q for q in json.loads(CORPUS.read_text(encoding="utf-8"))}
    return [(by_id[i]["text"], by_id[i]["lang"]) for i in IDS if i in by_id]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "settings.sqlite3"
    monkeypatch.setenv("SIZING_BOT_DB", str(path))
    return path


def test_cli_and_a_fresh_private_chat_give_the_same_reply(db: Path) -> None:
    questions = _questions()
    assert len(questions) == 10
    assert {lang for _, lang in questions} == {"zh", "en"}
    with checked_fake_api(TOKEN) as api:

        async def main() -> None:
            async with polling(tg.build_application(settings_for(api), presales=None)):
                for n, (text, lang) in enumerate(questions):
                    user = api.user(f"U{n}", "zh-hans" if lang == "zh" else "en")
                    api.send_text(text, chat=api.private_chat(user), user=user)
                await asyncio.to_thread(api.wait_for, "sendMessage", len(questions), 20.0)

        asyncio.run(asyncio.wait_for(main(), 60))
        sent = {c.params["chat_id"]: c.params["text"] for c in api.calls_to("sendMessage")}
        chats = [c.params["chat_id"] for c in api.calls_to("sendMessage")]
    assert len(sent) == len(questions)
    for (text, _), chat_id in zip(questions, sorted(chats), strict=True):
        cli_html, _ = ask(text, None, "html")
        assert sent[chat_id] == cli_html, text
