"""What a quote says, as text in the answer's language (pure): built from the same pieces as the reply
(:mod:`bot.render.offer_text`, the reply's headline, the assumption ledger), so every number on the PDF
is the one the customer saw in the chat."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field

from bot.core.pipeline import Answer
from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate
from bot.render.notes import assumption_rows
from bot.render.offer_text import figures, min_order_nodes
from bot.render.renderer import render
from bot.settings.presales import text_for

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
    "offered": N_("We offer"),
    "footer": N_(
        "An estimate from the published formulas and the assumptions above, not a bill: the final price "
        "follows the actual usage and the order."
    ),
}

METHODS = {
    "training": N_(
        "Training compute C = 6·N·D (4·N·D for LoRA/QLoRA); GPU-hours = C ÷ (dense peak × MFU × 3,600); "
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


def build(answer: Answer, question: str, today: dt.date | None = None) -> QuoteContent:
    """The quote's texts for an answer with an offer (``answer.offer``) and a report."""
    report, offer, lang = answer.report, answer.offer, answer.lang
    assert report is not None and offer is not None
    day = today or dt.date.today()

    def t(key: str, **values: object) -> str:
        return translate(lang, LABELS[key], **values)

    fig = figures(report, offer, lang)
    gpu = gpu_names(report)[0]
    rows: list[tuple[str, str]] = []
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
        if fig["discounts"]:
            rows.append((t("discounts"), "\n".join(fig["discounts"])))
        if fig["monthly_value"]:
            rows.append((t("monthly"), fig["monthly_value"]))
    reply = render(answer, "text")
    ledger = assumption_rows(report, lang)  # one row per report.assumptions entry, in order
    sep = "：" if lang == "zh" else ": "
    picked = []
    for key in KEY_FIELDS:
        i = next((i for i, a in enumerate(report.assumptions) if a.field == key), None)
        if i is not None:
            row = ledger[i]
            picked.append(f"{row['label']}{sep}{row['value']} — {row['source']}")
    picked = picked[:MAX_ASSUMPTIONS]
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
        answer=reply.splitlines()[0] if reply else "",
        rows=rows,
        total_label=total_label,
        total=(fig["total"] + (f"\n{fig['best_term']}" if fig["best_term"] else ""))
        if fig is not None
        else "—",
        assumptions=picked,
        method=translate(lang, METHODS[_kind(answer)]),
        note=offer.note.text(lang) if offer.note is not None else None,
        footer=t("footer"),
        labels={
            k: t(k)
            for k in ("date", "valid", "number", "question", "answer", "assumptions", "method", "contact")
        },
    )
