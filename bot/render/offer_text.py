"""The provider's offer in words: unit prices with their units, the reply's offer lines, and the figures
a quote prints — formatted once here, so the reply and the PDF quote show the same numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.render.describe import gpu_names
from bot.render.fmt import Fmt, fmt_for, money_span, needs_cents
from bot.render.headline_parts import headline_count
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text, nodes_text, paren
from bot.render.sections import training_cost
from bot.render.serving_text import scheduled
from estimator import catalog
from estimator.models import SizingReport

if TYPE_CHECKING:  # the pre-sales models: made only when an answer has an offer (start-up, s27-spstart)
    from bot.core.offer import Offer, Pricing

PER_GPU_HOUR = N_("%(price)s per GPU-hour")
PER_NODE_HOUR = N_("%(price)s per %(n)s-GPU node-hour")
PER_GPU_MONTH = N_("%(price)s per GPU-month")
MIN_ORDER = N_("minimum order %(nodes)s")
NOT_IN_OFFER = N_(
    "%(gpu)s is not in %(provider)s's offer: priced at public market rates. Offered: %(offered)s."
)
NOT_IN_OFFER_UNPRICED = N_("%(gpu)s is not in %(provider)s's offer. Offered: %(offered)s.")


def reply_fmt(report: SizingReport | None, lang: str) -> Fmt:
    """The formatter in the reply's money style: with cents when the answer's cost has an amount
    under 100, as its cost line (:func:`bot.render.fmt.needs_cents`)."""
    c = report.cost if report is not None else None
    return fmt_for(lang, c is not None and needs_cents(c.low, c.high, c.low_with_mfu, c.high_with_mfu))


def unit_prices(offer: Offer, lang: str, f: Fmt | None = None) -> list[str]:
    """'¥21 per GPU-hour', '¥168 per 8-GPU node-hour', '¥12,800 per GPU-month' (those offered)."""
    f = f or fmt_for(lang)
    cur = offer.currency.value
    out = []
    if offer.gpu_hour is not None:
        out.append(translate(lang, PER_GPU_HOUR, price=f.price(round(offer.gpu_hour, 2), cur)))
    if offer.node_hour is not None:
        out.append(
            translate(
                lang, PER_NODE_HOUR, price=f.price(round(offer.node_hour, 2), cur), n=offer.gpus_per_node
            )
        )
    if offer.gpu_month is not None:
        out.append(translate(lang, PER_GPU_MONTH, price=f.money(round(offer.gpu_month, 2), cur)))
    return out


def min_order_nodes(offer: Offer, lang: str) -> str | None:
    """'one 8-GPU node' / '2 × 8-GPU nodes' when orders are whole nodes."""
    if offer.min_nodes is None:
        return None
    return nodes_text(lang, offer.min_nodes * offer.gpus_per_node, offer.gpus_per_node)


def min_order_text(offer: Offer, lang: str) -> str | None:
    """'minimum order one 8-GPU node' when orders are whole nodes."""
    nodes = min_order_nodes(offer, lang)
    return translate(lang, MIN_ORDER, nodes=nodes) if nodes else None


def exchange_text(offer: Offer, lang: str) -> str | None:
    """'7.2 CNY per USD (2025-06-01, PBOC central parity)' when the prices were converted."""
    x = offer.exchange
    if x is None:
        return None
    when = x.as_of.isoformat() + (f", {x.source}" if x.source else "")
    return translate(
        lang,
        N_("%(rate)s CNY per USD (%(when)s); %(provider)s's price: %(price)s per GPU-hour"),
        rate=fmt_for(lang).num(x.cny_per_usd, 4),
        when=when,
        provider=offer.provider,
        price=fmt_for(lang).price(round(x.from_price, 2), x.from_currency.value),
    )


ABOUT = {
    "days": N_("≈ %(n)s days"),
    "hours": N_("≈ %(n)s hours"),
    "minutes": N_("≈ %(n)s minutes"),
}
"""A job's wall-clock time in the unit it is read in (:meth:`bot.render.fmt.Fmt.duration`)."""


def about(lang: str, days: float) -> str:
    """'≈ 1.6 days', '≈ 5.2 hours', '≈ 13 minutes' (never '≈ 0.034 days')."""
    n, unit = fmt_for(lang).duration(days)
    return translate(lang, ABOUT[unit], n=n)


