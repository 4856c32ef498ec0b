"""What the provider's offer (:mod:`bot.settings.presales`) changes in an answer, and a quote's figures: pure,
no I/O, no language. Money is in the answer's currency; a figure converted through the exchange rate says so.

- :func:`candidates` / :func:`fits`: a question that names no GPU is sized on the first offered GPU
  (preferred first) that fits the job;
- :func:`offer_terms`: the terms behind one answer (offered or not, unit prices in the answer's currency,
  the exchange rate used, minimum order, availability, reserved terms) — ``Answer.offer``;
- :func:`pricing`: the figures a quote shows and the reply's offer lines repeat (configuration,
  GPU-hours, unit price, subtotal, reserved-term discounts, monthly rental, total range), computed once
  so that the reply and the PDF print the same numbers."""

from __future__ import annotations

import datetime as dt
import math
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from bot.core.cheapest import cheapest_index, fits, names_a_gpu
from bot.core.quote_gpus import serving_quote_gpus
from bot.settings.localized import HOURS_PER_MONTH, Localized
from estimator import catalog
from estimator.catalog import GpuSpec
from estimator.factories import empty_list
from estimator.models import Currency, SizingReport
from estimator.shown_cost import paid_row, shown_gpus
from estimator.variant_prices import variant_price

if TYPE_CHECKING:
    from bot.settings.presales import OfferedGpu, PresalesConfig

__all__ = [
    "Offer",
    "Pricing",
    "candidates",
    "cheapest_index",
    "fits",
    "names_a_gpu",
    "offer_terms",
    "pricing",
]

DEFAULT_PER_NODE: int = GpuSpec.model_fields["gpus_per_node"].default
"""GPUs in a node when neither the offer nor the report says: the catalog schema's default (8)."""


class Exchange(BaseModel, defer_build=True):  # schema built on first use: start-up
    """A price converted through the file's exchange rate."""

    cny_per_usd: float
    as_of: dt.date
    source: str | None = None
    from_currency: Currency
    from_price: float = Field(description="the file's price per GPU-hour in `from_currency`")


class Term(BaseModel, defer_build=True):  # schema built on first use: start-up
    months: int
    discount_percent: float


class Offer(BaseModel, defer_build=True):  # schema built on first use: start-up
    """The provider's terms behind one answer (None in an answer without a pre-sales file)."""

    provider: str
    contact: str | Localized | None = None
    website: str | None = None
    valid_days: int = 14
    note: Localized | None = None
    families: list[str] = Field(default_factory=empty_list, description="offered families, preferred first")
    gpu: str | None = Field(None, description="catalog id of the GPU the answer is about")
    family: str | None = None
    offered: bool = Field(False, description="whether the provider offers that GPU")
    chosen: bool = Field(False, description="the offer chose the GPU (the question named none)")
    none_fits: bool = Field(False, description="no offered GPU fits the job: sized on the first anyway")
    currency: Currency
    gpu_hour: float | None = Field(None, description="price per GPU-hour used (in `currency`)")
    node_hour: float | None = Field(None, description="price per node-hour as offered (in `currency`)")
    gpu_month: float | None = Field(None, description="price per GPU-month as offered (in `currency`)")
    gpus_per_node: int = DEFAULT_PER_NODE
    min_nodes: int | None = Field(None, description="minimum order in whole nodes; None: single GPUs")
    billing: str = Field(
        "usage", description="'usage', 'gpu_hour' or 'node_hour': the unit a job is rounded up to (billed)"
    )
    availability: Localized | None = None
    exchange: Exchange | None = None
    terms: list[Term] = Field(
        default_factory=empty_list, description="reserved terms for this GPU, shortest first"
    )
    price_is_offer: bool = Field(
        False,
        description="the answer's price per GPU-hour is this offer's (not the user's, the chat's "
        "or a public range)",
    )


# ---------------------------------------------------------------------------------------------
# Choosing the GPU


