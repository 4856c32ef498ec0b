"""The Telegram adapter's settings: the ``telegram`` section of the one settings model, :mod:`bot.config`.

``BotSettings`` is :class:`bot.config.AppSettings` (the platform-neutral settings and every section);
the adapter reads its section through ``settings.token()``, ``settings.webhook_url`` … and accepts
the keyword shorthands ``telegram_bot_token=``, ``telegram_base_url=``, ``webhook_port=`` …

The two URLs follow python-telegram-bot's ``base_url`` convention: the token is appended to
the string (``https://api.telegram.org/bot`` + token), unless the string contains ``{token}``,
which is replaced instead. Point them at a local Bot API server, Telegram's test environment
(``https://api.telegram.org/bot{token}/test``) or, in tests, a fake server on loopback.
"""

from __future__ import annotations

from bot.config import (
    MAX_ENV_FILE_BYTES,
    MAX_RATE_EVENTS,
    MAX_RATE_WINDOW_S,
    AppSettings,
    RateSetting,
    SettingsProblem,
    TelegramSettings,
    load_settings,
)

BotSettings = AppSettings
"""The settings ``sizing-bot run`` starts the Telegram adapter with (an alias of the one model)."""

__all__ = [
    "MAX_ENV_FILE_BYTES",
    "MAX_RATE_EVENTS",
    "MAX_RATE_WINDOW_S",
    "BotSettings",
    "RateSetting",
    "SettingsProblem",
    "TelegramSettings",
    "load_settings",
]
