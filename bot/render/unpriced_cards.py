"""The line after a 'cheapest card' verdict that names the cards not compared for want of a price in the
reply's currency (trial s27 #2: '无法判断哪个总费用最低：没有 H200 141G 的 CNY 租用价格' opened the
reply in the H200's place; now the priced cards are compared and the others named after the verdict,
:mod:`bot.core.priced_cards`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate
from estimator import catalog

if TYPE_CHECKING:
    from bot.core.answer import Answer

NOT_PRICED = N_("Not compared, no %(currency)s price on file: %(gpus)s")
"""The cards skipped (their names), in the reply's currency."""


def card_name(gpu_id: str) -> str:
    """A catalog card's short name as the rows write it (bot.render.describe.gpu_names): its family, with
    its memory when the family has more than one card ('A100 40G', 'H200 141G', 'L40S')."""
    spec = catalog.gpu(gpu_id)
    variants = sum([g.family == spec.family for g in catalog.gpus().values()])  # a list: no generator
    return f"{spec.family} {spec.memory_gib:g}G" if variants > 1 else spec.family


def unpriced_cards_line(answer: Answer) -> str | None:
    """'Not compared, no CNY price on file: A100 40G, H200 141G, B200' (:attr:`Answer.unpriced_cards`);
    None when none was skipped."""
    cards = answer.unpriced_cards
    currency = answer.report.request.currency if answer.report is not None else None
    if not cards or currency is None:
        return None
    names = ("、" if answer.lang == "zh" else ", ").join(map(card_name, cards))
    return translate(answer.lang, NOT_PRICED, currency=currency.value, gpus=names)