def candidates(presales: PresalesConfig) -> list[str]:
    """Catalog ids to size a question without a GPU on, in the offer's order: the preferred families,
    then the other offered ones (the variant a [[gpu]] table names, else the family's default)."""
    out = []
    for family in presales.families():
        g = presales.offered(family)
        spec = g.spec if g is not None else catalog.default_gpu_for_family(family)
        if spec is not None and spec.id not in out:
            out.append(spec.id)
    return out


# ---------------------------------------------------------------------------------------------
# The terms behind an answer


def offer_terms(
    presales: PresalesConfig,
    report: SizingReport,
    *,
    chosen: bool = False,
    none_fits: bool = False,
    price_source: str | None = None,
) -> Offer:
    """The offer's terms for the GPU ``report`` is about, in the report's currency. ``price_source``:
    where the answer's price per GPU-hour came from ('presales', 'exchange', 'settings', … or None)."""
    req = report.request
    offer = terms_for(presales, req.gpu, req.currency or presales.currency)
    return offer.model_copy(
        update={
            "chosen": chosen,
            "none_fits": none_fits,
            "price_is_offer": price_source in ("presales", "presales_month", "exchange"),
        }
    )


def terms_for(presales: PresalesConfig, gpu: str | None, currency: Currency) -> Offer:
    """The offer's terms for one GPU (a catalog id or a family) with its unit prices in ``currency``."""
    family = catalog.family_of(gpu) if gpu else None
    spec = catalog.gpus().get(gpu or "") or (catalog.default_gpu_for_family(family) if family else None)
    g = presales.offered(family)
    offered = family in presales.families() and (g is None or g.memory_gib is None or g.spec == spec)
    offer = Offer(
        provider=presales.provider,
        contact=presales.contact,
        website=presales.website,
        valid_days=presales.quote_valid_days,
        note=presales.quote_note,
        families=presales.families(),
        gpu=spec.id if spec else gpu,
        family=family,
        offered=offered,
        currency=currency,
    )
    if g is None or not offered:  # not offered, or preferred without a [[gpu]] table (no prices)
        return offer
    return offer.model_copy(
        update={
            **_prices(presales, g, currency),
            "gpus_per_node": g.gpus_per_node,
            "min_nodes": g.min_nodes,
            "billing": g.billing,
            "availability": g.availability,
            "terms": [
                Term(months=c.months, discount_percent=c.discount_percent)
                for c in presales.commitments_for(g.family)
            ],
        }
    )


def _prices(presales: PresalesConfig, g: OfferedGpu, currency: Currency) -> dict[str, object]:
    """Unit prices in ``currency``: as the file gives them, else converted through its exchange rate."""
    if g.has_prices(currency) or presales.exchange_rate is None:
        return {"gpu_hour": g.gpu_hour(currency), "node_hour": g.node_hour(currency),
                "gpu_month": g.gpu_month(currency)}  # fmt: skip
    other = Currency.USD if currency == Currency.CNY else Currency.CNY
    rate = presales.exchange_rate

    def conv(x: float | None) -> float | None:
        return None if x is None else rate.convert(x, other, currency)

    original = g.gpu_hour(other)
    return {
        "gpu_hour": conv(original),
        "node_hour": conv(g.node_hour(other)),
        "gpu_month": conv(g.gpu_month(other)),
        "exchange": Exchange(
            cny_per_usd=rate.cny_per_usd,
            as_of=rate.as_of,
            source=rate.source,
            from_currency=other,
            from_price=original or 0.0,
        ),
    }


# ---------------------------------------------------------------------------------------------
# The figures of a quote


class Discount(BaseModel, defer_build=True):  # schema built on first use: start-up
    months: int
    percent: float
    amount: float = Field(description="taken off the subtotal")
    total: float = Field(description="subtotal − amount")


class Monthly(BaseModel, defer_build=True):  # schema built on first use: start-up
    """Renting the configuration by the month at the offer's monthly price."""

    gpus: int
    months: int
    price: float = Field(description="per GPU-month")
    total: float


