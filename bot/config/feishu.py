"""The Feishu / Lark section of the settings model (:mod:`bot.config.model` lists it in ``SECTIONS``).

A module of its own so the model stays under 500 lines; same conventions as the other sections: the
documented name first in each ``validation_alias``, ``SIZING_BOT_FEISHU_<FIELD>`` also accepted.
"""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class FeishuSettings(BaseSettings):
    """The Feishu/Lark section: ``sizing-bot run`` starts Feishu when id and secret are set (bot/run.py)."""

    model_config = SettingsConfigDict(
        env_prefix="SIZING_BOT_FEISHU_", env_file=None, env_file_encoding="utf-8", extra="ignore"
    )

    app_id: str | None = Field(
        None,
        validation_alias=AliasChoices("FEISHU_APP_ID", "SIZING_BOT_FEISHU_APP_ID"),
        description="Feishu/Lark app id (cli_…); unset = not configured",
    )
    app_secret: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("FEISHU_APP_SECRET", "SIZING_BOT_FEISHU_APP_SECRET"),
        description="the app's secret (never logged)",
    )
    domain: str = Field(
        "https://open.feishu.cn",
        validation_alias=AliasChoices("FEISHU_DOMAIN", "SIZING_BOT_FEISHU_DOMAIN"),
        description="Open Platform endpoint; https://open.larksuite.com for Lark",
    )
    claim_lease_s: float = Field(
        30.0,
        gt=0,
        validation_alias=AliasChoices("FEISHU_CLAIM_LEASE_S", "SIZING_BOT_FEISHU_CLAIM_LEASE_S"),
        description="replicas: seconds before another replica answers an event one took, never answered",
    )

    @field_validator("app_id", "app_secret", mode="before")
    @classmethod
    def _blank(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        if isinstance(value, SecretStr) and not value.get_secret_value().strip():
            return None
        return value
