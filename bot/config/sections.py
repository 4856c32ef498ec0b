"""Helpers every section of the settings model shares (:mod:`bot.config.model` and the sections kept in
modules of their own, e.g. :mod:`bot.config.dingtalk`)."""

from __future__ import annotations

from pydantic import AliasChoices, SecretStr
from pydantic_settings import SettingsConfigDict

PREFIX = "SIZING_BOT_"


def _names(*names: str) -> AliasChoices:
    """The environment names of a field, documented name first (matched case-insensitively)."""
    return AliasChoices(*names)


def _blank_is_none(value: object) -> object:
    if isinstance(value, str) and not value.strip():
        return None
    if isinstance(value, SecretStr) and not value.get_secret_value().strip():
        return None
    return value


def _section_config(name: str) -> SettingsConfigDict:
    """A section's config: its own prefix (``SIZING_BOT_<NAME>_``) for fields without aliases."""
    return SettingsConfigDict(
        env_prefix=f"{PREFIX}{name.upper()}_", env_file=None, env_file_encoding="utf-8", extra="ignore"
    )