class Pricing(BaseModel, defer_build=True):  # schema built on first use: start-up
    """A quote's figures, in ``currency``. ``period``: what the subtotal covers — the whole job
    ('job'), one month of a service ('month'), or one day when the answer has no duration ('day')."""

    currency: Currency
    period: Literal["job", "month", "day"]
    gpu: str
    gpus: int = Field(description="GPUs in the configuration (whole nodes when ordered so)")
    sized_gpus: int = Field(description="GPUs the answer sized, before a minimum order")
    nodes: int | None = Field(None, description="whole nodes, when the GPUs fill them")
    gpus_per_node: int = DEFAULT_PER_NODE
    days: float | None = Field(None, description="wall-clock days on `gpus` (period 'job')")
    hours: float | None = Field(None, description="a known duration in hours (a rental question)")
    gpu_hours: float = Field(description="GPU-hours billed for the period")
    price_low: float = Field(description="per GPU-hour")
    price_high: float
    node_hour: float | None = None
    gpu_month: float | None = None
    subtotal_low: float
    subtotal_high: float
    total_low: float = Field(description="the range: the GPU-hours band (period 'job'), else the subtotal")
    total_high: float
    discounts: list[Discount] = Field(default_factory=empty_list)
    monthly: Monthly | None = None
    min_order_applied: bool = Field(False, description="the minimum order raised the GPU count")
    billed_by_node: bool = Field(
        False,
        description="whole node-hours are billed: more GPU-hours than the answer's cost (each GPU of the "
        "order for every hour started)",
    )
    best: Literal["on_demand", "monthly", "term"] = Field(
        "on_demand", description="the cheapest way to pay for the likely job (or the month): the total's"
    )
    best_months: int | None = Field(None, description="the months of `best` (monthly rental or term)")
    total_likely: float | None = Field(
        None, description="the total at the likely GPU-hours: the `best` way's price (period 'job')"
    )


def _whole_nodes(gpus: int, offer: Offer | None) -> tuple[int, bool]:
    if offer is None or offer.min_nodes is None:
        return gpus, False
    per = offer.gpus_per_node
    billed = max(math.ceil(gpus / per), offer.min_nodes) * per
    return billed, billed != gpus


def _nodes(gpus: int, per_node: int) -> int | None:
    return gpus // per_node if gpus >= per_node and gpus % per_node == 0 else None


def _discounts(
    on_demand: float, offer: Offer | None, days: float | None, best: float | None = None
) -> list[Discount]:
    """Reserved terms the job's wall-clock time covers (every term for a service: ``days`` None): the
    term's discount off the on-demand price ``on_demand`` (presales.example.toml), listed only when it
    beats ``best`` — the price already quoted (the monthly rental of a service) — so that no row offers
    more money for a longer commitment."""
    if offer is None or not offer.offered:
        return []
    out = []
    for t in offer.terms:
        if days is not None and days + 1e-9 < t.months * 30.0:
            continue
        amount = on_demand * t.discount_percent / 100
        total = on_demand - amount
        if best is not None and total >= best - 0.005:
            continue
        out.append(Discount(months=t.months, percent=t.discount_percent, amount=amount, total=total))
    return out


def _sized_gpus(report: SizingReport) -> int | None:
    """The GPU count an answer recommends running on (the user's, when given and it fits)."""
    req = report.request
    if report.inference is not None:  # the fewest that start when the user's count will not (s17)
        return serving_quote_gpus(report)
    if shown_gpus(report):  # the count the answer shows (estimator.shown_cost)
        return shown_gpus(report)
    m = report.memory
    if m is not None and m.min_gpus:
        if req.gpu_count and m.fits_requested:
            return req.gpu_count
        return m.recommended_gpus or m.min_gpus
    return req.gpu_count


