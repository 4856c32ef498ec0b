"""Pre-sales configuration: provider, offered GPUs and their prices, currency, contact line.

One TOML file (path from ``SIZING_BOT_PRESALES``), validated at start-up so that a typo stops the
bot with a message naming the file and the field::

    presales.toml: gpu[1].family: unknown GPU 'H300' (did you mean H100, H200?)

List indexes in messages count from 0 (``gpu[0]`` is the first ``[[gpu]]`` table).
Prices apply like chat-settings prices: the user's own words override the chat settings, which
override these. See ``presales.example.toml`` in the repository root.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bot.core.settings import unknown_gpu_message
from estimator import catalog
from estimator.models import Currency

ENV_PATH = "SIZING_BOT_PRESALES"


class PresalesError(ValueError):
    """The pre-sales file is missing, not TOML, or fails validation; the message names file and field."""


def canonical_family(name: str) -> str:
    """Validator helper: the catalog family, or ValueError naming the bad value and suggestions."""
    family = catalog.family_of(name)
    if family is None:
        raise ValueError(unknown_gpu_message(name))
    return family


# ---------------------------------------------------------------------------------------------
# The file


class OfferedGpu(BaseModel):
    """One ``[[gpu]]`` table: a GPU family the provider offers and its price per GPU-hour."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    family: str = Field(description="catalog GPU family, e.g. 'A100', 'H100', 'RTX 4090'")
    price_cny_per_gpu_hour: float | None = Field(None, gt=0, allow_inf_nan=False)
    price_usd_per_gpu_hour: float | None = Field(None, gt=0, allow_inf_nan=False)

    @field_validator("family")
    @classmethod
    def _known_family(cls, v: str) -> str:
        return canonical_family(v)

    @model_validator(mode="after")
    def _has_a_price(self) -> OfferedGpu:
        if self.price_cny_per_gpu_hour is None and self.price_usd_per_gpu_hour is None:
            raise ValueError("needs price_cny_per_gpu_hour and/or price_usd_per_gpu_hour")
        return self

    def price(self, currency: Currency) -> float | None:
        return self.price_cny_per_gpu_hour if currency == Currency.CNY else self.price_usd_per_gpu_hour


class PresalesConfig(BaseModel):
    """The validated pre-sales file."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    provider: str = Field(min_length=1, description="provider name shown with quotes")
    currency: Currency = Field(Currency.CNY, description="quoting currency when the user names none")
    contact: str | None = Field(None, description="line appended to answers, e.g. a sales contact")
    gpu: list[OfferedGpu] = Field(default_factory=list, description="offered GPUs and prices")
    preferred: list[str] = Field(default_factory=list, description="GPU families to recommend, in order")

    @field_validator("preferred")
    @classmethod
    def _preferred_families(cls, v: list[str]) -> list[str]:
        out: list[str] = []
        for i, name in enumerate(v):
            try:
                family = canonical_family(name)
            except ValueError as e:
                raise ValueError(f"[{i}]: {e}") from None
            if family not in out:
                out.append(family)
        return out

    @field_validator("contact")
    @classmethod
    def _strip_contact(cls, v: str | None) -> str | None:
        return (v.strip() or None) if v is not None else None

    @model_validator(mode="after")
    def _no_duplicate_gpus(self) -> PresalesConfig:
        seen: set[str] = set()
        for g in self.gpu:
            if g.family in seen:
                raise ValueError(f"gpu: {g.family} is listed twice")
            seen.add(g.family)
        return self

    def offered(self, family: str) -> OfferedGpu | None:
        return next((g for g in self.gpu if g.family == family), None)

    def price(self, family: str, currency: Currency) -> float | None:
        """The provider's price per GPU-hour for a family in ``currency``, or None."""
        g = self.offered(family)
        return g.price(currency) if g is not None else None


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _error_message(path: str, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        msg = str(err.get("msg", "invalid"))
        msg = msg.removeprefix("Value error, ")
        where = _loc(tuple(err.get("loc", ())))
        if err.get("type") == "extra_forbidden":
            msg = "unknown field (typo?)"
        if msg.startswith("[") and "]: " in msg:  # list item named by the validator: preferred[2]
            idx, msg = msg.split(": ", 1)
            where += idx
        lines.append(f"{path}: {where}: {msg}" if where else f"{path}: {msg}")
    return "\n".join(lines)


def load_presales(path: str | Path) -> PresalesConfig:
    """Read and validate a pre-sales TOML file. Raises PresalesError naming the file and the field."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise PresalesError(f"{name}: cannot read: {e.strerror or e}") from e
    except tomllib.TOMLDecodeError as e:
        raise PresalesError(f"{name}: not valid TOML: {e}") from e
    try:
        return PresalesConfig.model_validate(data)
    except ValidationError as e:
        raise PresalesError(_error_message(name, e)) from None


def presales_from_env() -> PresalesConfig | None:
    """The pre-sales configuration named by ``SIZING_BOT_PRESALES``, or None when it is unset."""
    path = os.environ.get(ENV_PATH, "").strip()
    return load_presales(Path(path).expanduser()) if path else None
