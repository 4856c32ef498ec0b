"""The one settings model (import it as :mod:`bot.config`): every environment variable the bot, the CLI
and ``health`` read.

:class:`AppSettings` (pydantic-settings, prefix ``SIZING_BOT_``) holds the platform-neutral settings
(storage, pre-sales file, heartbeat, flood-gate rates, log level, CJK font) and one nested section per
front end: :class:`TelegramSettings`, :class:`FeishuSettings` and :class:`WebSettings` (WeCom and
DingTalk add theirs the same way: a ``BaseSettings`` section and a field in :data:`SECTIONS`).
A section reads its own variables (``SIZING_BOT_<SECTION>_<FIELD>``, plus the names documented before
this model, e.g. ``TELEGRAM_BOT_TOKEN``), so each front end validates only what it declares.

Every name a field answers to is listed in its ``validation_alias`` (the first is the documented name);
:func:`variables` lists them for the README's table (``tests/test_config.py`` checks the table against
the model both ways). No module outside ``bot/config`` in ``bot/`` or ``estimator/`` reads ``os.environ``.

:func:`load_settings` reads the environment (and a ``.env`` file for ``sizing-bot run``) and turns a bad
value into :class:`SettingsProblem`, one line naming the variable. Library helpers (the settings store's
default path, the pre-sales file, the CJK font, health) call :func:`bot.config.current`.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, InstanceOf, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.chat.ratelimit import Rate
from bot.config import SettingsProblem
from bot.config.dingtalk import DingTalkSettings
from bot.config.feishu import FeishuSettings
from bot.config.sections import PREFIX, _blank_is_none, _names, _section_config
from bot.config.wecom import WecomSettings
from bot.telegram.heartbeat import HEARTBEAT_INTERVAL_S

"""Every variable's canonical name starts with this (legacy names stay accepted, see the aliases)."""
MAX_RATE_EVENTS = 100_000
"""A rate's largest event count (each counted event is remembered: the bound keeps memory bounded)."""
MAX_RATE_WINDOW_S = 86_400.0
"""A rate's longest window: one day."""
MAX_ENV_FILE_BYTES = 100_000
"""``.env`` is read up to this size (a real one is a few hundred bytes)."""

RateSetting = Annotated[InstanceOf[Rate] | None, NoDecode]
"""A rate from the environment as text ("6/30s", "20/1m", "off"), parsed by ``Rate.parse``."""


class TelegramSettings(BaseSettings):
    """The Telegram adapter's section (``SIZING_BOT_TELEGRAM_*``, or the ``TELEGRAM_*`` names)."""

    model_config = _section_config("telegram")

    bot_token: SecretStr | None = Field(
        None,
        validation_alias=_names("TELEGRAM_BOT_TOKEN", "SIZING_BOT_TELEGRAM_BOT_TOKEN"),
        description="the token from @BotFather (secret; never logged); unset = not configured",
    )
    base_url: str = Field(
        "https://api.telegram.org/bot",
        validation_alias=_names("TELEGRAM_BASE_URL", "SIZING_BOT_TELEGRAM_BASE_URL"),
        description="Bot API endpoint prefix: the token is appended (or replaces `{token}`)",
    )
    base_file_url: str = Field(
        "https://api.telegram.org/file/bot",
        validation_alias=_names("TELEGRAM_BASE_FILE_URL", "SIZING_BOT_TELEGRAM_BASE_FILE_URL"),
        description="file download prefix, same convention as TELEGRAM_BASE_URL",
    )
    webhook_url: str | None = Field(
        None,
        validation_alias=_names("TELEGRAM_WEBHOOK_URL", "SIZING_BOT_TELEGRAM_WEBHOOK_URL"),
        description="public HTTPS URL Telegram posts updates to; unset = long polling",
    )
    webhook_secret: SecretStr | None = Field(
        None,
        validation_alias=_names("TELEGRAM_WEBHOOK_SECRET", "SIZING_BOT_TELEGRAM_WEBHOOK_SECRET"),
        description="X-Telegram-Bot-Api-Secret-Token, 1-256 of A-Z a-z 0-9 _ - (required with a webhook)",
    )
    webhook_listen: str = Field(
        "0.0.0.0",
        validation_alias=_names("TELEGRAM_WEBHOOK_LISTEN", "SIZING_BOT_TELEGRAM_WEBHOOK_LISTEN"),
        description="address the webhook server binds",
    )
    webhook_port: int = Field(
        8443,
        ge=0,
        le=65535,
        validation_alias=_names("TELEGRAM_WEBHOOK_PORT", "SIZING_BOT_TELEGRAM_WEBHOOK_PORT"),
        description="port the webhook server binds",
    )
    webhook_path: str | None = Field(
        None,
        validation_alias=_names("TELEGRAM_WEBHOOK_PATH", "SIZING_BOT_TELEGRAM_WEBHOOK_PATH"),
        description="local URL path served; unset = the path of TELEGRAM_WEBHOOK_URL",
    )

    @field_validator("bot_token", "webhook_secret", "webhook_url", "webhook_path", mode="before")
    @classmethod
    def _blank(cls, value: object) -> object:
        return _blank_is_none(value)