def pricing(report: SizingReport | None, offer: Offer | None) -> Pricing | None:
    """The quote's figures for an answer, or None when it has no configuration or price to quote
    (a budget question, a job that fits nowhere, a GPU without a price)."""
    if report is None or report.request.gpu is None:
        return None
    sized = _sized_gpus(report)
    if not sized:
        return None
    gpus, raised = _whole_nodes(sized, offer)
    per_node = offer.gpus_per_node if offer is not None else (report.gpus_per_node or DEFAULT_PER_NODE)
    common = {
        "gpu": report.request.gpu,
        "gpus": gpus,
        "sized_gpus": sized,
        "nodes": _nodes(gpus, per_node),
        "gpus_per_node": per_node,
        "node_hour": offer.node_hour if offer is not None and offer.offered else None,
        "gpu_month": offer.gpu_month if offer is not None and offer.offered else None,
        "min_order_applied": raised,
    }
    inf, cost = report.inference, report.cost
    if inf is not None:
        band = inf.cost_per_month
        if band is None:
            return None
        each = inf.gpu_hours_per_month or HOURS_PER_MONTH  # fewer on a daily schedule ('8 hours a day')
        p_low, p_high = (band.low / (inf.serving_gpus * each), band.high / (inf.serving_gpus * each))
        hours = gpus * each
        low, high = (band.low, band.high) if not raised else (hours * p_low, hours * p_high)
        monthly = None
        if common["gpu_month"] is not None:
            monthly = Monthly(
                gpus=gpus, months=1, price=common["gpu_month"], total=gpus * common["gpu_month"]
            )
        by_month = monthly is not None and abs(monthly.total - low) < 0.5 and low == high
        on_demand = hours * offer.gpu_hour if offer is not None and offer.gpu_hour is not None else low
        return Pricing(
            currency=band.currency, period="month", gpu_hours=hours, price_low=p_low, price_high=p_high,
            subtotal_low=low, subtotal_high=high, total_low=low, total_high=high,
            discounts=_discounts(on_demand, offer, None, best=low) if low == high else [], monthly=monthly,
            best="monthly" if by_month else "on_demand", best_months=1 if by_month else None, **common,
        )  # fmt: skip
    if cost is not None and report.gpu_hours is not None:
        return _job_pricing(report, offer, gpus, raised, common)
    if report.flops is None and report.memory is not None:
        band = _day_price(report)
        if band is None:
            return None
        (p_low, p_high), currency = band
        hours = gpus * 24.0
        return Pricing(
            currency=currency, period="day", gpu_hours=hours, price_low=p_low, price_high=p_high,
            subtotal_low=hours * p_low, subtotal_high=hours * p_high, total_low=hours * p_low,
            total_high=hours * p_high, **common,
        )  # fmt: skip
    return None


def whole_hours(gpu_hours: float, gpus: int) -> float:
    """GPU-hours billed when every GPU of an order is billed for each hour started: ``gpus`` ×
    ⌈``gpu_hours`` ÷ ``gpus``⌉ (314 GPU-hours on 8 GPUs = 39.3 hours → 40 × 8 = 320). Never less than
    the GPU-hours used."""
    if gpu_hours <= 0:
        return 0.0
    return float(gpus * math.ceil(gpu_hours / gpus - 1e-9))


