"""Helpers for driving the real ``sizing-bot run`` process against the fake Feishu (tests/fake_feishu.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fake_feishu import FakeFeishu

REPO = Path(__file__).resolve().parent.parent
OFFER = REPO / "presales.example.toml"
PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def wait(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll ``predicate`` until it is truthy; fails the test after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not met within {timeout} s")
        time.sleep(0.02)


def bot_env(fake: FakeFeishu, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a Feishu-only bot: no Telegram token, no proxies, its own settings DB."""
    env = {k: v for k, v in os.environ.items() if k not in PROXY_VARS and not k.startswith("TELEGRAM_")}
    env.update(
        FEISHU_APP_ID=fake.app_id,
        FEISHU_APP_SECRET=fake.app_secret,
        FEISHU_DOMAIN=fake.domain,
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
    fake: FakeFeishu,
    tmp: Path,
    *,
    offer: bool = False,
    extra_env: dict[str, str] | None = None,
    connected: bool = True,
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` with only Feishu configured, in ``tmp`` (no .env), stopped with SIGTERM;
    with ``connected`` it is yielded once its long connection is open."""
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
        if connected:
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


def cards(fake: FakeFeishu) -> list[dict[str, Any]]:
    """The interactive messages the bot sent, in order."""
    return [m for m in fake.http.sent() if m["msg_type"] == "interactive"]


def card_of(message: dict[str, Any]) -> dict[str, Any]:
    return json.loads(message["body"]["content"])


def card_words(card: dict[str, Any]) -> str:
    """Every text of a card, joined (title, markdown, panel, button labels)."""
    return json.dumps(card, ensure_ascii=False)


def buttons(card: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(label, callback value) of every button of a card."""
    found = []
    for element in card["body"]["elements"]:
        for column in element.get("columns", []):
            for button in column["elements"]:
                found.append((button["text"]["content"], button["behaviors"][0]["value"]))
    return found