def _config(p: Pricing, lang: str, f: Fmt) -> str:
    """'72 × H800 (9 × 8-GPU nodes) for ≈ 28 days' / '8 × H800, per month' / '2 × H800, per day'."""
    spec = catalog.gpus().get(p.gpu)
    name = (
        (spec.family if spec.default_for_family else f"{spec.family} {spec.memory_gib:g}G") if spec else p.gpu
    )
    nodes = paren(lang, nodes_text(lang, p.gpus, p.gpus_per_node)) if p.nodes else ""
    base = f"{f.int(p.gpus)} × {name}{nodes}"
    if p.period == "month":
        return translate(lang, N_("%(config)s, per month (730 hours)"), config=base)
    if p.period == "day":
        return translate(lang, N_("%(config)s, per day"), config=base)
    if p.hours:
        return translate(lang, N_("%(config)s for %(hours)s hours"), config=base, hours=f.hours(p.hours))
    return translate(lang, N_("%(config)s for %(time)s"), config=base, time=about(lang, p.days or 0))


def figures(report: SizingReport, offer: Offer | None, lang: str) -> dict[str, Any] | None:
    """The quote's figures as text in ``lang`` (the same strings the reply's offer lines use), or None
    when the answer has nothing to quote (:func:`bot.core.offer.pricing`)."""
    from bot.core.offer import pricing  # imported when used: a plain answer has no offer (start-up)

    p = pricing(report, offer)
    if p is None:
        return None
    f = reply_fmt(report, lang)
    cur = p.currency.value
    if p.price_low == p.price_high:
        price = translate(lang, PER_GPU_HOUR, price=f.price(round(p.price_low, 2), cur))
    else:
        price = translate(
            lang, PER_GPU_HOUR, price=f.price_range(round(p.price_low, 2), round(p.price_high, 2), cur)
        )
    period = {
        "job": N_("Subtotal (likely GPU-hours)"),
        "month": N_("Subtotal per month"),
        "day": N_("Subtotal per day"),
    }[p.period]
    term = (
        N_("%(months)s-month term (−%(percent)s off the hourly price): %(total)s per month")
        if p.period == "month"
        else N_("%(months)s-month term (−%(percent)s off the hourly price): %(total)s")
    )
    discounts = [
        _best(lang, p.best == "term" and p.best_months == d.months, translate(
            lang, term, months=d.months, percent=f.percent(d.percent / 100), total=f.money(d.total, cur)
        ))
        for d in p.discounts
    ]  # fmt: skip
    monthly = monthly_value = None
    if p.monthly is not None:
        m = p.monthly
        monthly_value = translate(
            lang,
            N_("%(gpus)s × %(months)s × %(price)s = %(total)s"),
            gpus=gpus_text(lang, m.gpus),
            months=translate(lang, N_("%(n)s months") if m.months != 1 else N_("%(n)s month"), n=m.months),
            price=translate(lang, PER_GPU_MONTH, price=f.money(m.price, cur)),
            total=f.money(m.total, cur),
        )
        monthly = translate(lang, N_("By the month: %(text)s"), text=monthly_value)
        monthly = _best(lang, p.best == "monthly" and p.period == "job", monthly)
    min_order, min_order_detail = _min_order(p, offer, lang, f)
    day_line = None
    if p.period == "day" and not p.min_order_applied:
        day_line = translate(
            lang,
            N_("Per day on %(gpus)s: %(money)s"),
            gpus=gpus_text(lang, p.gpus),
            money=money_span(f, p.subtotal_low, p.subtotal_high, cur),
        )
    total, total_is_range, best_term = _total(p, lang, f, term, monthly_value)
    return {
        "period": p.period,
        "configuration": _config(p, lang, f),
        "gpu_hours": f.hours(p.gpu_hours),
        "price": price,
        "unit_prices": unit_prices(offer, lang, f) if offer is not None and offer.offered else [price],
        "subtotal_label": translate(lang, period),
        "subtotal": money_span(f, p.subtotal_low, p.subtotal_high, cur),
        "discounts": discounts,
        "monthly": monthly,
        "monthly_value": monthly_value,
        "min_order": min_order,
        "min_order_detail": min_order_detail,
        "day_line": day_line,
        "exchange": exchange_text(offer, lang) if offer is not None else None,
        "total": total,
        "total_is_range": total_is_range,
        "best_term": best_term,
        "serving_min_order": serving_min_order(report, p, offer, lang, f),
        "training_min_order": training_min_order(report, p, offer, lang),
    }


