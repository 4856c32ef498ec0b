"""The answer path warmed once a platform is connected (bot.chat.warmup): a fresh process's first user
answer loads nothing more (no module, no parser pattern) than its second; the hook starts one warm-up
thread per process, only under ``sizing-bot run``; Telegram's post-init (the real Application against the
fake Bot API) calls it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tg_harness import api_fixture, polling, settings_for

import bot.chat.warmup as warmup
import bot.telegram.app as tg

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "123456:WARM-UP-abc"
api = api_fixture(TOKEN)

FIRST_USER = """
import sys
from bot.chat import warmup
from bot.core.conversation import Conversation
from bot.render.renderer import render
import bot.parse.regex as regex
if sys.argv[1] == "warm":
    warmup.warm_up()
modules = set(sys.modules)
conversation = Conversation(max_entries=4)
turn = conversation.ask("telegram:1", "telegram:1", "13B模型5000亿token要多少H800")
render(turn.answer, "telegram_html")
print(len(set(sys.modules) - modules), len(regex._UNGATED), turn.answer.understood)
"""


def _first_user_answer(mode: str) -> tuple[int, int, str]:
    """(modules imported, parser patterns compiled, understood) by a fresh interpreter's first answer."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_USER, mode],
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules, patterns, understood = done.stdout.split()
    return int(modules), int(patterns), understood


def test_first_answer_after_the_warm_up_loads_nothing() -> None:
    cold_modules, cold_patterns, understood = _first_user_answer("cold")
    assert understood == "True"
    assert cold_modules > 0 and cold_patterns > 50  # what a first message paid before (estimator, …)
    modules, patterns, _ = _first_user_answer("warm")
    # s41: the warm-up parses no second question (the idle budget: 80.1 -> 78.1 MiB in a clean-clone CI venv),
    # so the first user question compiles the ~470 patterns a second parse compiles; it imports nothing
    assert modules == 0 and patterns < cold_patterns


def test_one_warm_up_per_process_and_only_under_run(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []
    monkeypatch.setattr(warmup, "warm_up", lambda *_: ran.append(threading.current_thread().name) or 0.0)
    monkeypatch.setattr(warmup, "_thread", None)
    monkeypatch.setattr(warmup, "_enabled", False)
    assert warmup.on_connected() is None  # an application built in process: no thread beside it
    warmup.enable_warm_up()
    first = warmup.on_connected()
    assert first is not None and first.daemon
    assert warmup.on_connected() is first  # another platform, a reconnect: the same one
    first.join(10)
    assert ran == ["warm-up"]


def test_telegram_post_init_starts_the_warm_up(api, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = threading.Event()
    monkeypatch.setattr(warmup, "warm_up", lambda *_: ran.set() or 0.0)
    monkeypatch.setattr(warmup, "_thread", None)
    monkeypatch.setattr(warmup, "_enabled", True)  # as sizing-bot run sets it (bot.run.run)

    async def main() -> None:
        async with polling(tg.build_application(settings_for(api))):
            await asyncio.to_thread(ran.wait, 10)

    asyncio.run(asyncio.wait_for(main(), 30))
    assert ran.is_set()


def test_warm_up_answers_every_stage() -> None:
    """The warm questions are understood (a question that is not would warm the help path only)."""
    from bot.core.pipeline import answer

    assert all(answer(q).understood for q in warmup.WARM_QUESTIONS)


def test_the_real_run_process_warms_up_once_connected(tmp_path: Path) -> None:
    """``sizing-bot run`` (Feishu only, against the fake Feishu): after its long connection opens, the
    warm-up thread logs that it is done; the first question is then answered."""
    from fake_feishu import FakeFeishu
    from feishu_run import cards, running_bot, wait

    with FakeFeishu() as fake, running_bot(fake, tmp_path):
        log = tmp_path / "bot.log"
        wait(lambda: "answer path warmed in" in log.read_text(), 30, "warm-up")
        text = log.read_text()
        assert text.index("feishu: connected to") < text.index("answer path warmed in")
        fake.push(fake.message_event("7B模型1万亿token要多少A100"))
        wait(lambda: cards(fake), 10, "first card")


IDLE_AFTER_WARM_UP = """
from pathlib import Path
import bot.telegram.app as tg
from bot.telegram.config import BotSettings
from bot.chat.warmup import warm_up
app = tg.build_application(BotSettings(telegram_bot_token="1:x", _env_file=None))
warm_up(("telegram_html",))  # what the Telegram application's post-init warms (bot.telegram.app)
rss = [l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmRSS:")]
print(int(rss[0].split()[1]) / 1024)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="VmRSS is read from /proc (Linux)")
def test_idle_memory_after_the_warm_up_stays_within_the_budget() -> None:
    """The idle Telegram application (bench/compare.py's 'idle', ~67 MiB) plus the warm-up: at most the
    80 MiB idle budget (measured 78.8 MiB; 74.6 MiB once PTB is imported without tornado and httpx without
    its command line, 2026-12-03: tests/test_idle_imports.py; English replies are not rendered by the
    warm-up for this)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", IDLE_AFTER_WARM_UP],
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout) <= 80.0
