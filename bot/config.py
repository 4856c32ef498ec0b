"""Bot settings from the environment (or a ``.env`` file). Import is light: no Telegram here.

Environment variables::

    TELEGRAM_BOT_TOKEN      the token from @BotFather (secret; never logged)
    TELEGRAM_BASE_URL       Bot API endpoint prefix, default https://api.telegram.org/bot
    TELEGRAM_BASE_FILE_URL  file download prefix, default https://api.telegram.org/file/bot
    LOG_LEVEL               DEBUG / INFO / WARNING / ERROR, default INFO

The two URLs follow python-telegram-bot's ``base_url`` convention: the token is appended to
the string (``https://api.telegram.org/bot`` + token), unless the string contains ``{token}``,
which is replaced instead. Point them at a local Bot API server, Telegram's test environment
(``https://api.telegram.org/bot{token}/test``) or, in tests, a fake server on loopback.
"""

from __future__ import annotations

import logging

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class BotSettings(BaseSettings):
    """Everything the Telegram adapter needs to start."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = Field(
        None, description="bot token from @BotFather; None or empty means not configured"
    )
    telegram_base_url: str = Field(
        "https://api.telegram.org/bot",
        description="python-telegram-bot base_url: the token is appended (or replaces '{token}')",
    )
    telegram_base_file_url: str = Field(
        "https://api.telegram.org/file/bot",
        description="python-telegram-bot base_file_url: same convention as telegram_base_url",
    )
    log_level: str = Field("INFO", description="root log level name")

    @field_validator("telegram_bot_token", mode="before")
    @classmethod
    def _empty_token_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, SecretStr) and not value.get_secret_value().strip():
            return None
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {value!r}: use DEBUG, INFO, WARNING or ERROR")
        return level

    def token(self) -> str | None:
        """The token in clear, or None when not configured. Keep it out of logs and messages."""
        return self.telegram_bot_token.get_secret_value() if self.telegram_bot_token else None
