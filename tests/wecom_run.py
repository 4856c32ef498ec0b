"""Helpers for driving the real ``sizing-bot run`` process against the fake WeCom (tests/fake_wecom.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fake_wecom import FakeWecom, Received
from feishu_run import OFFER, PROXY_VARS, wait

__all__ = ["OFFER", "bot_env", "running_bot", "stream_of", "wait"]

PING_S = "0.3"
"""The bot's ping interval in these tests (30 s in production): two unanswered pings = dead."""


def bot_env(fake: FakeWecom, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a WeCom-only bot: no other platform, no proxies, its own settings DB."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PROXY_VARS and not k.startswith(("TELEGRAM_", "FEISHU_", "WECOM_", "DINGTALK_"))
    }
    env.update(
        WECOM_BOT_ID=fake.bot_id,
        WECOM_BOT_SECRET=fake.secret,
        WECOM_WS_URL=fake.url,
        WECOM_PING_INTERVAL=PING_S,
        SIZING_BOT_DB=str(tmp / "settings.sqlite3"),
        LOG_LEVEL="DEBUG",
        NO_PROXY="*",
    )
    for name in ("SIZING_BOT_PRESALES", "SIZING_BOT_HEARTBEAT"):
        env.pop(name, None)
    env.update(extra or {})
    return env


@contextmanager
def running_bot(
    fake: FakeWecom, tmp: Path, *, offer: bool = False, extra_env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` with only WeCom configured, in ``tmp`` (no .env), stopped with SIGTERM."""
    env = bot_env(fake, tmp, extra_env)
    if offer:
        env["SIZING_BOT_PRESALES"] = str(OFFER)
    log = (tmp / "bot.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait(lambda: fake.subscribes >= 1 or proc.poll() is not None, 30, "subscribe")
        assert proc.poll() is None, (tmp / "bot.log").read_text()
        yield proc
    except AssertionError:
        log.flush()
        tail = [line for line in (tmp / "bot.log").read_text().splitlines() if " DEBUG " not in line]
        print("bot log (no DEBUG lines), last 40:", *tail[-40:], sep="\n")
        raise
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def stream_of(reply: Received) -> str:
    """The markdown of a stream reply."""
    return reply.body["stream"]["content"]
