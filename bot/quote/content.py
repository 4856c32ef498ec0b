"""What a quote says, as text in the answer's language (pure): built from the same pieces as the reply
(:mod:`bot.render.offer_text`, the reply's headline, the assumption ledger), so every number on the PDF
is the one the customer saw in the chat."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field

from bot.core.pipeline import Answer
from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.notes import assumption_rows
from bot.render.offer_text import figures, min_order_nodes
from bot.render.renderer import render
from bot.settings.localized import text_for
from estimator.models import SizingReport

KEY_FIELDS = (
    "gpu",
    "architecture",
    "params_total",
    "precision",
    "mfu",
    "deadline_days",
    "seq_len",
    "context",
    "concurrency",
    "lora_rank",
    "epochs",
    "tokens_per_sample",
    "price_per_gpu_hour",
)
"""Ledger entries a quote repeats as its key assumptions (in this order, those present)."""
MAX_ASSUMPTIONS = 5

LABELS = {
    "title": N_("Quote"),
    "date": N_("Date"),
    "valid": N_("Valid until"),
    "number": N_("Quote no."),
    "question": N_("Your question"),
    "answer": N_("Our answer"),
    "gpu": N_("GPU"),
    "availability": N_("Availability"),
    "configuration": N_("Configuration"),
    "gpu_hours": N_("GPU-hours"),
    "price": N_("Price per unit"),
    "discounts": N_("Reserved terms"),
    "monthly": N_("Monthly rental"),
    "min_order": N_("Minimum order"),
    "exchange": N_("Exchange rate"),
    "total": N_("Total (range)"),
    "total_one": N_("Total"),
    "assumptions": N_("Key assumptions"),
    "method": N_("Method"),
    "contact": N_("Contact"),
    "not_offered": N_("not offered"),
    "named": N_("GPU you named"),
    "offered": N_("We offer"),
    "footer": N_(
        "An estimate from the published formulas and the assumptions above, not a bill: the final price "
        "follows the actual usage and the order."
    ),
}

NAMED_NOT_OFFERED = N_(
    "%(gpu)s is not in %(provider)s's offer: this quote is for %(offered)s, the offered GPU that fits"
)

METHODS = {
    "training": N_(
        "Training compute C = %(formula)s; GPU-hours = C ÷ (dense peak × MFU × 3,600); "
        "cost = GPU-hours × price per GPU-hour."
    ),
    "serving": N_(
        "Weights + KV cache per GPU give the GPU count; decode speed from memory bandwidth; cost = GPUs × "
        "730 hours a month × price per GPU-hour."
    ),
    "memory": N_(
        "Memory per GPU = weights + gradients + optimizer states (ZeRO-sharded) + activations + overhead; "
        "cost = GPUs × 24 hours × price per GPU-hour per day."
    ),
    "rental": N_("GPU-hours = GPUs × hours; cost = GPU-hours × price per GPU-hour."),
}


@dataclass(frozen=True)
class QuoteContent:
    """Every text on the page, in the quote's language."""

    lang: str
    provider: str
    website: str | None
    contact: str | None
    title: str
    number: str
    date: str
    valid_until: str
    question: str
    answer: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    """(label, value) of the figures table, in order."""
    total_label: str = ""
    total: str = ""
    assumptions: list[str] = field(default_factory=list)
    method: str = ""
    note: str | None = None
    footer: str = ""
    labels: dict[str, str] = field(default_factory=dict)


def quote_number(question: str, answer: Answer, day: dt.date) -> str:
    """A short reference: the date and a digest of the question and its sizing (the same question on
    the same day gets the same number)."""
    request = answer.report.request.model_dump_json() if answer.report else ""
    digest = hashlib.sha256(f"{question}|{request}".encode()).hexdigest()[:6].upper()
    return f"Q-{day:%Y%m%d}-{digest}"


def _kind(answer: Answer) -> str:
    r = answer.report
    assert r is not None
    if r.inference is not None:
        return "serving"
    if r.request.hours:
        return "rental"
    if r.flops is not None:
        return "training"
    return "memory"


def _method(answer: Answer) -> str:
    """The method line for this answer's stage only: 'C = 4·N·D' on a LoRA quote, never another
    stage's formula."""
    report = answer.report
    assert report is not None
    kind = _kind(answer)
    if kind != "training":
        return translate(answer.lang, METHODS[kind])
    formula = report.flops_formula or "6ND"
    return translate(answer.lang, METHODS[kind], formula="·".join(formula))  # 6ND → 6·N·D


COMMAND = re.compile(r"\s*[(（][^()（）]*\bsizing-bot\b[^()（）]*[)）]|[;；,，]?\s*\(?sizing-bot [a-z-]+\)?")
"""A command name in a ledger text ("… (sizing-bot validate)"): for the operator, not the customer."""