def _total(
    p: Pricing, lang: str, f: Fmt, term: str, monthly_value: str | None
) -> tuple[str, bool, str | None]:
    """(the total, whether it is a range, the line under it). The total is the best price: for a job
    that renting by the month or a reserved term makes cheaper than by the GPU-hour, that price, with
    the way to pay it and the GPU-hours range at the best price of each end under it."""
    cur = p.currency.value
    total = money_span(f, p.total_low, p.total_high, cur)
    is_range = round(p.total_low) != round(p.total_high)
    if p.period != "job" or p.best == "on_demand" or p.total_likely is None:
        return total, is_range, _best_term(p, lang, f)
    if p.best == "monthly":
        way = translate(lang, N_("By the month: %(text)s"), text=monthly_value)
    else:
        percent = next(d.percent for d in p.discounts if d.months == p.best_months)
        way = translate(lang, term, months=p.best_months, percent=f.percent(percent / 100),
                        total=f.money(p.total_likely, cur))  # fmt: skip
    if is_range:
        way += "\n" + translate(lang, N_("Over the GPU-hours range: %(money)s"), money=total)
    return f.money(p.total_likely, cur), False, way


def _best(lang: str, best: bool, text: str) -> str:
    """``text`` marked as the best price ('Best price — by the month: …') when ``best``."""
    if not best:
        return text
    return translate(
        lang, N_("Best price — %(text)s"), text=text[:1].lower() + text[1:] if lang == "en" else text
    )


def _min_order(p: Pricing, offer: Offer | None, lang: str, f: Fmt) -> tuple[str | None, str | None]:
    """(the reply's line, the quote's row) when the minimum order raised the GPU count or the order is
    billed by the hour started: what the order runs on, how long, the GPU-hours billed and their cost."""
    cur = p.currency.value
    min_order = min_order_detail = None
    if p.min_order_applied and offer is not None:
        min_order_detail = translate(
            lang,
            N_("%(nodes)s: sized for %(sized)s, billed for %(billed)s"),
            nodes=min_order_nodes(offer, lang) or "",
            sized=gpus_text(lang, p.sized_gpus),
            billed=gpus_text(lang, p.gpus),
        )
        order = min_order_text(offer, lang) or ""
        if p.period == "job" and not p.hours:
            min_order = translate(
                lang,
                N_("%(order)s: runs on %(billed)s, %(time)s; billed %(hours)s GPU-hours: %(subtotal)s"),
                order=order,
                billed=gpus_text(lang, p.gpus),
                time=about(lang, p.days or 0),
                hours=f.hours(p.gpu_hours),
                subtotal=money_span(f, p.subtotal_low, p.subtotal_high, cur),
            )
        else:
            min_order = translate(
                lang,
                N_("%(order)s: billed for %(billed)s, %(subtotal)s"),
                order=order,
                billed=gpus_text(lang, p.gpus),
                subtotal=translate(
                    lang,
                    {"month": N_("%(money)s per month"), "day": N_("%(money)s per day")}.get(
                        p.period, N_("%(money)s in total")
                    ),
                    money=money_span(f, p.subtotal_low, p.subtotal_high, cur),
                ),
            )
    elif p.billed_by_node:
        min_order = translate(
            lang,
            N_("Billed by the hour started: %(hours)s GPU-hours, %(subtotal)s"),
            hours=f.hours(p.gpu_hours),
            subtotal=money_span(f, p.subtotal_low, p.subtotal_high, cur),
        )
    if min_order is not None:  # a line of its own ('• Minimum order one 8-GPU node: …')
        min_order = min_order[:1].upper() + min_order[1:]
    return min_order, min_order_detail


def serving_min_order(
    report: SizingReport, p: Pricing, offer: Offer | None, lang: str, f: Fmt
) -> dict | None:
    """A service whose minimum order raised the GPU count: what the headline and the cost line say
    instead of the sized GPUs' figures (issue 22 item 5: the headline, the configuration, the total and
    the reply say the same thing) — the order clause ('minimum order one 8-GPU node: billed for 8 GPUs,
    CN¥102,400 per month'), the month's money, and the price per million output tokens at the same
    load on the GPUs billed (the sized GPUs' price × billed ÷ sized GPUs). None otherwise."""
    inf = report.inference
    if inf is None or offer is None or p.period != "month" or not p.min_order_applied or p.sized_gpus <= 0:
        return None
    cur = p.currency.value
    month = translate(
        lang,
        N_("%(money)s per month"),
        money=scheduled(f, money_span(f, p.subtotal_low, p.subtotal_high, cur), report),
    )
    head = translate(
        lang,
        N_("%(order)s: billed for %(billed)s, %(subtotal)s"),
        order=min_order_text(offer, lang) or "",
        billed=gpus_text(lang, p.gpus),
        subtotal=month,
    )
    cpm, scale = inf.cost_per_million_tokens, p.gpus / p.sized_gpus
    return {
        "head": head,
        # beside the month's cost already in line 1 (a cost question): the order without the money
        "head_short": translate(
            lang,
            N_("%(nodes)s: sized for %(sized)s, billed for %(billed)s"),
            nodes=min_order_text(offer, lang) or "",
            sized=gpus_text(lang, p.sized_gpus),
            billed=gpus_text(lang, p.gpus),
        ),
        "per_month": scheduled(f, money_span(f, p.subtotal_low, p.subtotal_high, cur), report),
        "cpm": None if cpm is None else f.price_range(cpm.low * scale, cpm.high * scale, cpm.currency),
    }


