"""Bot settings from the environment (or a ``.env`` file). Import is light: no Telegram here.

Environment variables::

    TELEGRAM_BOT_TOKEN      the token from @BotFather (secret; never logged)
    TELEGRAM_BASE_URL       Bot API endpoint prefix, default https://api.telegram.org/bot
    TELEGRAM_BASE_FILE_URL  file download prefix, default https://api.telegram.org/file/bot
    LOG_LEVEL               DEBUG / INFO / WARNING / ERROR, default INFO
    SIZING_BOT_DB           SQLite file for chat settings, default ~/.local/state/sizing-bot/settings.sqlite3
    SIZING_BOT_PRESALES     pre-sales config file (provider, offers, prices, contact); optional
    SIZING_BOT_JOURNAL      SQLite file of updates received and not yet handled (kept across a kill -9,
                            bot.telegram.journal), default <db>-updates.sqlite3 beside SIZING_BOT_DB;
                            off = none
    SIZING_BOT_HEARTBEAT    file the running bot rewrites every 15 s (SIZING_BOT_HEARTBEAT_INTERVAL)
                            while it serves; `sizing-bot health --heartbeat` checks it; unset = none
    TELEGRAM_WEBHOOK_URL    public HTTPS URL Telegram posts updates to; unset = long polling
    TELEGRAM_WEBHOOK_SECRET secret Telegram sends in X-Telegram-Bot-Api-Secret-Token
                            (required with a webhook URL; 1-256 of A-Z a-z 0-9 _ -)
    TELEGRAM_WEBHOOK_LISTEN address the webhook server binds, default 0.0.0.0
    TELEGRAM_WEBHOOK_PORT   port the webhook server binds, default 8443
    TELEGRAM_WEBHOOK_PATH   local URL path served, default: the path of TELEGRAM_WEBHOOK_URL
    SIZING_BOT_USER_RATE    answers per user, e.g. 30/60s (the default): at most 30 in any minute
                            (questions, config files, answer buttons; navigation is free); off = none
    SIZING_BOT_CHAT_RATE    answers per group, default 20/60s (Telegram's group limit); off = no limit
    SIZING_BOT_INLINE_RATE  inline-mode answers per user, default 30/30s (clients query as you type)

``sizing-bot run`` reads them with :func:`load_settings`: ``.env`` is read only up to
:data:`MAX_ENV_FILE_BYTES` and must be UTF-8 text; a rate allows at most :data:`MAX_RATE_EVENTS` events
in at most a day; a bad value stops the start with one line naming the variable.

The two URLs follow python-telegram-bot's ``base_url`` convention: the token is appended to
the string (``https://api.telegram.org/bot`` + token), unless the string contains ``{token}``,
which is replaced instead. Point them at a local Bot API server, Telegram's test environment
(``https://api.telegram.org/bot{token}/test``) or, in tests, a fake server on loopback.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, InstanceOf, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.chat.ratelimit import Rate
from bot.telegram.heartbeat import HEARTBEAT_INTERVAL_S

RateSetting = Annotated[InstanceOf[Rate] | None, NoDecode]
"""A rate from the environment as text ("6/30s", "20/1m", "off"), parsed by ``Rate.parse``."""


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
    db_path: Path | None = Field(
        None,
        validation_alias=AliasChoices("SIZING_BOT_DB", "db_path"),
        description="SQLite file holding per-chat settings (survives restarts); "
        "None = bot.settings.store's default (~/.local/state/sizing-bot/settings.sqlite3)",
    )
    presales_path: Path | None = Field(
        None,
        validation_alias=AliasChoices("SIZING_BOT_PRESALES", "presales_path"),
        description="pre-sales config file; None = no provider, catalog prices",
    )
    journal: str | None = Field(
        None,
        validation_alias=AliasChoices("SIZING_BOT_JOURNAL", "journal"),
        description="update journal file; None = <db>-updates.sqlite3 beside the settings database; "
        "'off' = none",
    )
    heartbeat_path: Path | None = Field(
        None,
        validation_alias=AliasChoices("SIZING_BOT_HEARTBEAT", "heartbeat_path"),
        description="file the running bot rewrites every heartbeat_interval_s seconds "
        "(bot.telegram.heartbeat; sizing-bot health --heartbeat reads it); None = no heartbeat",
    )
    heartbeat_interval_s: float = Field(
        HEARTBEAT_INTERVAL_S,
        gt=0,
        validation_alias=AliasChoices("SIZING_BOT_HEARTBEAT_INTERVAL", "heartbeat_interval_s"),
        description="seconds between heartbeats",
    )
    webhook_url: str | None = Field(
        None,
        validation_alias=AliasChoices("TELEGRAM_WEBHOOK_URL", "webhook_url"),
        description="public URL for Telegram's webhook; None = long polling",
    )
    webhook_secret: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("TELEGRAM_WEBHOOK_SECRET", "webhook_secret"),
        description="X-Telegram-Bot-Api-Secret-Token; required when webhook_url is set",
    )
    webhook_listen: str = Field(
        "0.0.0.0", validation_alias=AliasChoices("TELEGRAM_WEBHOOK_LISTEN", "webhook_listen")
    )
    webhook_port: int = Field(
        8443, ge=0, le=65535, validation_alias=AliasChoices("TELEGRAM_WEBHOOK_PORT", "webhook_port")
    )
    webhook_path: str | None = Field(
        None,
        validation_alias=AliasChoices("TELEGRAM_WEBHOOK_PATH", "webhook_path"),
        description="local path the webhook server serves; None = the path of webhook_url",
    )
    user_rate: RateSetting = Field(
        Rate(30, 60),  # a tap every 2 s for a minute: exploring an answer's buttons at a normal pace
        validation_alias=AliasChoices("SIZING_BOT_USER_RATE", "user_rate"),
        description="answers per user (any chat) in a sliding window; None = unlimited",
    )
    chat_rate: RateSetting = Field(
        Rate(20, 60),  # Telegram lets a bot post about 20 messages a minute in one group
        validation_alias=AliasChoices("SIZING_BOT_CHAT_RATE", "chat_rate"),
        description="answers per group chat in a sliding window; None = unlimited",
    )
    inline_rate: RateSetting = Field(
        Rate(30, 30),
        validation_alias=AliasChoices("SIZING_BOT_INLINE_RATE", "inline_rate"),
        description="inline-mode answers per user in a sliding window; None = unlimited",
    )

    @field_validator("user_rate", "chat_rate", "inline_rate", mode="before")
    @classmethod
    def _parse_rate(cls, value: object) -> object:
        rate = Rate.parse(value) if isinstance(value, str) else value
        if isinstance(rate, Rate) and (rate.events > MAX_RATE_EVENTS or rate.window_s > MAX_RATE_WINDOW_S):
            raise ValueError(
                f"rate {value!r}: at most {MAX_RATE_EVENTS:,} events in at most "
                f"{MAX_RATE_WINDOW_S / 3600:g} hours (or off)"
            )
        return rate

    @field_validator("telegram_bot_token", "webhook_secret", mode="before")
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

    @field_validator(
        "db_path", "presales_path", "journal", "heartbeat_path", "webhook_url", "webhook_path", mode="before"
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    def token(self) -> str | None:
        """The token in clear, or None when not configured. Keep it out of logs and messages."""
        return self.telegram_bot_token.get_secret_value() if self.telegram_bot_token else None

    def webhook_secret_value(self) -> str | None:
        """The webhook secret in clear, or None. Keep it out of logs and messages."""
        return self.webhook_secret.get_secret_value() if self.webhook_secret else None

    def webhook_problem(self) -> str | None:
        """One line saying why the webhook settings cannot start, or None when usable (or unused)."""
        if not self.webhook_url:
            return None
        secret = self.webhook_secret_value()
        if not secret:
            return (
                "TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL: set 1-256 characters "
                "of A-Z a-z 0-9 _ - (Telegram sends it back in X-Telegram-Bot-Api-Secret-Token)."
            )
        if not _WEBHOOK_SECRET.fullmatch(secret):
            return "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z a-z 0-9 _ - (Telegram's rule)."
        if urlsplit(self.webhook_url).scheme not in ("https", "http"):
            return "TELEGRAM_WEBHOOK_URL must be an https:// URL that Telegram can reach."
        return None

    def webhook_local_path(self) -> str:
        """The path the local webhook server serves (no leading slash)."""
        if self.webhook_path is not None:
            return self.webhook_path.strip("/")
        return urlsplit(self.webhook_url or "").path.strip("/")


MAX_RATE_EVENTS = 100_000
"""A rate's largest event count (each counted event is remembered: the bound keeps memory bounded)."""
MAX_RATE_WINDOW_S = 86_400.0
"""A rate's longest window: one day."""
MAX_ENV_FILE_BYTES = 100_000
"""``.env`` is read up to this size (a real one is a few hundred bytes)."""


