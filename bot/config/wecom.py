"""The WeCom (企业微信) section of the settings model (:mod:`bot.config.model` lists it in ``SECTIONS``).

A module of its own so the model stays under 500 lines; same conventions as the other sections: the
documented name first in each ``validation_alias``, ``SIZING_BOT_WECOM_<FIELD>`` also accepted.
"""

from __future__ import annotations

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class WecomSettings(BaseSettings):
    """The WeCom (企业微信 智能机器人) section: ``sizing-bot run`` starts WeCom when bot id and secret are
    set (bot/run.py); the long connection is bot/wecom/client.py."""

    model_config = SettingsConfigDict(
        env_prefix="SIZING_BOT_WECOM_", env_file=None, env_file_encoding="utf-8", extra="ignore"
    )

    bot_id: str | None = Field(
        None,
        validation_alias=AliasChoices("WECOM_BOT_ID", "SIZING_BOT_WECOM_BOT_ID"),
        description="WeCom smart robot (智能机器人) BotID, long-connection mode; unset = not configured",
    )
    bot_secret: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("WECOM_BOT_SECRET", "SIZING_BOT_WECOM_BOT_SECRET"),
        description="the robot's long-connection Secret (never logged)",
    )
    ws_url: str = Field(
        "wss://openws.work.weixin.qq.com",
        validation_alias=AliasChoices("WECOM_WS_URL", "SIZING_BOT_WECOM_WS_URL"),
        description="WeCom long-connection WebSocket endpoint",
    )
    admins: str = Field(
        "",
        validation_alias=AliasChoices("WECOM_ADMINS", "SIZING_BOT_WECOM_ADMINS"),
        description="WeCom userids (comma-separated) who may change a group's settings; "
        "unset = group settings are read-only (WeCom tells no group role)",
    )
    ping_interval: float = Field(
        30.0,
        gt=0,
        le=300,
        validation_alias=AliasChoices("WECOM_PING_INTERVAL", "SIZING_BOT_WECOM_PING_INTERVAL"),
        description="seconds between pings; two unanswered = the connection is dead",
    )

    @field_validator("bot_id", "bot_secret", mode="before")
    @classmethod
    def _blank(cls, value: object) -> object:
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        return None if isinstance(value, str) and not value.strip() else value

    def admin_ids(self) -> frozenset[str]:
        """The userids of ``admins``, without blanks."""
        return frozenset(a.strip() for a in self.admins.split(",") if a.strip())
