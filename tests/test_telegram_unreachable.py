"""FIX2 items 1 and 3: Telegram unreachable at start-up (api.telegram.org is often blocked in mainland China)
is retried with backoff (1 s doubling to 5 min), one clear line per try naming TELEGRAM_BASE_URL; the
other platforms keep serving; an invalid token (401) stays fatal with one line. DingTalk and WeCom
log one line naming the unreachable URL, the settings to check and the next try. The real
``sizing-bot run`` process, loopback only (the fake Bot API, closed ports)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_bot_api import FakeBotAPI, Fault
from test_reliability_kill import start_bot, wait
from test_reliability_secrets import closed_port
from tg_harness import checked_fake_api

from bot.telegram.startup import delay_after

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "123456:FAKE-TOKEN-abc"
SECRETS = ("FEISHU-SECRET-zz9", "DINGTALK-SECRET-zz9", "WECOM-SECRET-zz9")


@pytest.fixture
def api() -> Iterator[FakeBotAPI]:
    with checked_fake_api(TOKEN) as fake:
        yield fake


def test_the_backoff_doubles_from_1_s_to_5_min() -> None:
    assert [delay_after(n) for n in (1, 2, 3, 4, 9, 10, 50)] == [1, 2, 4, 8, 256, 300, 300]


def _stop(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGTERM)
    try:
        return proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_telegram_alone_retries_then_serves_once_reachable(api: FakeBotAPI, tmp_path: Path) -> None:
    api.inject("getMe", *[Fault.http(502, "Bad Gateway")] * 8)  # two start-up tries of 4 sends each
    log = tmp_path / "bot.log"
    proc = start_bot(api, tmp_path, log)
    try:
        wait(lambda: api.calls_to("getUpdates"), 60, "polling after the failed start-up tries")
        user = api.user("Ada", "en")
        api.send_text("/size 7B 1T tokens A100", chat=api.private_chat(user), user=user)
        wait(lambda: api.calls_to("sendMessage"), 60, "the answer")
        assert proc.poll() is None
    finally:
        code = _stop(proc)
    said = log.read_text(encoding="utf-8")
    lines = [line for line in said.splitlines() if "telegram: cannot reach" in line]
    assert len(lines) == 2, said
    assert f"cannot reach {api.base_url}: Bad Gateway; check TELEGRAM_BASE_URL" in lines[0]
    assert lines[0].endswith("retrying in 1 s (the other platforms keep serving)")
    assert lines[1].endswith("retrying in 2 s (the other platforms keep serving)")
    assert "Traceback" not in said and TOKEN.split(":")[1] not in said
    assert code == 0


def test_an_invalid_token_stays_fatal_with_one_line(api: FakeBotAPI, tmp_path: Path) -> None:
    api.inject("getMe", Fault.http(401, "Unauthorized"))
    log = tmp_path / "bot.log"
    proc = start_bot(api, tmp_path, log)
    try:
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    said = log.read_text(encoding="utf-8").strip()
    assert code == 2
    assert said == "Telegram rejected TELEGRAM_BOT_TOKEN: check it with @BotFather.", said


def _all_four_unreachable(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env = {
        k: v
        for k, v in env.items()
        if not k.startswith(("TELEGRAM_", "SIZING_BOT_", "FEISHU_", "DINGTALK_", "WECOM_", "LOG_"))
    }
    port = closed_port()
    env.update(
        PYTHONPATH=str(ROOT),
        HOME=str(tmp),
        NO_PROXY="*",
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_BASE_URL=f"http://127.0.0.1:{port}/bot",
        TELEGRAM_BASE_FILE_URL=f"http://127.0.0.1:{port}/file/bot",
        FEISHU_APP_ID="cli_fake",
        FEISHU_APP_SECRET=SECRETS[0],
        FEISHU_DOMAIN=f"http://127.0.0.1:{port}",
        DINGTALK_CLIENT_ID="ding_fake",
        DINGTALK_CLIENT_SECRET=SECRETS[1],
        DINGTALK_ENDPOINT=f"http://127.0.0.1:{port}",
        DINGTALK_OAPI_ENDPOINT=f"http://127.0.0.1:{port}",
        WECOM_BOT_ID="wecom_fake",
        WECOM_BOT_SECRET=SECRETS[2],
        WECOM_WS_URL=f"ws://127.0.0.1:{port}",
        SIZING_BOT_DB=str(tmp / "settings.sqlite3"),
        LOG_LEVEL="INFO",
    )
    return env


def test_an_unreachable_telegram_does_not_stop_the_other_platforms(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            cwd=tmp_path,
            env=_all_four_unreachable(tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:

        def tries() -> list[str]:
            return [x for x in log.read_text(encoding="utf-8").splitlines() if "telegram: cannot reach" in x]

        wait(lambda: len(tries()) >= 3, 90, "three Telegram start-up tries")
        time.sleep(1.0)
        assert proc.poll() is None, log.read_text(encoding="utf-8")  # was: rc=1 after ~2 s
        said = log.read_text(encoding="utf-8")
        for name in ("feishu", "dingtalk", "wecom"):  # each still retrying after Telegram failed
            assert said.rfind(f"{name}:") > said.find("telegram: cannot reach"), (name, said)
    finally:
        code = _stop(proc)
    said = log.read_text(encoding="utf-8")
    assert [x.split("retrying in ")[1] for x in tries()[:3]] == [
        "1 s (the other platforms keep serving)",
        "2 s (the other platforms keep serving)",
        "4 s (the other platforms keep serving)",
    ]
    assert "check TELEGRAM_BASE_URL" in tries()[0]
    url = _all_four_unreachable(tmp_path)["WECOM_WS_URL"].rsplit(":", 1)[0]  # ws://127.0.0.1
    ding = [x for x in said.splitlines() if "dingtalk: cannot reach http://127.0.0.1:" in x]
    wecom = [x for x in said.splitlines() if f"wecom: cannot reach {url}:" in x]
    assert ding and wecom, said
    assert ": ConnectError: All connection attempts failed; check DINGTALK_ENDPOINT, the network" in ding[0]
    assert "ConnectionRefusedError" in wecom[0] and "; check WECOM_WS_URL, the network" in wecom[0]
    assert ding[0].endswith(" s") and "; retrying in " in ding[0] and wecom[0].endswith("retrying in 1 s")
    assert "connection error:" not in said  # the bare line is gone
    assert "Traceback" not in said
    assert not [s for s in (*SECRETS, TOKEN.split(":")[1]) if s in said]
    assert code == 0