class WebSettings(BaseSettings):
    """``sizing-bot serve``'s section (``SIZING_BOT_WEB_*``): where it listens, the path prefix a reverse
    proxy serves it under, and the per-client rate limit."""

    model_config = _section_config("web")

    host: str = Field("127.0.0.1", description="address `sizing-bot serve` listens on (`--host` wins)")
    port: int = Field(8000, ge=1, le=65535, description="its port (`--port` wins)")
    root_path: str = Field("", description="path prefix behind a reverse proxy, e.g. /sizing")
    rate: float = Field(60.0, ge=0, le=100_000, description="requests a minute per client (0 = no limit)")
    public_url: str = Field(
        "",
        description="the page's public URL (https://…/sizing): DingTalk's link buttons open it; unset = none",
    )

    @field_validator("root_path", mode="after")
    @classmethod
    def _prefix(cls, value: str) -> str:
        return value.strip().rstrip("/")


SECTIONS: dict[str, type[BaseSettings]] = {
    "telegram": TelegramSettings,
    "feishu": FeishuSettings,
    "web": WebSettings,
    "dingtalk": DingTalkSettings,
    "wecom": WecomSettings,
}
"""The per-platform sections of :class:`AppSettings`, by field name."""

_TELEGRAM_SHORTHANDS = {
    "telegram_bot_token": "bot_token",
    "telegram_base_url": "base_url",
    "telegram_base_file_url": "base_file_url",
    "webhook_url": "webhook_url",
    "webhook_secret": "webhook_secret",
    "webhook_listen": "webhook_listen",
    "webhook_port": "webhook_port",
    "webhook_path": "webhook_path",
}
"""Keyword arguments of :class:`AppSettings` that set a field of its ``telegram`` section (the names
the Telegram adapter's settings had before the sections; tests and benches build settings with them)."""


