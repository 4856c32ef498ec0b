"""Helpers for driving the real ``sizing-bot run`` process against the fake WeCom (tests/fake_wecom.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fake_wecom import FakeWecom, Received
from platform_run import OFFER, platform_env, running_process, wait

__all__ = ["OFFER", "bot_env", "running_bot", "stream_of", "wait"]

PING_S = "0.3"
"""The bot's ping interval in these tests (30 s in production): two unanswered pings = dead."""


def bot_env(fake: FakeWecom, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a WeCom-only bot: no other platform, no proxies, its own settings DB."""
    platform = {
        "WECOM_BOT_ID": fake.bot_id,
        "WECOM_BOT_SECRET": fake.secret,
        "WECOM_WS_URL": fake.url,
        "WECOM_PING_INTERVAL": PING_S,
    }
    return platform_env(tmp, platform, extra)


@contextmanager
def running_bot(
    fake: FakeWecom, tmp: Path, *, offer: bool = False, extra_env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` with only WeCom configured, yielded once it has subscribed."""
    env = bot_env(fake, tmp, extra_env)
    before = fake.subscribes  # a bot started after another one on this fake: wait for its own
    with running_process(env, tmp, lambda: fake.subscribes > before, "subscribe", offer=offer) as proc:
        yield proc


def stream_of(reply: Received) -> str:
    """The markdown of a stream reply."""
    return reply.body["stream"]["content"]