def customer_text(text: str) -> str:
    """``text`` without command names: a customer document names no tool to run."""
    return " ".join(COMMAND.sub("", text).split())


def headline(answer: Answer, fig: dict | None) -> str:
    """The reply's headline, and where the order changes it (a minimum order, whole node-hours), the
    reply's line that says so: the configuration and total below then tell the same story."""
    reply = render(answer, "text")
    line = reply.splitlines()[0] if reply else ""
    if fig is not None and fig["min_order"]:
        sep = "。" if answer.lang == "zh" else ". "
        order = fig["min_order"]
        line = f"{line.rstrip('。.')}{sep}{order[:1].upper()}{order[1:]}"  # a sentence of its own
    return line


def _assumptions(report: SizingReport, lang: str, fig: dict | None) -> list[str]:
    """The key assumptions (:data:`KEY_FIELDS`, at most :data:`MAX_ASSUMPTIONS`), in customer words."""
    ledger = assumption_rows(report, lang)  # one row per report.assumptions entry, in order
    sep = "：" if lang == "zh" else ": "
    picked = []
    for key in KEY_FIELDS:
        if key == "deadline_days" and (
            not report.gpus_for_deadline or report.days is not None or (fig and fig["min_order_detail"])
        ):
            continue  # the deadline did not set the GPU count quoted: not part of this quote's story
        i = next((i for i, a in enumerate(report.assumptions) if a.field == key), None)
        if i is not None:
            row = ledger[i]
            picked.append(customer_text(f"{row['label']}{sep}{row['value']} — {row['source']}"))
    return picked[:MAX_ASSUMPTIONS]


def build(answer: Answer, question: str, today: dt.date | None = None) -> QuoteContent:
    """The quote's texts for an answer with an offer (``answer.offer``) and a report. A GPU the customer
    named that the provider does not sell is quoted on the offered GPU that fits (``answer.offered``),
    and the quote says so."""
    instead = None
    if answer.offered is not None and answer.offered_terms is not None and answer.report is not None:
        named = gpu_names(answer.report)[0]
        answer = answer.model_copy(
            update={"report": answer.offered, "offer": answer.offered_terms, "comparisons": []}
        )
        instead = translate(
            answer.lang, NAMED_NOT_OFFERED, gpu=named, provider=answer.offer.provider,
            offered=gpu_names(answer.offered)[0],
        )  # fmt: skip
    report, offer, lang = answer.report, answer.offer, answer.lang
    assert report is not None and offer is not None
    day = today or dt.date.today()

    def t(key: str, **values: object) -> str:
        return translate(lang, LABELS[key], **values)

    fig = figures(report, offer, lang)
    gpu = gpu_names(report)[0]
    rows: list[tuple[str, str]] = []
    if instead is not None:
        rows.append((t("named"), instead))
    rows.append((t("gpu"), gpu if offer.offered else f"{gpu} ({t('not_offered')})"))
    if not offer.offered and offer.families:
        rows.append((t("offered"), (fmt_for(lang).sep).join(offer.families)))
    if offer.availability is not None:
        rows.append((t("availability"), offer.availability.text(lang)))
    if fig is not None:
        rows.append((t("configuration"), fig["configuration"]))
        rows.append((t("gpu_hours"), fig["gpu_hours"]))
        rows.append((t("price"), "\n".join(fig["unit_prices"])))
        if fig["exchange"]:
            rows.append((t("exchange"), fig["exchange"]))
        order = min_order_nodes(offer, lang)
        if fig["min_order_detail"]:
            rows.append((t("min_order"), fig["min_order_detail"]))
        elif order:
            rows.append((t("min_order"), order))
        rows.append((fig["subtotal_label"], fig["subtotal"]))
        if fig["monthly_value"]:
            rows.append((t("monthly"), fig["monthly_value"]))
        if fig["discounts"]:
            rows.append((t("discounts"), "\n".join(fig["discounts"])))
    picked = _assumptions(report, lang, fig)
    total_label = t("total") if fig is not None and fig["total_is_range"] else t("total_one")
    return QuoteContent(
        lang=lang,
        provider=offer.provider,
        website=offer.website,
        contact=text_for(offer.contact, lang),
        title=t("title"),
        number=quote_number(question, answer, day),
        date=day.isoformat(),
        valid_until=(day + dt.timedelta(days=offer.valid_days)).isoformat(),
        question=" ".join(question.split()),
        answer=headline(answer, fig),
        rows=rows,
        total_label=total_label,
        total=(fig["total"] + (f"\n{fig['best_term']}" if fig["best_term"] else ""))
        if fig is not None
        else "—",
        assumptions=picked,
        method=_method(answer),
        note=offer.note.text(lang) if offer.note is not None else None,
        footer=t("footer"),
        labels={
            k: t(k)
            for k in ("date", "valid", "number", "question", "answer", "assumptions", "method", "contact")
        },
    )