class AppSettings(BaseSettings):
    """Everything the bot, the CLI and ``health`` read from the environment (see the module docstring).

    The Telegram adapter reads its section through the properties below (``settings.webhook_url`` …)
    and :meth:`token`; ``AppSettings(telegram_bot_token=…, webhook_port=…)`` sets that section."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    log_level: str = Field(
        "INFO",
        validation_alias=_names("LOG_LEVEL", "SIZING_BOT_LOG_LEVEL"),
        description="DEBUG, INFO, WARNING or ERROR",
    )
    db_path: Path | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_DB"),
        description="SQLite file of per-chat settings; unset = ~/.local/state/sizing-bot/settings.sqlite3",
    )
    database_url: SecretStr | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_DATABASE_URL"),
        description="postgresql://user:password@host/db: settings, follow-ups, journal and leader locks "
        "shared by replicas (secret); unset = the SQLite file",
    )
    presales_path: Path | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_PRESALES"),
        description="pre-sales config file (provider, offers, prices, contact); unset = catalog prices",
    )
    journal: str | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_JOURNAL"),
        description="SQLite file of updates received, not yet handled; "
        "unset = `<db>-updates.sqlite3`; off = none",
    )
    heartbeat_path: Path | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_HEARTBEAT"),
        description="file the running bot rewrites while it serves "
        "(`sizing-bot health --heartbeat`); unset = none",
    )
    heartbeat_interval_s: float = Field(
        HEARTBEAT_INTERVAL_S,
        gt=0,
        validation_alias=_names("SIZING_BOT_HEARTBEAT_INTERVAL"),
        description="seconds between heartbeats",
    )
    cjk_font: str | None = Field(
        None,
        validation_alias=_names("SIZING_BOT_CJK_FONT"),
        description="a .ttf/.ttc/.otf with Chinese glyphs for PDF quotes; "
        "unset = an installed or the packaged one",
    )
    user_rate: RateSetting = Field(
        Rate(30, 60),  # a tap every 2 s for a minute: exploring an answer's buttons at a normal pace
        validation_alias=_names("SIZING_BOT_USER_RATE"),
        description="answers per user in a sliding window, e.g. 30/60s; off = none",
    )
    chat_rate: RateSetting = Field(
        Rate(20, 60),  # Telegram lets a bot post about 20 messages a minute in one group
        validation_alias=_names("SIZING_BOT_CHAT_RATE"),
        description="answers per group chat in a sliding window; off = none",
    )
    inline_rate: RateSetting = Field(
        Rate(30, 30),
        validation_alias=_names("SIZING_BOT_INLINE_RATE"),
        description="inline-mode answers per user in a sliding window; off = none",
    )
    telegram: InstanceOf[TelegramSettings]
    feishu: InstanceOf[FeishuSettings]
    web: InstanceOf[WebSettings]
    dingtalk: InstanceOf[DingTalkSettings]
    wecom: InstanceOf[WecomSettings]

    def __init__(self, _env_file: Any = ".env", **values: Any) -> None:
        from pydantic import ValidationError

        shorthands = {k: values.pop(k) for k in list(values) if k in _TELEGRAM_SHORTHANDS}
        telegram = {_alias(TelegramSettings, _TELEGRAM_SHORTHANDS[k]): v for k, v in shorthands.items()}
        values = {_alias(AppSettings, k): v for k, v in values.items()}
        problems: list[tuple[str, str, str]] = []
        for name, section in SECTIONS.items():
            if name not in values:
                try:
                    values[name] = section(_env_file=_env_file, **(telegram if name == "telegram" else {}))
                except ValidationError as e:
                    problems += _problems(e)
                    values[name] = section.model_construct()
        try:
            super().__init__(_env_file=_env_file, **values)
        except ValidationError as e:
            problems += _problems(e)
        if problems:
            line = "; ".join(f"{v}={s}: {m}" if s else f"{v}: {m}" for v, s, m in problems)
            raise SettingsProblem(line, problems)

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

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if not isinstance(logging.getLevelName(level), int):
            raise ValueError(f"unknown log level {value!r}: use DEBUG, INFO, WARNING or ERROR")
        return level

    @field_validator(
        "db_path", "presales_path", "journal", "heartbeat_path", "cjk_font", "database_url", mode="before"
    )
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return value.strip() or None if isinstance(value, str) else value

    # The Telegram adapter's view of its section (the names it used before the sections).
    @property
    def telegram_base_url(self) -> str:
        return self.telegram.base_url

    @property
    def telegram_base_file_url(self) -> str:
        return self.telegram.base_file_url

    @property
    def webhook_url(self) -> str | None:
        return self.telegram.webhook_url

    @property
    def webhook_listen(self) -> str:
        return self.telegram.webhook_listen

    @property
    def webhook_port(self) -> int:
        return self.telegram.webhook_port

    def token(self) -> str | None:
        """The Telegram token in clear, or None when not configured. Keep it out of logs and messages."""
        token = self.telegram.bot_token
        return token.get_secret_value() if token else None

    def database_url_value(self) -> str | None:
        """The PostgreSQL URL in clear (it may hold a password), or None: the SQLite file."""
        return self.database_url.get_secret_value() if self.database_url else None

    def webhook_secret_value(self) -> str | None:
        """The webhook secret in clear, or None. Keep it out of logs and messages."""
        secret = self.telegram.webhook_secret
        return secret.get_secret_value() if secret else None

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
        if self.telegram.webhook_path is not None:
            return self.telegram.webhook_path.strip("/")
        return urlsplit(self.webhook_url or "").path.strip("/")


_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")


def _models() -> Iterator[tuple[str, type[BaseSettings]]]:
    yield "", AppSettings
    yield from SECTIONS.items()


def _env_names(model: type[BaseSettings], field: str) -> list[str]:
    """The environment names ``field`` of ``model`` is read from, the documented one first."""
    alias = model.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices):
        return [str(a) for a in alias.choices]
    return [(model.model_config.get("env_prefix", "") + field).upper()]


def variables() -> Iterator[tuple[str, list[str], str, str]]:
    """(documented name, other names, default as text, description) of every variable, root first."""
    for _, model in _models():
        for field, info in model.model_fields.items():
            if field in SECTIONS:
                continue
            name, *others = _env_names(model, field)
            default = "" if info.default is None else str(info.default)
            yield name, others, default, info.description or ""


def _alias(model: type[BaseSettings], field: str) -> str:
    """The documented variable of ``field`` (a keyword given by field name is passed by it)."""
    info = model.model_fields.get(field)
    alias = info.validation_alias if info is not None else None
    if isinstance(alias, AliasChoices) and isinstance(alias.choices[0], str):
        return alias.choices[0]
    return field


def _set_name(model: type[BaseSettings], where: str) -> str:
    """The variable a problem is about: of the names its field is read from, the one set in the
    environment (else the documented one: the value came from ``.env`` or a keyword)."""
    field = next(
        (f for f in model.model_fields if where.upper() in map(str.upper, _env_names(model, f))), where
    )
    names = _env_names(model, field) if field in model.model_fields else [where.upper()]
    present = {k.upper() for k in os.environ}
    return next((n for n in names if n.upper() in present), names[0])


def _problems(error: Any) -> list[tuple[str, str, str]]:
    """(variable, value as shown or "", message) per error of a pydantic ``ValidationError``; secrets
    are never shown."""
    model = next((m for _, m in _models() if m.__name__ == error.title), AppSettings)
    problems = []
    for err in error.errors():
        where = ".".join(str(p) for p in err.get("loc", ()))
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        value = err.get("input")
        secret = any(w in where.lower() for w in ("token", "secret"))
        shown = repr(value)[:40] if isinstance(value, str | int | float) and not secret else ""
        variable = _set_name(model, where)
        problems.append((variable, shown, msg))
    return problems


def load_settings(env_file: str | Path | None = ".env") -> AppSettings:
    """The settings from the environment and ``env_file`` (None: the environment only). Raises
    :class:`SettingsProblem`, one line naming the file or the variable: ``.env`` over
    :data:`MAX_ENV_FILE_BYTES` or not UTF-8 text, or a variable with a bad value (``LOG_LEVEL=LOUD``,
    ``TELEGRAM_WEBHOOK_PORT=99999``)."""
    from bot.readfile import decode_utf8, read_bounded

    path = Path(env_file) if env_file is not None else None
    if path is not None and path.exists():
        try:
            decode_utf8(path, read_bounded(path, MAX_ENV_FILE_BYTES))
        except OSError as e:
            raise SettingsProblem(f"{path}: cannot read: {e.strerror or e}") from None
        except ValueError as e:
            raise SettingsProblem(str(e)) from None
    return AppSettings(_env_file=path)


def readme_table() -> str:
    """The README's environment table (Markdown), generated from the model: every documented variable,
    its other accepted names, its default and what it does. ``scripts/env_table.py`` writes it."""
    rows = ["| Variable | Also read as | Default | What it sets |", "|---|---|---|---|"]
    for name, others, default, description in variables():
        also = ", ".join(f"`{o}`" for o in others)
        shown = f"`{default}`" if default else ""
        rows.append(f"| `{name}` | {also} | {shown} | {description.replace('|', chr(92) + '|')} |")
    return "\n".join(rows) + "\n"
