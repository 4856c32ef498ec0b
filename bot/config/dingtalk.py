"""The DingTalk (钉钉) section of the settings model (:mod:`bot.config.model` lists it in ``SECTIONS``);
a module of its own so the model stays under 500 lines."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings

from bot.config.sections import _blank_is_none, _names, _section_config


class DingTalkSettings(BaseSettings):
    """The DingTalk (钉钉) section: ``sizing-bot run`` starts DingTalk's Stream mode when the client id
    and secret are set (bot/run.py, bot/dingtalk)."""

    model_config = _section_config("dingtalk")

    client_id: str | None = Field(
        None,
        validation_alias=_names("DINGTALK_CLIENT_ID", "SIZING_BOT_DINGTALK_CLIENT_ID"),
        description="the app's Client ID (AppKey, ding…); unset = not configured",
    )
    client_secret: SecretStr | None = Field(
        None,
        validation_alias=_names("DINGTALK_CLIENT_SECRET", "SIZING_BOT_DINGTALK_CLIENT_SECRET"),
        description="the app's Client Secret (AppSecret; never logged)",
    )
    endpoint: str = Field(
        "https://api.dingtalk.com",
        validation_alias=_names("DINGTALK_ENDPOINT", "SIZING_BOT_DINGTALK_ENDPOINT"),
        description="OpenAPI host: Stream gateway, access token, robot messages",
    )
    oapi_endpoint: str = Field(
        "https://oapi.dingtalk.com",
        validation_alias=_names("DINGTALK_OAPI_ENDPOINT", "SIZING_BOT_DINGTALK_OAPI_ENDPOINT"),
        description="legacy host: media upload; session webhooks must be on it",
    )
    admins: str = Field(
        "",
        validation_alias=_names("DINGTALK_ADMINS", "SIZING_BOT_DINGTALK_ADMINS"),
        description="staff ids (comma-separated) who may change settings in groups; unset = nobody",
    )
    watchdog_s: float = Field(
        60.0,
        gt=0,
        le=3600,
        validation_alias=_names("DINGTALK_WATCHDOG", "SIZING_BOT_DINGTALK_WATCHDOG"),
        description="seconds without a frame after which the Stream connection is reopened",
    )
    card_template_id: str = Field(
        "",
        validation_alias=_names("DINGTALK_CARD_TEMPLATE_ID", "SIZING_BOT_DINGTALK_CARD_TEMPLATE_ID"),
        description="card template id (console-made): answers become callback cards; unset = link buttons",
    )

    @field_validator("client_id", "client_secret", mode="before")
    @classmethod
    def _blank(cls, value: object) -> object:
        return _blank_is_none(value)
