"""The assumption ledger (every value the user did not give, with the key of its reason) and the
price lookup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from estimator import catalog
from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Assumption, Currency, Note, SizingRequest
from estimator.reasons import Why


class Ledger:
    """Collects assumptions and notes while the report is built."""

    def __init__(self) -> None:
        self.assumptions: list[Assumption] = []
        self.notes: list[Note] = []

    def assume(
        self,
        field: str,
        value: Any,
        why: Why,
        *,
        citation: str | None = None,
        also: Iterable[Why] = (),
        **params: Any,
    ) -> Any:
        """Record that ``field`` takes ``value`` because of ``why`` (with ``params`` for its wording,
        further reasons ``also``, and a ``citation`` kept as written); returns ``value``."""
        self.assumptions.append(
            Assumption(
                field=field,
                value=value,
                why=why.value,
                params=params,
                also=[w.value for w in also],
                citation=citation,
            )
        )
        return value

    def replace(self, field: str, value: Any, why: Why, **params: Any) -> Any:
        """Re-state an assumption made earlier (e.g. a precision that turned out not to fit)."""
        self.assumptions = [a for a in self.assumptions if a.field != field]
        return self.assume(field, value, why, **params)

    def note(self, code: str, **params: Any) -> None:
        self.notes.append(Note(code=code, params=params))


PriceRange = tuple[float, float, Currency, str]
"""(low, high, currency, source) per GPU-hour."""


def price_range(req: SizingRequest, gpu: GpuSpec, ledger: Ledger) -> PriceRange | None:
    """(low, high, currency, source) per GPU-hour: the user's price, else the catalog's range for the
    GPU family in the request's currency (CNY by default); None (with a note) when there is none."""
    currency = req.currency or Currency.CNY
    if req.price_per_gpu_hour:
        return req.price_per_gpu_hour, req.price_per_gpu_hour, currency, "given"
    entry = catalog.prices().get(gpu.family)
    low, high = (
        (entry.cny_low, entry.cny_high)
        if entry and currency == Currency.CNY
        else (entry.usd_low, entry.usd_high)
        if entry
        else (None, None)
    )
    if entry is None or low is None or high is None:
        if gpu.vendor != "Apple":  # a Mac is bought, not rented: no price is no news
            ledger.note("no_price", gpu=gpu.family, currency=currency.value)
        return None
    source = f"{entry.source} (as of {entry.as_of})"
    ledger.assume(
        "price_per_gpu_hour",
        f"{low:g}–{high:g} {currency.value}",
        Why.price_catalog,
        citation=entry.source,
        as_of=entry.as_of,
    )
    return low, high, currency, source


def beyond_window(spec: ModelSpec, tokens: int, ledger: Ledger, stated: bool) -> None:
    """A stated sequence longer than the model's released context window (``max_position_embeddings``
    of its config.json): note it — the memory and time still follow the length asked, but the model
    needs a longer-context version (or RoPE scaling such as YaRN, Peng et al. 2023, for RoPE models)."""
    if stated and spec.max_context and tokens > spec.max_context:
        ledger.note("beyond_context_window", model=spec.name, window=spec.max_context, length=tokens)
