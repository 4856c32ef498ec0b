"""What a chat chose with /settings: the type (persisted by :mod:`bot.settings.store`)."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from estimator import catalog
from estimator.models import Currency


class ChatSettings(BaseModel):
    """What a chat chose with /settings. ``None`` / empty = not set (the bot's defaults apply)."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)  # ignore newer fields

    lang: Literal["zh", "en"] | None = Field(None, description="reply language; None = the message's")
    currency: Currency | None = Field(None, description="quoting currency; required when prices are set")
    prices: dict[str, float] = Field(
        default_factory=dict, description="GPU family → price per GPU-hour in `currency`"
    )
    mfu: float | None = Field(None, gt=0, le=1, allow_inf_nan=False, description="fraction of dense peak")
    deadline_days: float | None = Field(None, gt=0, allow_inf_nan=False)

    @field_validator("prices")
    @classmethod
    def _families_and_positive(cls, v: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, price in v.items():
            family = catalog.family_of(name)
            if family is None:
                raise ValueError(unknown_gpu_message(name))
            if not (isinstance(price, int | float) and math.isfinite(price) and price > 0):
                raise ValueError(f"{family}: price must be a positive number, got {price!r}")
            out[family] = float(price)
        return out

    @model_validator(mode="after")
    def _prices_need_currency(self) -> ChatSettings:
        if self.prices and self.currency is None:
            raise ValueError("prices need a currency (set currency together with prices)")
        return self

    def price_for(self, family: str, currency: Currency) -> float | None:
        """This chat's price for a GPU family, when it is quoted in ``currency``."""
        return self.prices.get(family) if self.currency == currency else None

    @property
    def is_default(self) -> bool:
        return self == ChatSettings()


def unknown_gpu_message(name: str) -> str:
    """'unknown GPU 'H300' (did you mean H100, H200?)' for validation messages."""
    hint = catalog.family_suggestions(name)
    return f"unknown GPU {name!r}" + (f" (did you mean {', '.join(hint)}?)" if hint else "")