def _job_pricing(
    report: SizingReport, offer: Offer | None, gpus: int, raised: bool, common: dict[str, object]
) -> Pricing:
    """A job of so many GPU-hours (or a known duration). Where the offer bills by the hour started
    (``billing = "gpu_hour"`` or ``"node_hour"``), every GPU of the order is billed for each hour
    started (:func:`whole_hours`), the GPU-hours band too; otherwise (``"usage"``, the default) the
    estimator's GPU-hours used, rounded up to whole GPU-hours. The total is the best price
    (:func:`_best_price`): renting the GPUs by the month (listed only when cheaper than by the
    GPU-hour) or a reserved term the job covers, when either beats the GPU-hour price."""
    # the GPUs ordered pay their own row (full recomputation on the fewest: its days-table row, s16);
    # an order raised to whole nodes runs on more GPUs than the fewest, without that recomputation
    row = paid_row(report.days_table, gpus)  # the cost line's own row (estimator.shown_cost)
    cost = report.cost_on(gpus)
    band = row.gpu_hours if row is not None and row.gpu_hours is not None else report.gpu_hours
    assert cost is not None and band is not None
    hours_given = report.request.hours
    by_node = offer is not None and offer.offered and offer.billing in ("gpu_hour", "node_hour")
    p_low, p_high = cost.price_low, cost.price_high
    if hours_given and (raised or by_node):  # a known duration: every GPU of the order is billed
        hours = gpus * (math.ceil(hours_given - 1e-9) if by_node else hours_given)
        low, high = hours * p_low, hours * p_high
        days, total = hours_given / 24, (low, high)
    elif by_node:
        hours = whole_hours(band.likely, gpus)
        low, high = hours * p_low, hours * p_high
        days = band.likely / gpus / 24
        total = (
            (whole_hours(band.low, gpus) * p_low, whole_hours(band.high, gpus) * p_high)
            if cost.low_with_mfu is not None
            else (low, high)
        )
    else:  # a job of so many GPU-hours: more GPUs finish it sooner for the same GPU-hours
        hours = float(cost.billed_gpu_hours)
        low, high = cost.low, cost.high
        days = hours_given / 24 if hours_given else band.likely / gpus / 24
        total = (
            cost.low_with_mfu if cost.low_with_mfu is not None else low,
            cost.high_with_mfu if cost.high_with_mfu is not None else high,
        )
    month = common["gpu_month"]
    monthly = None
    if month is not None and days > 0 and gpus * math.ceil(days / 30.0 - 1e-9) * month < low - 0.005:
        months = math.ceil(days / 30.0 - 1e-9)
        monthly = Monthly(gpus=gpus, months=months, price=month, total=gpus * months * month)
    discounts = _discounts(low, offer, days) if low == high else []
    ways = [("on_demand", None, low), *(("term", d.months, d.total) for d in discounts)]
    ways += [("monthly", monthly.months, monthly.total)] if monthly is not None else []
    best = min(ways, key=lambda w: w[2] + (0.005 if w[0] == "on_demand" else 0.0))
    if best[0] != "on_demand":  # the range's ends at the best price for the days each end takes
        ends = (band.low, band.high) if cost.low_with_mfu is not None and not hours_given else (hours, hours)
        total = tuple(_best_price(total[i], ends[i] / gpus / 24 if not hours_given else days, gpus, offer,
                                  month, flat=low == high) for i in (0, 1))  # fmt: skip
    return Pricing(
        currency=cost.currency, period="job", days=days, hours=hours_given,
        gpu_hours=hours, price_low=p_low, price_high=p_high,
        subtotal_low=low, subtotal_high=high, total_low=total[0], total_high=total[1],
        discounts=discounts, monthly=monthly, best=best[0], best_months=best[1], total_likely=best[2],
        billed_by_node=by_node and hours != cost.billed_gpu_hours, **common,
    )  # fmt: skip


def _best_price(
    on_demand: float, days: float, gpus: int, offer: Offer | None, month: float | None, *, flat: bool
) -> float:
    """The cheapest way to pay for a job of ``days`` on ``gpus`` that costs ``on_demand`` by the
    GPU-hour: that, a reserved term the job's days cover (its discount off ``on_demand``), or renting
    the GPUs for whole months (``month`` per GPU-month, presales.example.toml)."""
    options = [on_demand]
    if flat:
        options += [d.total for d in _discounts(on_demand, offer, days)]
    if month is not None:
        options.append(gpus * math.ceil(days / 30.0 - 1e-9) * month)
    return min(options)


def _day_price(report: SizingReport) -> tuple[tuple[float, float], Currency] | None:
    """The price per GPU-hour of an answer without a duration: the one filled in (the user's, the chat's,
    the offer's), else the catalog's public range for the GPU in the answer's currency."""
    req = report.request
    currency = req.currency or Currency.CNY
    if req.price_per_gpu_hour is not None:
        return (req.price_per_gpu_hour, req.price_per_gpu_hour), currency
    spec = catalog.gpus().get(req.gpu or "") or catalog.resolve_gpu(req.gpu)
    found = variant_price(spec, currency) if spec else None  # the variant's own range (A100 40GB)
    return ((found.low, found.high), currency) if found else None
