"""The one settings model (:mod:`bot.config.model`, pydantic-settings) and the cheap way to ask it.

Importing ``bot.config`` is light: the model (pydantic-settings, which pulls in asyncio and dotenv,
≈ 15 ms of a 70 ms start) loads on first use of one of its names (``bot.config.AppSettings`` …).
Library defaults read the environment at call time through :func:`current_if_set`, which skips the
model when no variable of ours is set (the usual ``sizing-bot ask``): every variable the model
declares starts with one of :data:`NAMESPACES` (``tests/test_config.py`` checks it).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.config.model import (
        MAX_ENV_FILE_BYTES,
        MAX_RATE_EVENTS,
        MAX_RATE_WINDOW_S,
        PREFIX,
        SECTIONS,
        AppSettings,
        DingTalkSettings,
        FeishuSettings,
        RateSetting,
        TelegramSettings,
        WebSettings,
        load_settings,
        readme_table,
        variables,
    )

__all__ = [
    "MAX_ENV_FILE_BYTES",
    "MAX_RATE_EVENTS",
    "MAX_RATE_WINDOW_S",
    "NAMESPACES",
    "PREFIX",
    "SECTIONS",
    "AppSettings",
    "DingTalkSettings",
    "FeishuSettings",
    "RateSetting",
    "SettingsProblem",
    "TelegramSettings",
    "WebSettings",
    "current",
    "current_if_set",
    "load_settings",
    "proxy_environment",
    "readme_table",
    "variables",
]

NAMESPACES = ("SIZING_BOT_", "TELEGRAM_", "FEISHU_", "LOG_LEVEL", "DINGTALK_", "WECOM_")
"""Every environment name the model reads starts with one of these (upper case)."""

_MODEL_NAMES = frozenset(
    {
        "MAX_ENV_FILE_BYTES",
        "MAX_RATE_EVENTS",
        "MAX_RATE_WINDOW_S",
        "PREFIX",
        "SECTIONS",
        "AppSettings",
        "DingTalkSettings",
        "FeishuSettings",
        "RateSetting",
        "TelegramSettings",
        "WebSettings",
        "load_settings",
        "readme_table",
        "variables",
    }
)


class SettingsProblem(ValueError):
    """The environment or ``.env`` cannot give usable settings; the message is one line naming it.

    ``problems`` holds (variable, value as shown or "", message) per bad variable."""

    def __init__(self, message: str, problems: list[tuple[str, str, str]] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


def __getattr__(name: str) -> Any:
    if name in _MODEL_NAMES:
        from bot.config import model

        return getattr(model, name)
    raise AttributeError(f"module 'bot.config' has no attribute {name!r}")


def current() -> AppSettings:
    """The settings from the environment as it is now (no ``.env``). Raises ``SettingsProblem``."""
    from bot.config.model import load_settings

    return load_settings(None)


def current_if_set() -> AppSettings | None:
    """:func:`current`, or None when no variable of ours is set (then every setting has its default)."""
    if not any(name.upper().startswith(NAMESPACES) for name in os.environ):
        return None
    return current()


def proxy_environment(names: tuple[str, ...]) -> dict[str, str]:
    """The proxy variables among ``names`` that are set (HTTP_PROXY …: read by httpx, not settings of
    this bot; the log redactor hides their passwords)."""
    return {name: os.environ[name] for name in names if name in os.environ}
