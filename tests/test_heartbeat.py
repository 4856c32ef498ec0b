"""Issue 22 item 15: the health check probes the running bot (a heartbeat file the bot rewrites while it
serves, read by ``sizing-bot health --heartbeat``), and the packaging files keep tests, docs, benchmarks
and a provider's price list out of the image and out of git."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from fake_bot_api import FakeBotAPI
from tg_harness import checked_fake_api, polling, settings_for

import bot.telegram.app as tg
from bot.cli import main
from bot.telegram.heartbeat import check_heartbeat, heartbeat_loop, write_heartbeat

REPO = Path(__file__).resolve().parent.parent
TOKEN = "123456:FAKE-TOKEN-beat"


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeBotAPI]:
    monkeypatch.setenv("SIZING_BOT_DB", str(tmp_path / "settings.sqlite3"))
    monkeypatch.delenv("SIZING_BOT_PRESALES", raising=False)
    monkeypatch.delenv("SIZING_BOT_HEARTBEAT", raising=False)
    with checked_fake_api(TOKEN) as fake:
        yield fake


def test_the_running_bot_beats_while_polling_and_health_reads_it(
    api: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    beat = tmp_path / "run" / "sizing-bot.heartbeat"
    seen: list[dict[str, float]] = []
    codes: list[int] = []

    async def run() -> None:
        settings = settings_for(api, heartbeat_path=beat, heartbeat_interval_s=0.05)
        async with polling(tg.build_application(settings)):
            for _ in range(200):  # the first beat comes once the updater polls
                if beat.exists():
                    break
                await asyncio.sleep(0.02)
            first = json.loads(beat.read_text(encoding="utf-8"))
            await asyncio.sleep(0.3)
            seen.extend([first, json.loads(beat.read_text(encoding="utf-8"))])
            codes.append(await asyncio.to_thread(main, ["health", "--heartbeat", str(beat)]))
            monkeypatch.setenv("SIZING_BOT_HEARTBEAT", str(beat))  # the Dockerfile's way
            codes.append(await asyncio.to_thread(main, ["health", "--heartbeat"]))

    asyncio.run(asyncio.wait_for(run(), 30))
    assert seen[1]["time"] > seen[0]["time"]  # rewritten while it runs
    assert abs(seen[1]["time"] - time.time()) < 5
    assert codes == [0, 0]
    assert not beat.exists()  # a clean shutdown removes it
    capsys.readouterr()
    assert main(["health", "--heartbeat", str(beat)]) == 1
    assert "no heartbeat" in capsys.readouterr().err


def test_a_stale_or_broken_heartbeat_is_unhealthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    beat = tmp_path / "hb"
    write_heartbeat(beat, now=time.time() - 120)
    assert main(["health", "--heartbeat", str(beat)]) == 1
    assert "last heartbeat 120 s ago (more than 60 s)" in capsys.readouterr().err
    assert main(["health", "--heartbeat", str(beat), "--max-age", "300"]) == 0
    beat.write_text("{not json", encoding="utf-8")
    assert check_heartbeat(beat) is not None and "unreadable heartbeat" in str(check_heartbeat(beat))
    assert main(["health", "--heartbeat"]) == 1  # neither a file nor SIZING_BOT_HEARTBEAT
    assert "SIZING_BOT_HEARTBEAT" in capsys.readouterr().err


@pytest.mark.parametrize(("app_running", "updater_running"), [(False, True), (True, False)])
def test_no_beat_unless_the_application_and_its_updater_run(
    tmp_path: Path, app_running: bool, updater_running: bool
) -> None:
    beat = tmp_path / "hb"
    app = SimpleNamespace(running=app_running, updater=SimpleNamespace(running=updater_running))

    async def run() -> None:
        task = asyncio.create_task(heartbeat_loop(app, beat, 0.01))
        await asyncio.sleep(0.1)
        assert not beat.exists()  # a stopped updater (a dead polling loop) stops the beats
        app.running = app.updater.running = True
        for _ in range(100):
            if beat.exists():
                break
            await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(run())
    assert check_heartbeat(beat) is None


def test_ignore_files_keep_tests_docs_bench_and_the_price_list_out() -> None:
    docker = (REPO / ".dockerignore").read_text(encoding="utf-8").split("\n")
    for entry in ("tests", "docs", "bench", "presales.toml", "quote.pdf"):
        assert entry in docker, entry
    git = (REPO / ".gitignore").read_text(encoding="utf-8").split("\n")
    assert "presales.toml" in git and "quote.pdf" in git
    assert (REPO / "presales.example.toml").exists()  # the committed template is not ignored
    assert "presales.example.toml" not in docker + git


def test_readme_names_the_file_url_beside_the_api_url() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    base = readme.index("export TELEGRAM_BASE_URL=")
    assert 0 < readme.index("export TELEGRAM_BASE_FILE_URL=https://api.telegram.org/file/bot") - base < 200
