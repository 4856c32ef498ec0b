"""Shared by tests/test_replicas_run.py and bench/failover.py: real ``sizing-bot run`` replicas on one
PostgreSQL, polling the fake Bot API (tests/fake_bot_api.py) on loopback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_HEADLINE = re.compile(r"^(?:<b>)?(\d+)B pre-training")


def start_replica(
    api: Any, home: Path, log: Path, database_url: str, **extra: str
) -> subprocess.Popen[bytes]:
    """``sizing-bot run`` with its own HOME, the shared database, no answer rate limits."""
    home.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "SIZING_BOT_"))}
    env = {k: v for k, v in env.items() if "proxy" not in k.lower()}
    env.update(
        PYTHONPATH=str(ROOT),
        HOME=str(home),
        NO_PROXY="*",
        TELEGRAM_BOT_TOKEN=api.token,
        TELEGRAM_BASE_URL=api.base_url,
        TELEGRAM_BASE_FILE_URL=api.base_file_url,
        SIZING_BOT_DB=str(home / "settings.sqlite3"),
        SIZING_BOT_DATABASE_URL=database_url,
        SIZING_BOT_USER_RATE="off",
        SIZING_BOT_CHAT_RATE="off",
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bot", "run"], cwd=home, env=env, stdout=out, stderr=subprocess.STDOUT
        )


def wait(condition: Any, timeout: float, what: str, step: float = 0.02) -> float:
    """Wait until ``condition()``; returns the seconds it took. AssertionError on timeout."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


def answered(api: Any) -> Counter[tuple[int, int]]:
    """(chat id, model size in B) → answers to ``/size <n>B 1T tokens A100``."""
    found: Counter[tuple[int, int]] = Counter()
    for call in api.calls_to("sendMessage"):
        match = _HEADLINE.match(call.params.get("text") or "")
        if match:
            found[(int(call.params["chat_id"]), int(match[1]))] += 1
    return found


def stop(proc: subprocess.Popen[bytes], timeout: float = 20) -> int:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return int(proc.returncode)