class SettingsProblem(ValueError):
    """The environment or ``.env`` cannot give usable settings; the message is one line naming it."""


def _variable(settings_field: str) -> str:
    """The environment variable of a settings field (its first alias), for messages."""
    info = BotSettings.model_fields.get(settings_field)
    alias = info.validation_alias if info is not None else None
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return settings_field.upper()


def load_settings(env_file: str | Path = ".env") -> BotSettings:
    """The bot's settings from the environment and ``env_file``. Raises :class:`SettingsProblem`, one
    line naming the file or the variable: ``.env`` over :data:`MAX_ENV_FILE_BYTES` or not UTF-8 text,
    or a variable with a bad value (``LOG_LEVEL=LOUD``, ``TELEGRAM_WEBHOOK_PORT=99999``)."""
    from pydantic import ValidationError

    from bot.readfile import decode_utf8, read_bounded

    path = Path(env_file)
    if path.exists():
        try:
            decode_utf8(path, read_bounded(path, MAX_ENV_FILE_BYTES))
        except OSError as e:
            raise SettingsProblem(f"{path}: cannot read: {e.strerror or e}") from None
        except ValueError as e:
            raise SettingsProblem(str(e)) from None
    try:
        return BotSettings(_env_file=path)
    except ValidationError as e:
        problems = []
        for err in e.errors():
            where = ".".join(str(p) for p in err.get("loc", ()))
            msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
            value = err.get("input")
            secret = any(w in where.lower() for w in ("token", "secret"))
            shown = repr(value)[:40] if isinstance(value, str | int | float) and not secret else ""
            problems.append(f"{_variable(where)}={shown}: {msg}" if shown else f"{_variable(where)}: {msg}")
        raise SettingsProblem("; ".join(problems)) from None


_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
