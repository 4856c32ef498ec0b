"""Driving the real ``sizing-bot run`` process against the fake DingTalk (tests/fake_dingtalk.py)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fake_dingtalk import FakeDingTalk, Sent
from platform_run import OFFER, platform_env, running_process, wait

__all__ = ["OFFER", "answers", "bot_env", "of_kind", "running_bot", "text_of", "wait"]

WEB = "https://sizing.example.com/s"
"""The web page's public URL the link buttons open (SIZING_BOT_WEB_PUBLIC_URL)."""


def bot_env(fake: FakeDingTalk, tmp: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a DingTalk-only bot: no other platform, no proxies, its own settings DB."""
    platform = {
        "DINGTALK_CLIENT_ID": fake.client_id,
        "DINGTALK_CLIENT_SECRET": fake.client_secret,
        "DINGTALK_ENDPOINT": fake.endpoint,
        "DINGTALK_OAPI_ENDPOINT": fake.endpoint,
        "SIZING_BOT_WEB_PUBLIC_URL": WEB,
    }
    return platform_env(tmp, platform, extra)


@contextmanager
def running_bot(
    fake: FakeDingTalk, tmp: Path, *, offer: bool = False, extra_env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[str]]:
    """``python -m bot run`` with only DingTalk configured, yielded once its stream connection is open."""
    env = bot_env(fake, tmp, extra_env)
    before = fake.connections  # a bot started after another one on this fake: wait for its own
    with running_process(env, tmp, lambda: fake.connections > before, "connection", offer=offer) as proc:
        yield proc


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
