"""Pre-sales configuration: the provider's offer — GPUs, prices, terms — and how to reach them.

One TOML file (``SIZING_BOT_PRESALES``, or ``sizing-bot ask --presales FILE``), validated at start-up
so that a typo stops the bot with a message naming the file and the field::

    presales.toml: gpu[1].family: unknown GPU 'H300' (did you mean H100, H200?)

List indexes in messages count from 0 (``gpu[0]`` is the first ``[[gpu]]`` table).
What the offer changes in an answer is in :mod:`bot.core.offer`; prices apply like chat-settings
prices: the user's own words override the chat settings, which override these. Every option is
shown in ``presales.example.toml`` in the repository root.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from bot.lazylog import lazy_logger
from bot.settings.chat import unknown_gpu_message
from bot.settings.localized import HOURS_PER_MONTH, MAX_LINE_CHARS, Localized
from bot.settings.presales_path import PresalesError
from estimator import catalog
from estimator.catalog import GpuSpec
from estimator.models import Currency
from estimator.request import bounds

ENV_PATH = "SIZING_BOT_PRESALES"

logger = lazy_logger("bot.settings.presales")

MAX_FILE_BYTES = 1_000_000
"""The offer file is read up to this size and refused above it (a real one is a few kB): a file
such as /dev/zero never reaches the TOML parser."""
MIN_PRICE, MAX_PRICE_PER_GPU_HOUR = bounds("price_per_gpu_hour")
"""Bounds of a GPU-hour price in either currency, the ones a question and /settings use (list prices
are 1-100; a typo like 1e308 would overflow every cost)."""
MAX_PRICE_PER_NODE_HOUR = 10 * MAX_PRICE_PER_GPU_HOUR
"""Upper bound of a node-hour price (8 GPUs × the GPU-hour bound, rounded up)."""
MAX_PRICE_PER_GPU_MONTH = 1_000 * MAX_PRICE_PER_GPU_HOUR
"""Upper bound of a monthly GPU price (730 h × the GPU-hour bound, rounded up)."""
MIN_CNY_PER_USD, MAX_CNY_PER_USD = 0.01, 1_000.0
"""Exchange-rate range: the real rate has been 6-8.5 since 1994; the range only stops nonsense such
as 1e-300 (which would make converted prices overflow)."""
MAX_NAME_CHARS = 200
"""provider, website, the exchange rate's source: a name or a URL."""

DAYS_PER_TERM_MONTH = 30.0
"""Days a commitment month covers when a job's wall-clock time is compared with a term."""


def canonical_family(name: str) -> str:
    """Validator helper: the catalog family, or ValueError naming the bad value and suggestions."""
    family = catalog.family_of(name)
    if family is None:
        raise ValueError(unknown_gpu_message(name))
    return family


# ---------------------------------------------------------------------------------------------
# The file


