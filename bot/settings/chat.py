"""What a chat chose with /settings: the type (persisted by :mod:`bot.settings.store`)."""

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from estimator import catalog
from estimator.models import Currency
from estimator.plan import MAX_GPUS_SEARCHED
from estimator.request import bounds

# One set of bounds for every input path: typed questions and follow-ups (bot.parse.assemble),
# /settings commands, settings buttons (bot.telegram.callbacks) and stored rows (bot.settings.store).
MFU_BOUNDS = bounds("mfu")
"""MFU, fraction of dense peak, (0.01, 1.0) declared on SizingRequest.mfu: above 100 % is impossible;
below 1 % no real run is sized (published large runs report ~20-60 %: PaLM 46 %, Llama 3 38-43 %), and
shown as a whole percent it reads "0 %"."""
DEADLINE_DAYS_BOUNDS = bounds("deadline_days")
"""Deadline in days: from one hour to ten years (declared on SizingRequest.deadline_days)."""
PRICE_BOUNDS = bounds("price_per_gpu_hour")
"""Price per GPU-hour in the chat's currency (CNY or USD): market prices are ~0.1-100 (declared on
SizingRequest.price_per_gpu_hour)."""
GPU_COUNT_BOUNDS = (1, MAX_GPUS_SEARCHED)
"""GPUs in one job: the plan search's ceiling (100,000); the largest published clusters are ~100,000
GPUs (xAI Colossus, 2024)."""
CONCURRENCY_BOUNDS = bounds("concurrency")
"""Sequences served at once: a million is beyond any single deployment sized here (declared on
SizingRequest.concurrency)."""


def within(bounds: tuple[float, float], value: object) -> bool:
    """``value`` is a finite number inside ``bounds`` (both ends included)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value) and bounds[0] <= value <= bounds[1]


class ChatSettings(BaseModel):
    """What a chat chose with /settings. ``None`` / empty = not set (the bot's defaults apply)."""

    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)  # ignore newer fields

    lang: Literal["zh", "en"] | None = Field(None, description="reply language; None = the message's")
    script: Literal["Hans", "Hant"] | None = Field(
        None, description="a Chinese reply's script (Simplified, Traditional); None = the message's (s38)"
    )
    currency: Currency | None = Field(None, description="quoting currency; required when prices are set")
    prices: dict[str, float] = Field(
        default_factory=dict, description="GPU family → price per GPU-hour in `currency`"
    )
    mfu: float | None = Field(
        None, ge=MFU_BOUNDS[0], le=MFU_BOUNDS[1], allow_inf_nan=False, description="fraction of dense peak"
    )
    deadline_days: float | None = Field(
        None, ge=DEADLINE_DAYS_BOUNDS[0], le=DEADLINE_DAYS_BOUNDS[1], allow_inf_nan=False
    )

    @field_validator("prices")
    @classmethod
    def _families_and_positive(cls, v: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = {}
        for name, price in v.items():
            family = catalog.family_of(name)
            if family is None:
                raise ValueError(unknown_gpu_message(name))
            if not within(PRICE_BOUNDS, price):
                low, high = PRICE_BOUNDS
                raise ValueError(
                    f"{family}: price must be a positive number from {low:g} to {high:g}, got {price!r}"
                )
            out[family] = float(price)
        return out

    @model_validator(mode="after")
    def _prices_need_currency(self) -> "ChatSettings":
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
