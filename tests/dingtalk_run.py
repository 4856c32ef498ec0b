"""Driving the real ``sizing-bot run`` process against the fake DingTalk (tests/fake_dingtalk.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fake_dingtalk import FakeDingTalk, Sent
from feishu_run import OFFER, PROXY_VARS, wait

WEB = "https://sizing.example.com/s"
"""The web page's public URL the link buttons open (SIZING_BOT_WEB_PUBLIC_URL)."""


def bot_env(fake: FakeDingTalk, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a DingTalk-only bot: no other platform, no proxies, its own settings DB."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PROXY_VARS and not k.startswith(("TELEGRAM_", "FEISHU_", "DINGTALK_"))
    }
    env.update(
        DINGTALK_CLIENT_ID=fake.client_id,
        DINGTALK_CLIENT_SECRET=fake.client_secret,
        DINGTALK_ENDPOINT=fake.endpoint,
        DINGTALK_OAPI_ENDPOINT=fake.endpoint,
        SIZING_BOT_WEB_PUBLIC_URL=WEB,
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
    fake: FakeDingTalk, tmp: Path, *, offer: bool = False, extra_env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` with only DingTalk configured, in ``tmp`` (no .env), stopped with SIGTERM."""
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
        wait(lambda: fake.connections >= 1 or proc.poll() is not None, 30, "connection")
        assert proc.poll() is None, (tmp / "bot.log").read_text()
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def answers(fake: FakeDingTalk) -> list[Sent]:
    """The answers (action cards and Markdown, by webhook or OpenAPI), in order."""
    kinds = ("actionCard", "markdown", "sampleMarkdown")
    with fake.lock:
        return [s for s in fake.sent if s.kind in kinds]


def text_of(sent: Sent) -> str:
    """The Markdown text of an answer, whichever way it went."""
    if sent.via == "openapi":
        return str(sent.body["text"])
    return str(sent.body[sent.kind]["text"])


def of_kind(fake: FakeDingTalk, kind: str) -> list[Sent]:
    with fake.lock:
        return [s for s in fake.sent if s.kind == kind]