def training_min_order(report: SizingReport, p: Pricing, offer: Offer | None, lang: str) -> dict | None:
    """A training job whose GPU count the user did not fix and a minimum order raised: the headline's
    count and time on the GPUs ordered instead of those sized (issue 22 item 5: '8 GPUs for 3.2 days
    (minimum order one 8-GPU node)', not '2 GPUs for 13 days' above an order that runs on 8), in the
    reply's number style (``fmt_for(lang)``, as bot.render.context). None otherwise."""
    if (
        report.flops is None
        or report.days is not None  # the user's own count: their headline stays theirs
        or not report.gpus_for_deadline
        or offer is None
        or p.period != "job"
        or not p.min_order_applied
        or p.gpus <= report.gpus_for_deadline
    ):
        return None
    f = fmt_for(lang)
    head = headline_count(report, p.gpus, f, p.gpus_per_node)
    head["within"] += paren(lang, min_order_text(offer, lang) or "")
    cost = report.cost_on(p.gpus)  # the GPUs ordered, not the fewest sized that recompute
    return head | ({"cost": training_cost(cost, f)} if cost is not None else {})


def _best_term(p: Pricing, lang: str, f: Fmt) -> str | None:
    """The cheapest way to pay that is cheaper than the total, named under it: the longest reserved
    term ('with the 12-month term: ¥183,960 per month') or renting by the month for a long job."""
    cur = p.currency.value
    options: list[tuple[float, str]] = []
    per_month = p.period == "month"
    for d in p.discounts:
        scale = 1 - d.percent / 100
        text = (
            f.money(d.total, cur)
            if per_month or p.total_low == p.total_high
            else money_span(f, p.total_low * scale, p.total_high * scale, cur)
        )
        if per_month:
            text = translate(lang, N_("%(money)s per month"), money=text)
        options.append((d.total, translate(lang, N_("with the %(months)s-month term: %(total)s"),
                                           months=d.months, total=text)))  # fmt: skip
    if p.monthly is not None and p.period == "job" and p.monthly.total < p.subtotal_low - 0.005:
        options.append((p.monthly.total, translate(lang, N_("By the month: %(text)s"),
                                                   text=f.money(p.monthly.total, cur))))  # fmt: skip
    cheaper = [o for o in options if o[0] < p.subtotal_low - 0.005]
    return min(cheaper)[1] if cheaper else None


def _priced(report: SizingReport) -> bool:
    """Whether the answer carries a price (a Mac or an unknown card has none)."""
    inf = report.inference
    return report.cost is not None or (inf is not None and inf.cost_per_month is not None)


def offer_lines(report: SizingReport, offer: Offer | None, lang: str) -> dict[str, Any] | None:
    """What the reply says about the offer: the 'not offered' line, or the offer's prices and terms and
    the figures the quote repeats. None without a pre-sales offer."""
    if offer is None:
        return None
    gpu = gpu_names(report)[0]
    if not offer.offered:
        families = [fam for fam in offer.families if fam != offer.family][:4]
        return {
            "not_offered": translate(
                lang,
                NOT_IN_OFFER if _priced(report) else NOT_IN_OFFER_UNPRICED,
                gpu=gpu,
                provider=offer.provider,
                offered=fmt_for(lang).sep.join(families) or "—",
            )
            if offer.families
            else None,
            "prices": None,
            "figures": figures(report, offer, lang),
        }
    f = reply_fmt(report, lang)
    terms = unit_prices(offer, lang, f)
    extras = [
        t
        for t in (min_order_text(offer, lang), offer.availability.text(lang) if offer.availability else None)
        if t
    ]
    prices = translate(
        lang,
        N_("%(provider)s: %(gpu)s at %(prices)s"),
        provider=offer.provider,
        gpu=gpu,
        prices=f.sep.join(terms),
    )
    if extras:
        prices += f.clause_sep + f.clause_sep.join(extras)
    return {"not_offered": None, "prices": prices, "figures": figures(report, offer, lang)}
