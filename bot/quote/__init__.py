"""The one-page PDF quote of an answer (``sizing-bot ask --quote``, /quote and the 🧾 button): the
provider and contact, date and validity, the customer's question, the configuration, GPU-hours, unit
prices, subtotal, reserved-term discounts and the total range, the key assumptions and the method —
every number as the reply prints it. Needs the provider's offer (``answer.offer``).

PDF library: fpdf2 (LGPL-3.0, pure Python; it subsets fonts with fontTools, which matplotlib already
brings). Fonts: DejaVu Sans from matplotlib's data for Latin text; an installed free CJK font
(WenQuanYi Micro Hei in the Docker image) for Chinese, both embedded as subsets.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from bot.render.i18n import N_

if TYPE_CHECKING:
    from bot.core.pipeline import Answer

__all__ = ["QuoteError", "can_quote", "decline_reason", "quote_filename", "quote_pdf"]


class QuoteError(RuntimeError):
    """The quote cannot be made (no offer, nothing sized, no font for its text, nothing offered fits).

    Defined here, not in ``bot.quote.pdf``: importing it must not load fpdf, numpy and PIL (+33.6 MiB
    resident in ``sizing-bot run``); the drawing code loads on the first quote."""


def can_quote(answer: Answer | None) -> bool:
    """Whether an answer can be quoted: something was sized and there is a provider's offer."""
    return answer is not None and answer.report is not None and answer.offer is not None


def quote_pdf(answer: Answer, question: str = "", today: dt.date | None = None) -> bytes:
    """The PDF bytes of the answer's quote. Raises QuoteError when it cannot be made (no offer, nothing
    sized, no font for Chinese text, or a GPU the provider does not sell and no offered GPU fits: then
    the error is :func:`decline_reason`, in the answer's language)."""
    from bot.quote.content import build
    from bot.quote.pdf import draw

    if not can_quote(answer):
        raise QuoteError("a quote needs an answer that sized something and the provider's offer")
    reason = decline_reason(answer)
    if reason is not None:
        raise QuoteError(reason)
    content = build(answer, question, today)
    return draw(content)


DECLINE = N_(
    "%(gpu)s is not in %(provider)s's offer, and none of the GPUs it offers (%(offered)s) fits this job: "
    "no quote under %(provider)s's name."
)


def decline_reason(answer: Answer) -> str | None:
    """Why no quote is made, in the answer's language: the customer named a GPU the provider does not
    sell and none of the offered GPUs fits the job (:attr:`Answer.offered` is None). Else None: a quote
    under the provider's name is for what the provider sells (the offered GPU that fits)."""
    from bot.render.describe import gpu_names
    from bot.render.fmt import fmt_for
    from bot.render.i18n import translate

    offer = answer.offer
    if offer is None or answer.report is None or offer.offered or answer.offered is not None:
        return None
    return translate(
        answer.lang,
        DECLINE,
        gpu=gpu_names(answer.report)[0],
        provider=offer.provider,
        offered=fmt_for(answer.lang).sep.join(offer.families) or "—",
    )


def quote_filename(answer: Answer, today: dt.date | None = None) -> str:
    """``quote-20250601-H800.pdf``: the date and the GPU quoted (the offered one in place of a GPU the
    provider does not sell)."""
    day = today or dt.date.today()
    offer = answer.offered_terms if answer.offered_terms is not None else answer.offer
    gpu = offer.family if offer is not None and offer.family else "gpu"
    return f"quote-{day:%Y%m%d}-{gpu.replace(' ', '')}.pdf"
