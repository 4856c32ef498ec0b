"""FIX2 item 2: ``sizing-bot health`` words each platform's line the same way (telegram, feishu, dingtalk,
wecom): without --heartbeat the connection is "not checked"; with --heartbeat a missing or stale beat
reads "long connection not open (or the bot is not running)" -- also while the process runs but a
platform is disconnected. The real ``sizing-bot health`` / ``run`` processes, loopback only."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from test_reliability_kill import wait
from test_telegram_unreachable import _all_four_unreachable

from bot.telegram.heartbeat import NOT_CHECKED, NOT_OPEN

NAMES = ("telegram", "feishu", "dingtalk", "wecom")


def _health(env: dict[str, str], tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health", *args],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_heartbeat_each_platform_says_its_connection_is_not_checked(tmp_path: Path) -> None:
    env = _all_four_unreachable(tmp_path)
    done = _health(env, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        f"telegram: configured ({env['TELEGRAM_BASE_URL']}); connection not checked without --heartbeat",
        f"feishu: configured ({env['FEISHU_DOMAIN']}); connection not checked without --heartbeat",
        f"dingtalk: configured ({env['DINGTALK_ENDPOINT']}); connection not checked without --heartbeat",
        f"wecom: configured ({env['WECOM_WS_URL']}); connection not checked without --heartbeat",
        "healthy",
    ]
    assert NOT_CHECKED == "connection not checked without --heartbeat"


def test_a_running_but_disconnected_process_reads_long_connection_not_open(tmp_path: Path) -> None:
    beat = tmp_path / "beat.json"
    env = {**_all_four_unreachable(tmp_path), "SIZING_BOT_HEARTBEAT": str(beat)}
    log = tmp_path / "bot.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait(lambda: "telegram: cannot reach" in log.read_text(encoding="utf-8"), 90, "a Telegram try")
        assert proc.poll() is None
        done = _health(env, tmp_path, "--heartbeat")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == list(NAMES), done.stdout
    suffix = {"telegram": "", "feishu": ".feishu", "dingtalk": ".dingtalk", "wecom": ".wecom"}
    for name, line in zip(NAMES, lines, strict=True):
        assert line.endswith(f"; {NOT_OPEN}: no heartbeat at {beat}{suffix[name]}"), line
    assert NOT_OPEN == "long connection not open (or the bot is not running)"
    assert "healthy" not in lines and "the bot is not running (or SIZING_BOT" not in done.stdout
