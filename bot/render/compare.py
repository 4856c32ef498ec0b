"""Comparison rows ("A100 vs H100"): one line per GPU and the cheapest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.cheapest import cheapest_index
from bot.core.compare_currency import own_price_only, same_cost, serving_tied
from bot.core.serving_rank import DECODE_FLOOR_TPS, holds_load, monthly_load
from bot.later_names import fp16_mark
from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for, money_span
from bot.render.headline_parts import _days_on, headline_days
from bot.render.i18n import N_, translate
from bot.render.sections import paid_row, shown_gpu_hours
from estimator import catalog
from estimator.models import SizingReport

if TYPE_CHECKING:
    from bot.parse import ParseResult
from estimator.money_kinds import Currency
from estimator.variant_prices import variant_price

NOT_OFFERED_MARK = N_(" (not offered)")


def named_order(reports: list[SizingReport], named: list[str | None]) -> list[SizingReport]:
    """The reports in the order the question named their GPUs ("A100 vs H100": A100 first)."""
    return sorted(reports, key=lambda r: named.index(r.request.gpu) if r.request.gpu in named else len(named))


def cheapest(reports: list[SizingReport], lang: str, families: list[str] | None = None) -> str | None:
    """'Lowest cost of the whole job: H100, ¥730,650 – ¥1,948,400 at ¥15–40 per GPU-hour (64 GPUs for ≈ 12
    days)' when the question compared GPUs and all have a cost;
    among ``families`` (the provider's offered GPUs) when given."""
    i = cheapest_index(reports, families)
    return cheapest_line(reports[i], lang) if i is not None else None


def cheapest_line(
    best: SizingReport | None, lang: str, cents: bool = False, slow: SizingReport | None = None
) -> str | None:
    """The verdict line for ``best``, the cheapest compared option core chose
    (:attr:`bot.core.answer.Answer.cheapest_index`); None when there is none. ``cents``: the rows' money
    style (bot.render.row_time.rows_cents). ``slow``: a cheaper month the speed floor passed over
    (:func:`bot.core.serving_rank.cheaper_but_slow`), named with its speed."""
    if best is None:
        return None
    f = fmt_for(lang, cents)
    if best.inference is not None and monthly_load(best):  # the same stated load on each (trial s25 #4)
        c, inf = best.inference.cost_per_month, best.inference
        msgid = N_("Cheapest for this load: %(gpu)s (%(month)s a month for %(batch)s concurrent)")
        if slow is not None and slow.inference and slow.inference.decode_tokens_per_s:  # s26 trial 2 #8
            msgid = N_(
                "Cheapest for this load at ≥ %(floor)s tokens/s per sequence: %(gpu)s (%(month)s a month "
                "for %(batch)s concurrent); %(slow)s costs less a month but decodes ≈ %(speed)s tokens/s "
                "per sequence"
            )
            month = money_span(f, c.low, c.high, c.currency)
            return translate(
                lang, msgid, gpu=gpu_names(best)[0], month=month, batch=f.int(inf.concurrency),
                floor=f.int(DECODE_FLOOR_TPS), slow=gpu_names(slow)[0],
                speed=f.num(slow.inference.decode_tokens_per_s.per_sequence, 1),
            )  # fmt: skip
        if not holds_load(best):  # none holds it: the most of it per money (bot.core.serving_rank)
            msgid = N_(
                "None of these holds %(batch)s concurrent; the most of it for the money: %(gpu)s "
                "(%(held)s of %(batch)s for %(month)s a month)"
            )
        month = money_span(f, c.low, c.high, c.currency)
        return translate(
            lang, msgid, gpu=gpu_names(best)[0], month=month, batch=f.int(inf.concurrency),
            held=f.int(inf.max_concurrency),
        )  # fmt: skip
    if best.inference is not None:
        c = best.inference.cost_per_million_tokens
        assert c is not None
        span = f.price_range(c.low, c.high, c.currency)
        batch = best.inference.priced_concurrency
        if batch:  # the load the price is at (item 7: a price per token depends on it)
            msgid = N_(
                "Cheapest per token: %(gpu)s (%(cost)s per million output tokens at %(batch)s concurrent)"
            )
            return translate(lang, msgid, gpu=gpu_names(best)[0], cost=span, batch=f.int(batch))
        msgid = N_("Cheapest per token: %(gpu)s (%(cost)s per million output tokens)")
        return translate(lang, msgid, gpu=gpu_names(best)[0], cost=span)
    c, bought = best.headline_cost, best.tokens_for_budget
    if c is None and bought is not None:  # what a budget trains: the most tokens (bot.core.offer, s24 #12)
        msgid = N_("Most training for the budget: %(gpu)s, about %(tokens)s tokens")
        return translate(lang, msgid, gpu=gpu_names(best)[0], tokens=f.tokens(bought.likely))
    assert c is not None
    # what is compared (s16 item 4): the whole job's cost at the prices used, on the count and days shown
    params = {"gpu": gpu_names(best)[0], "cost": money_span(f, c.low, c.high, c.currency)}
    params["price"] = f.price_range(c.price_low, c.price_high, c.currency)
    count = best.days.gpus if best.days is not None else best.gpus_for_deadline
    if not count:
        msgid = N_("Lowest cost of the whole job: %(gpu)s, %(cost)s at %(price)s per GPU-hour")
        return translate(lang, msgid, **params)
    from bot.render.row_time import short_time  # imported when used: start-up (s26)

    if time := short_time(best, count, f):  # under a day: hours or minutes (review s25 item 6)
        msgid = N_(
            "Lowest cost of the whole job: %(gpu)s, %(cost)s at %(price)s per GPU-hour "
            "(%(gpus)s GPUs, %(time)s)"
        )
        return translate(lang, msgid, gpus=f.int(count), time=time, **params)
    msgid = N_(
        "Lowest cost of the whole job: %(gpu)s, %(cost)s at %(price)s per GPU-hour "
        "(%(gpus)s GPUs for ≈ %(days)s days)"
    )
    return translate(lang, msgid, gpus=f.int(count), days=headline_days(best, count, f), **params)


def tie_line(reports: list[SizingReport], best: int | None, lang: str) -> str | None:
    """'Same cost on A100 PCIe 80G and A100 80G: …' when the cheapest training option's cost equals
    another's (s17 trial t2: identical figures named 'Lowest cost: PCIe'), or a serving option's cost per
    million output tokens (:func:`_serving_tie`, s19); None otherwise."""
    if best is not None and reports[best].inference is not None:
        return _serving_tie(reports, best, lang)
    if best is None or (c := reports[best].headline_cost) is None:
        return None
    tied = [r for r in reports if r.headline_cost is not None and same_cost(r.headline_cost, c)]
    if len(tied) < 2:
        return None
    f = fmt_for(lang)
    names = "、".join if lang == "zh" else " and ".join
    msgid = N_("A tie: %(gpus)s cost the same, %(cost)s at %(price)s per GPU-hour")
    return translate(
        lang,
        msgid,
        gpus=names(gpu_names(r)[0] for r in tied),
        cost=money_span(f, c.low, c.high, c.currency),
        price=f.price_range(c.price_low, c.price_high, c.currency),
    )


def _serving_tie(reports: list[SizingReport], best: int, lang: str) -> str | None:
    """'A tie: A100 80G and A800 cost the same per token, …' when the cheapest serving option's cost per
    million output tokens equals another's (:func:`bot.core.compare_currency.serving_tied` decides);
    None otherwise."""
    tied = serving_tied(reports, best)
    if not tied:
        return None
    c = tied[0].inference.cost_per_million_tokens
    names = "、".join if lang == "zh" else " and ".join
    msgid = N_("A tie: %(gpus)s cost the same per token, %(cost)s per million output tokens")
    span = fmt_for(lang).price_range(c.low, c.high, c.currency)
    return translate(lang, msgid, gpus=names(gpu_names(r)[0] for r in tied), cost=span)


def unpriced_line(reports: list[SizingReport], lang: str) -> str | None:
    """'No lowest-cost verdict: no CNY price on file for MI300X' — options compared where some have a cost
    and some that hold the job have none in the answer's currency (s16 item 4: '8x H100 vs 16x A100 vs 8x
    MI300X … 哪个便宜' named no winner and no reason; s17-2 #2: one priced only in the other currency counts
    as unpriced here; serving too, s26 trial 2 #8: '哪种卡最便宜' with no CNY price for H200 had no
    headline); None otherwise."""
    if len(reports) < 2 or len({r.inference is None for r in reports}) > 1:
        return None
    held = [r for r in reports if _fits(r) and holds_load(r)]
    currency = reports[0].request.currency  # an option priced in another currency has none in this one
    missing = [r for r in held if (c := _cost_of(r)) is None or c.currency != currency]
    if not missing or len(missing) == len(held):
        return None
    names = "、".join if lang == "zh" else ", ".join
    msgid = N_("No lowest-cost verdict: no %(currency)s price on file for %(gpus)s")
    return translate(
        lang, msgid, currency=currency.value if currency else "", gpus=names(gpu_names(r)[0] for r in missing)
    )


def _cost_of(report: SizingReport):  # a Cost or a price per million tokens: both carry a currency
    """The option's cost compared: the job's, or serving's price per million output tokens."""
    return report.inference.cost_per_million_tokens if report.inference is not None else report.headline_cost


def own_price_line(reports: list[SizingReport], lang: str, parsed: ParseResult) -> str | None:
    """'No lowest-cost verdict: your price per GPU-hour is for A100 80G; A800 at the catalog's range' when
    the message's price is only some options' (:func:`bot.core.compare_currency.own_price_only`, s19);
    None otherwise."""
    said = "price_per_gpu_hour" in parsed.found or parsed.gpu_alternative_prices != {}  # s37: another card's
    if not said or not own_price_only(reports):  # (no call before: render's call count)
        return None
    names = "、".join if lang == "zh" else ", ".join
    own = names(gpu_names(r)[0] for r in reports if r.request.price_per_gpu_hour is not None)
    other = names(gpu_names(r)[0] for r in reports if r.request.price_per_gpu_hour is None)
    msgid = N_(
        "No lowest-cost verdict: your price per GPU-hour is for %(own)s; %(other)s at the catalog's price "
        "range, not comparable with it (give each card's price to compare them)"
    )
    return translate(lang, msgid, own=own, other=other)


def offered_mark(report: SizingReport, lang: str, families: list[str] | None) -> str:
    """' (not offered)' after a GPU the provider does not offer (nothing without an offer)."""
    if not families or catalog.family_of(report.request.gpu) in families:
        return ""
    return translate(lang, NOT_OFFERED_MARK)


PRICED_TPS = N_(" (≈ %(tps)s tokens/s in total)")
"""The output tokens/s a price per million tokens assumes, after the price (templates/_inference.j2 too)."""


def _serving_row(
    report: SizingReport, lang: str, mark: str = "", table: Currency | None = None
) -> str | None:
    """'H100 80G: 4 GPUs, ≈ 2,400 tokens/s in total, $1.10–2.50 per million output tokens'; no price and
    'no USD price on file' when it has none in the table's currency ``table``."""
    inf = report.inference
    if inf is None or inf.decode_tokens_per_s is None:
        return None
    f = fmt_for(lang)
    params = {
        "gpu": gpu_names(report)[0] + mark,
        "gpus": f.int(inf.serving_gpus),
        "tps": f.int(inf.decode_tokens_per_s.aggregate),
    }
    c = inf.cost_per_million_tokens
    if c is None or (table is not None and c.currency != table):  # one currency a table (trial s18 #3)
        if table is None:
            return translate(lang, N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total"), **params)
        msgid = N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total; no %(currency)s price on file")
        return translate(lang, msgid, currency=table.value, **params)
    cpm = f.price_range(c.low, c.high, c.currency)
    if inf.priced_concurrency and inf.priced_concurrency > inf.concurrency:  # priced at the most they hold
        msgid = N_(
            "%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total (%(conc)s concurrent); %(cpm)s per million "
            "output tokens with %(batch)s, the most they hold"
        )
        conc, batch = f.int(inf.decode_tokens_per_s.batch), f.int(inf.priced_concurrency)
        row = translate(lang, msgid, cpm=cpm, conc=conc, batch=batch, **params)
        if inf.priced_tokens_per_s:  # the throughput that price assumes, not the 16 sequences'
            row += translate(lang, PRICED_TPS, tps=f.int(inf.priced_tokens_per_s))
        return row
    msgid = N_("%(gpu)s: %(gpus)s GPUs, ≈ %(tps)s tokens/s in total, %(cpm)s per million output tokens")
    row = translate(lang, msgid, cpm=cpm, **params)
    if monthly_load(report):  # the stated load's month: what the cheapest line compares (trial s25 #4)
        m = inf.cost_per_month
        row += translate(lang, N_("; %(month)s a month"), month=money_span(f, m.low, m.high, m.currency))
    return row


SHORT_LOAD = N_("; room for %(held)s of the %(asked)s concurrent sequences")
"""After a serving option's row when its stated GPUs hold fewer sequences than asked ('8x L40S or 4x
H100' for 10 users at 128K: 3 of 10 each)."""


def _short_load(report: SizingReport, lang: str) -> str:
    """:data:`SHORT_LOAD` when the option's GPUs hold fewer concurrent sequences than the question asks
    (``inference.max_concurrency`` below ``inference.concurrency``); '' otherwise."""
    inf = report.inference
    if (
        inf is None
        or inf.max_concurrency is None
        or not inf.concurrency
        or inf.max_concurrency >= inf.concurrency
    ):
        return ""
    f = fmt_for(lang)
    return translate(lang, SHORT_LOAD, held=f.int(inf.max_concurrency), asked=f.int(inf.concurrency))


def at_count_row(report: SizingReport, lang: str, mark: str = "", cents: bool = False) -> str | None:
    """'H100 80G: 2.3K H100-hours, 8 GPUs ≈ 12 days, $3,520 – $8,214': the option at the count the user
    stated for its card ('8x H100 or 16x A100 40GB'), never a count of the bot's; None without days.
    Under a day the time is in hours or minutes (:func:`bot.render.row_time.short_time`); ``cents``: the
    rows' money style."""
    count, gh = report.request.gpu_count, report.gpu_hours
    if not count or gh is None:
        return None
    f = fmt_for(lang, cents)
    gpu, family, _ = gpu_names(report)
    if not _fits(report):  # days on GPUs that cannot hold the job are no option's days
        least = report.memory.min_gpus if report.memory is not None else None
        msgid = N_("%(gpu)s: %(gpus)s GPUs do not hold the job (at least %(min)s needed)")
        if least is None:
            msgid = N_("%(gpu)s: %(gpus)s GPUs do not hold the job")
        return translate(lang, msgid, gpu=gpu + mark, gpus=f.int(count), min=f.int(least or 0))
    from bot.render.row_time import short_time  # imported when used: start-up (s26)

    # the billed whole GPU-hours the cost line bills (s25: '320 H100-hours' beside a headline's 321)
    params = {"gpu": gpu + mark, "gh": f.compact(shown_gpu_hours(gh.likely)), "fam": family,
              "gpus": f.int(count), "days": headline_days(report, count, f),
              "time": short_time(report, count, f)}  # fmt: skip
    cost = report.cost
    if cost is None:
        msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, %(gpus)s GPUs ≈ %(days)s days")
        msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, %(gpus)s GPUs, %(time)s") if params["time"] else msgid
        return translate(lang, msgid, **params)
    msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, %(gpus)s GPUs ≈ %(days)s days, %(cost)s")
    msgid = (
        N_("%(gpu)s: %(gh)s %(fam)s-hours, %(gpus)s GPUs, %(time)s, %(cost)s") if params["time"] else msgid
    )
    return translate(lang, msgid, cost=money_span(f, cost.low, cost.high, cost.currency), **params)


def _fits(report: SizingReport) -> bool:
    """Whether the job fits the option's stated GPUs (no memory answer: nothing says it does not)."""
    return report.memory is None or report.memory.fits_requested is not False


def first_line(reports: list[SizingReport], lang: str) -> str | None:
    """'Finishes first: 16 × H100 80G (≈ 102 days; 32 × A100 40G ≈ 113 days)': which option the user
    asked to choose between ('which finishes first', '哪个快', '还是') ends first, each at its stated
    count (days = GPU-hours ÷ GPUs ÷ 24, the rows' figures); None unless every option has days."""
    f = fmt_for(lang)
    timed: list[tuple[float, str, str]] = []
    unfit: list[str] = []
    for r in reports:
        count = r.request.gpu_count
        days = _days_on(r, count) if count else None
        if days is None or r.inference is not None:
            return None
        setup = f"{f.int(count)} × {gpu_names(r)[0]}"
        if _fits(r):
            timed.append((days, setup, headline_days(r, count, f)))
        else:
            unfit.append(translate(lang, N_("%(setup)s does not hold the job"), setup=setup))
    if not timed or len(timed) + len(unfit) < 2:
        return None
    best = min(range(len(timed)), key=lambda i: timed[i][0])
    others = [translate(lang, N_("%(setup)s ≈ %(days)s days"), setup=s, days=d)
              for i, (_, s, d) in enumerate(timed) if i != best] + unfit  # fmt: skip
    first, setup, days = timed[best]
    sep = "；" if lang == "zh" else "; "
    fit = [r for r in reports if _fits(r)]
    tied = [i for i, t in enumerate(timed) if i != best and t[0] <= first * (1 + TIE)]
    if tied:  # s42 (s41 trial #9): no winner within the figures' rounding; say which MFU is assumed
        line = translate(lang, SAME_TIME, setup=setup, days=days, others=sep.join(others))
        return line + next((x for i in (best, *tied) if (x := _assumed_winner(fit[i], fit, lang, SAME))), "")
    msgid = N_("Finishes first: %(setup)s (≈ %(days)s days; %(others)s)")
    line = translate(lang, msgid, setup=setup, days=days, others=sep.join(others))
    return line + _assumed_winner(fit[best], fit, lang)


TIE = 0.02
"""Options whose days are within 2 % of the fastest finish at about the same time: below the MFU model's
own resolution (its 80 % interval spans ×0.76–×1.60 of the likely GPU-hours), so no winner is named."""
SAME_TIME = N_("About the same time: %(setup)s (≈ %(days)s days; %(others)s)")
SAME = N_(" — %(gpu)s's MFU is assumed (%(mfu)s: no published runs on it to calibrate)")


def _assumed_winner(winner: SizingReport, reports: list[SizingReport], lang: str, msgid: str = "") -> str:
    """' — the winner rests on an assumed MFU for MI300X (30 %: no published runs on it)' when the fastest
    option's MFU is the uncalibrated default (estimator.efficiency: Why.mfu_uncalibrated) and another
    option's is calibrated (s15 trial #5: MI300X at a default 30 % beat H100's calibrated 28 %); else ''."""

    def assumed(r: SizingReport) -> float | None:
        a = next((a for a in r.assumptions if a.field == "mfu"), None)
        uncalibrated = a is not None and a.why in ("mfu_uncalibrated", "mfu_cdna3")  # s42: CDNA3 derived
        return float(a.value) if uncalibrated and a.value else None

    mfu = assumed(winner)
    if mfu is None or all(assumed(r) is not None for r in reports):
        return ""
    from estimator.shown_cost import shown_figures  # the MFU the body states (s38 fixt2 #3: 30 % vs 20 %)

    if (shown := shown_figures(winner)) is not None and shown["mfu"] is not None:
        mfu = shown["mfu"].likely  # the assumed MFU as used: full recompute's ×1/1.5 included
    msgid = msgid or N_(
        " — the winner rests on an assumed MFU for %(gpu)s (%(mfu)s: no published runs on it to calibrate)"
    )
    return translate(lang, msgid, gpu=gpu_names(winner)[0], mfu=f"{mfu:.0%}")


def budget_row(report: SizingReport, lang: str, mark: str = "") -> str | None:
    """'A800: 33.3K A800-hours for the budget, about 1.9T tokens': what the budget buys on this card when
    the question asks what a budget trains ('预算 50 万 … 用 910B 还是 A800'), never a GPU count it did not
    ask for (GPU-hours = budget ÷ price per GPU-hour; tokens = GPU-hours × peak × MFU × 3,600 ÷ 6N)."""
    hours, tokens = report.budget_gpu_hours, report.tokens_for_budget
    if hours is None or tokens is None or report.flops is not None:
        return None
    f = fmt_for(lang)
    gpu, family, _ = gpu_names(report)
    msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours for the budget, about %(tokens)s tokens")
    return translate(
        lang, msgid, gpu=gpu + mark, gh=f.compact(hours.likely), fam=family, tokens=f.tokens(tokens.likely)
    )


def comparison_row(
    report: SizingReport,
    lang: str,
    families: list[str] | None = None,
    at_count: bool = False,
    table: Currency | None = None,
    cents: bool = False,
) -> str:
    """One line sizing the same question on another GPU ("A100 vs H100"); a GPU outside the provider's
    ``families`` is marked "not offered"; ``at_count``: each option at the count stated for its card
    (:func:`at_count_row`); ``table``: the table's currency (a serving option priced in none is said so);
    ``cents``: the rows' money style (:func:`bot.render.row_time.rows_cents`)."""
    mark = offered_mark(report, lang, families)
    serving = _serving_row(report, lang, mark + fp16_mark(report, lang), table)  # V100/T4 in fp16 (s33)
    if serving is not None:
        return serving + (_short_load(report, lang) if at_count else "")
    m = report.memory  # their count that does not hold the job: no days (s34 #2; _fits inlined: call count)
    own = at_count or (m is not None and m.fits_requested is False and report.request.gpu_count is not None)
    stated = (at_count_row(report, lang, mark, cents) if own else None) or budget_row(report, lang, mark)
    if stated is not None:
        return stated
    f = fmt_for(lang, cents)
    gpu, family, _ = gpu_names(report)
    gpu += mark
    gh, cost = report.gpu_hours, report.cost
    # the user's count when they gave one (s17 trial t2: "about 1 GPU for 0.3 days" beside their 8)
    need = (report.days.gpus if report.days is not None else None) or report.gpus_for_deadline
    paid = paid_row(report, need or 0)  # the fewest GPUs recomputing: their own GPU-hours and cost
    gh, cost = (paid.gpu_hours, report.headline_cost) if paid is not None else (gh, cost)
    if gh is not None and need:
        from bot.render.row_time import short_time  # imported when used: start-up (s26)

        params = {"gpu": gpu, "gh": f.compact(shown_gpu_hours(gh.likely)), "fam": family, "gpus": f.int(need),
                  "days": headline_days(report, need, f), "time": short_time(report, need, f)}  # fmt: skip
        if cost is None:
            msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days")
            msgid = (
                N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs, %(time)s")
                if params["time"]
                else msgid
            )
            return translate(lang, msgid, **params)
        cost_text = money_span(f, cost.low, cost.high, cost.currency)
        msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs for %(days)s days, %(cost)s")
        if params["time"]:  # under a day: hours or minutes (review s25 item 6)
            msgid = N_("%(gpu)s: %(gh)s %(fam)s-hours, about %(gpus)s GPUs, %(time)s, %(cost)s")
        return translate(lang, msgid, cost=cost_text, **params)
    low, high = None, None
    if report.inference is not None:
        low, high = report.inference.min_gpus, report.inference.recommended_gpus
    elif report.memory is not None and report.memory.min_gpus:
        low, high = report.memory.min_gpus, report.memory.recommended_gpus
    if low is None:
        return translate(lang, N_("%(gpu)s: does not fit"), gpu=gpu)
    if high and high != low:
        return translate(
            lang,
            N_("%(gpu)s: at least %(min)s, %(rec)s recommended"),
            gpu=gpu,
            min=f.int(low),
            rec=f.int(high),
        )
    return translate(lang, N_("%(gpu)s: %(min)s needed"), gpu=gpu, min=f.int(low))


def currency_note(
    reports: list[SizingReport], table: Currency | None, asked: Currency, lang: str
) -> str | None:
    """'All prices in USD: no CNY price on file for H200, MI300X' when the table's currency (trial s18 #3:
    one currency a table, :mod:`bot.core.compare_currency`) is not the one the conversation asks in,
    naming the cards with no price in that one; None otherwise."""
    if table is None or table == asked:
        return None
    gpus = catalog.gpus()
    missing = [
        gpu_names(r)[0]
        for r in reports
        if r.request.gpu in gpus and variant_price(gpus[r.request.gpu], asked) is None
    ]
    if not missing:
        return None
    names = "、".join if lang == "zh" else ", ".join
    msgid = N_("All prices in %(currency)s: no %(asked)s price on file for %(gpus)s")
    return translate(lang, msgid, currency=table.value, asked=asked.value, gpus=names(missing))
