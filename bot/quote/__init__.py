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

from bot.core.pipeline import Answer
from bot.quote.pdf import QuoteError

__all__ = ["QuoteError", "can_quote", "quote_filename", "quote_pdf"]


def can_quote(answer: Answer | None) -> bool:
    """Whether an answer can be quoted: something was sized and there is a provider's offer."""
    return answer is not None and answer.report is not None and answer.offer is not None


def quote_pdf(answer: Answer, question: str = "", today: dt.date | None = None) -> bytes:
    """The PDF bytes of the answer's quote. Raises QuoteError when it cannot be made (no offer, nothing
    sized, no font for Chinese text)."""
    from bot.quote.content import build
    from bot.quote.pdf import draw

    if not can_quote(answer):
        raise QuoteError("a quote needs an answer that sized something and the provider's offer")
    content = build(answer, question, today)
    return draw(content)


def quote_filename(answer: Answer, today: dt.date | None = None) -> str:
    """``quote-20250601-H800.pdf``: the date and the GPU."""
    day = today or dt.date.today()
    gpu = answer.offer.family if answer.offer is not None and answer.offer.family else "gpu"
    return f"quote-{day:%Y%m%d}-{gpu.replace(' ', '')}.pdf"