class OfferedGpu(BaseModel):
    """One ``[[gpu]]`` table: a GPU the provider offers, its prices and terms."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    family: str = Field(description="catalog GPU family, e.g. 'A100', 'H100', 'RTX 4090'")
    memory_gib: float | None = Field(
        None,
        gt=0,
        le=10_000,
        description="the variant offered when the family has several (A100 40 or 80 GiB)",
    )
    price_cny_per_gpu_hour: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_GPU_HOUR, allow_inf_nan=False
    )
    price_usd_per_gpu_hour: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_GPU_HOUR, allow_inf_nan=False
    )
    price_cny_per_node_hour: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_NODE_HOUR, allow_inf_nan=False
    )
    price_usd_per_node_hour: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_NODE_HOUR, allow_inf_nan=False
    )
    price_cny_per_gpu_month: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_GPU_MONTH, allow_inf_nan=False
    )
    price_usd_per_gpu_month: float | None = Field(
        None, ge=MIN_PRICE, le=MAX_PRICE_PER_GPU_MONTH, allow_inf_nan=False
    )
    min_nodes: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="minimum order in whole nodes (orders are then whole nodes); none: single GPUs",
    )
    availability: Localized | None = Field(None, description="e.g. 'in stock, 3 working days'")
    billing: Literal["usage", "gpu_hour", "node_hour"] = Field(
        "usage",
        description="how a job is billed: 'usage' (the GPU-hours used, rounded up to whole GPU-hours), "
        "'gpu_hour' (every GPU of the order for each hour started) or 'node_hour' (every node of the "
        "order for each hour started)",
    )

    @field_validator("family")
    @classmethod
    def _known_family(cls, v: str) -> str:
        return canonical_family(v)

    @model_validator(mode="after")
    def _has_a_price_and_variant(self) -> OfferedGpu:
        if not any(self._prices(c) != (None, None, None) for c in Currency):
            raise ValueError(
                "needs price_cny_per_gpu_hour and/or price_usd_per_gpu_hour (or a per_node_hour or "
                "per_gpu_month price)"
            )
        if self.memory_gib is not None and self._variant() is None:
            sizes = sorted({g.memory_gib for g in catalog.gpus().values() if g.family == self.family})
            raise ValueError(
                f"memory_gib: {self.family} comes with {', '.join(f'{s:g}' for s in sizes)} GiB, "
                f"not {self.memory_gib:g}"
            )
        return self

    def _prices(self, currency: Currency) -> tuple[float | None, float | None, float | None]:
        c = currency.value.lower()
        return (
            getattr(self, f"price_{c}_per_gpu_hour"),
            getattr(self, f"price_{c}_per_node_hour"),
            getattr(self, f"price_{c}_per_gpu_month"),
        )

    def _variant(self) -> GpuSpec | None:
        if self.memory_gib is None:
            return catalog.default_gpu_for_family(self.family)
        return next(
            (
                g
                for g in catalog.gpus().values()
                if g.family == self.family and abs(g.memory_gib - self.memory_gib) < 0.5
            ),
            None,
        )

    @property
    def spec(self) -> GpuSpec:
        """The catalog card offered (the family's default variant unless ``memory_gib`` names another)."""
        spec = self._variant()
        assert spec is not None  # validated
        return spec

    @property
    def gpus_per_node(self) -> int:
        return self.spec.gpus_per_node

    @property
    def whole_nodes(self) -> bool:
        """Orders are whole nodes (a minimum order in nodes is set)."""
        return self.min_nodes is not None

    def gpu_hour(self, currency: Currency) -> float | None:
        """The price per GPU-hour in ``currency`` that answers use, or None when the file has no price in
        it: on whole-node orders the node price ÷ GPUs per node, else the GPU-hour price, else the node
        price ÷ GPUs per node, else the monthly price ÷ 730 hours."""
        hour, node, month = self._prices(currency)
        if node is not None and (self.whole_nodes or hour is None):
            return node / self.gpus_per_node
        if hour is not None:
            return hour
        return month / HOURS_PER_MONTH if month is not None else None

    def node_hour(self, currency: Currency) -> float | None:
        """The price of one node-hour as the file gives it, or None."""
        return self._prices(currency)[1]

    def gpu_month(self, currency: Currency) -> float | None:
        """The monthly price of one GPU as the file gives it, or None."""
        return self._prices(currency)[2]

    def has_prices(self, currency: Currency) -> bool:
        return self._prices(currency) != (None, None, None)

    def price(self, currency: Currency) -> float | None:
        """The price per GPU-hour in ``currency`` (:meth:`gpu_hour`)."""
        return self.gpu_hour(currency)


class ExchangeRate(BaseModel):
    """``[exchange_rate]``: how many CNY one USD buys, and when the rate was taken."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    cny_per_usd: float = Field(
        ge=MIN_CNY_PER_USD, le=MAX_CNY_PER_USD, allow_inf_nan=False, description="e.g. 7.2"
    )
    as_of: dt.date = Field(description="the date of the rate (TOML date, e.g. 2025-06-01)")
    source: str | None = Field(
        None, max_length=MAX_NAME_CHARS, description="where the rate comes from, as written"
    )

    def convert(self, amount: float, src: Currency, dst: Currency) -> float:
        if src == dst:
            return amount
        return amount * self.cny_per_usd if src == Currency.USD else amount / self.cny_per_usd


class Commitment(BaseModel):
    """One ``[[commitment]]`` table: a reserved term and its discount on the on-demand price."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    months: int = Field(ge=1, le=60, description="term length: 1, 3, 12 …")
    discount_percent: float = Field(gt=0, lt=100, allow_inf_nan=False)
    gpus: list[str] = Field(default_factory=list, description="families it applies to; empty: all offered")

    @field_validator("gpus")
    @classmethod
    def _families(cls, v: list[str]) -> list[str]:
        out = []
        for i, name in enumerate(v):
            try:
                out.append(canonical_family(name))
            except ValueError as e:
                raise ValueError(f"[{i}]: {e}") from None
        return out

    @property
    def days(self) -> float:
        return self.months * DAYS_PER_TERM_MONTH

    def applies_to(self, family: str) -> bool:
        return not self.gpus or family in self.gpus


class PresalesConfig(BaseModel):
    """The validated pre-sales file."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    provider: str = Field(
        min_length=1, max_length=MAX_NAME_CHARS, description="provider name shown with quotes"
    )
    currency: Currency = Field(Currency.CNY, description="quoting currency when the user names none")
    contact: str | Localized | None = Field(
        None, description="line appended to answers, e.g. a sales contact (one text, or one per language)"
    )
    website: str | None = Field(None, max_length=MAX_NAME_CHARS, description="shown on the quote")
    quote_valid_days: int = Field(14, ge=1, le=365, description="a quote's validity from its date")
    quote_note: Localized | None = Field(None, description="a line at the foot of the quote (terms)")
    gpu: list[OfferedGpu] = Field(default_factory=list, description="offered GPUs and prices")
    preferred: list[str] = Field(default_factory=list, description="GPU families to recommend, in order")
    exchange_rate: ExchangeRate | None = Field(
        None, description="for a customer asking in the other currency"
    )
    commitment: list[Commitment] = Field(default_factory=list, description="reserved-term discounts")

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

    @field_validator("website")
    @classmethod
    def _strip(cls, v: str | None) -> str | None:
        return (v.strip() or None) if v is not None else None

    @field_validator("contact", mode="before")
    @classmethod
    def _blank_contact(cls, v: object) -> object:
        if isinstance(v, str) and len(v) > MAX_LINE_CHARS:  # one error naming the field
            raise PydanticCustomError(
                "string_too_long",
                "String should have at most {max_length} characters",
                {"max_length": MAX_LINE_CHARS},
            )
        return (v.strip() or None) if isinstance(v, str) else v

    @model_validator(mode="after")
    def _consistent(self) -> PresalesConfig:
        seen: set[str] = set()
        for g in self.gpu:
            if g.family in seen:
                raise ValueError(f"gpu: {g.family} is listed twice")
            seen.add(g.family)
        if self.gpu:
            self._drop_preferred_not_offered(seen)
        terms = [(c.months, tuple(c.gpus)) for c in self.commitment]
        for i, term in enumerate(terms):
            if term in terms[:i]:
                raise ValueError(f"commitment[{i}]: a {term[0]}-month term is listed twice")
        return self

    def _drop_preferred_not_offered(self, offered: set[str]) -> None:
        """A preferred family the offer does not sell (no ``[[gpu]]`` table) is ignored with a warning
        naming it: an answer never recommends a GPU without a price (issue 30)."""
        kept = [f for f in self.preferred if f in offered]
        for i, family in enumerate(self.preferred):
            if family not in offered:
                logger.warning(
                    "presales: preferred[%d]: %s is not offered (no [[gpu]] table for it); ignored",
                    i,
                    family,
                )
        object.__setattr__(self, "preferred", kept)  # frozen model: set once, while validating

    # -- questions answers ask ----------------------------------------------------------------
    def offered(self, family: str | None) -> OfferedGpu | None:
        return next((g for g in self.gpu if g.family == family), None)

    def ordered(self) -> list[OfferedGpu]:
        """The offered GPUs, preferred first (in that order), then the rest as the file lists them."""
        first = [g for name in self.preferred if (g := self.offered(name)) is not None]
        return first + [g for g in self.gpu if g not in first]

    def families(self) -> list[str]:
        """The provider's line-up: the preferred families, then the other offered ones as listed."""
        return list(dict.fromkeys([*self.preferred, *(g.family for g in self.gpu)]))

    def price(self, family: str, currency: Currency) -> float | None:
        """The provider's price per GPU-hour for a family in ``currency`` as the file gives it, or None."""
        g = self.offered(family)
        return g.gpu_hour(currency) if g is not None else None

    def monthly_price(self, family: str, currency: Currency) -> float | None:
        """The monthly price of one GPU in ``currency``: as the file gives it when it prices the GPU in
        that currency, else converted through the exchange rate (as the offer's unit prices are)."""
        g = self.offered(family)
        if g is None:
            return None
        if g.has_prices(currency) or self.exchange_rate is None:
            return g.gpu_month(currency)
        other = Currency.USD if currency == Currency.CNY else Currency.CNY
        month = g.gpu_month(other)
        return None if month is None else self.exchange_rate.convert(month, other, currency)

    def monthly_rate(self, family: str, currency: Currency) -> float | None:
        """The monthly price of one GPU ÷ :data:`HOURS_PER_MONTH` in ``currency`` when it is below the
        price per GPU-hour (:meth:`price`, or converted): what a service that runs all month pays per
        GPU-hour by renting by the month. None when there is no monthly price or it saves nothing."""
        month = self.monthly_price(family, currency)
        hour = self.price(family, currency)
        if hour is None and (converted := self.converted_price(family, currency)) is not None:
            hour = converted[0]
        if month is None or hour is None or month / HOURS_PER_MONTH >= hour - 1e-9:
            return None
        return month / HOURS_PER_MONTH

    def converted_price(self, family: str, currency: Currency) -> tuple[float, float] | None:
        """(price per GPU-hour in ``currency``, the file's price in the other currency) through the
        exchange rate, when the file prices the GPU only in the other currency; else None."""
        g = self.offered(family)
        if g is None or self.exchange_rate is None or g.gpu_hour(currency) is not None:
            return None
        other = Currency.USD if currency == Currency.CNY else Currency.CNY
        original = g.gpu_hour(other)
        if original is None:
            return None
        return self.exchange_rate.convert(original, other, currency), original

    def commitments_for(self, family: str) -> list[Commitment]:
        """The terms that apply to ``family``, shortest first (a family-specific term wins over a
        general one of the same length)."""
        by_months: dict[int, Commitment] = {}
        for c in self.commitment:
            if c.applies_to(family) and (c.months not in by_months or c.gpus):
                by_months[c.months] = c
        return [by_months[m] for m in sorted(by_months)]


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
        loc = tuple(err.get("loc", ()))
        # Localized accepts a string or a table: name the field, not pydantic's branch
        loc = tuple(p for p in loc if p not in ("str", "Localized", "function-before[_plain_string()]"))
        where = _loc(loc)
        if err.get("type") == "extra_forbidden":
            msg = "unknown field (typo?)"
        if msg.startswith("[") and "]: " in msg:  # list item named by the validator: preferred[2]
            idx, msg = msg.split(": ", 1)
            where += idx
        elif (
            where == "" and ": " in msg and msg.split(": ", 1)[0].replace("[", "").replace("]", "").isalnum()
        ):
            where, msg = msg.split(": ", 1)  # a whole-file check that names its field: preferred[1]: …
        lines.append(f"{path}: {where}: {msg}" if where else f"{path}: {msg}")
    return "\n".join(dict.fromkeys(lines))


def load_presales(path: str | Path) -> PresalesConfig:
    """Read and validate a pre-sales TOML file. Raises PresalesError naming the file and the field."""
    name = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise PresalesError(f"{name}: cannot read: {e.strerror or e}") from e
    if len(raw) > MAX_FILE_BYTES:
        raise PresalesError(
            f"{name}: too large: over {MAX_FILE_BYTES:,} bytes (a pre-sales file is a few kB)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PresalesError(f"{name}: not UTF-8 text (byte {e.start:,}); save it as UTF-8") from None
    try:
        import tomllib  # only when a pre-sales file is read: `ask` without one stays lighter

        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PresalesError(f"{name}: not valid TOML: {e}") from e
    try:
        return PresalesConfig.model_validate(data)
    except ValidationError as e:
        raise PresalesError(_error_message(name, e)) from None


def presales_from_env() -> PresalesConfig | None:
    """The pre-sales configuration named by ``SIZING_BOT_PRESALES``, or None when it is unset
    (:func:`bot.settings.presales_path.load_offer`, the one env → path → load step)."""
    from bot.settings.presales_path import load_offer

    return load_offer()
