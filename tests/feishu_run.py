"""Helpers for driving the real ``sizing-bot run`` process against the fake Feishu (tests/fake_feishu.py)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fake_feishu import FakeFeishu
from platform_run import OFFER, PROXY_VARS, REPO, platform_env, running_process, wait

__all__ = ["OFFER", "PROXY_VARS", "REPO", "bot_env", "buttons", "card_of", "card_words", "cards"]
__all__ += ["running_bot", "wait"]


def bot_env(fake: FakeFeishu, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a Feishu-only bot: no other platform, no proxies, its own settings DB."""
    platform = {
        "FEISHU_APP_ID": fake.app_id,
        "FEISHU_APP_SECRET": fake.app_secret,
        "FEISHU_DOMAIN": fake.domain,
    }
    return platform_env(tmp, platform, extra)


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
    with ``connected`` it is yielded once its own long connection is open (not an earlier bot's)."""
    env = bot_env(fake, tmp, extra_env)
    before = fake.connections  # a bot started after another one on this fake: wait for its own
    ready = (lambda: fake.connections > before) if connected else None
    with running_process(env, tmp, ready, "connection", offer=offer) as proc:
        yield proc


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
