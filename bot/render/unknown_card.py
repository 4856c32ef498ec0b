"""The headline when the named card is unknown and its memory was not given (session 25, trial 2 #1).

design.md §8: an unknown GPU is named as typed and never swapped silently. Without the card's memory
there is no verdict for it: the request is sized on the catalog's default card
(:data:`estimator.reasons.Why.gpu_unknown_default`, ``estimator/resolve.py``) only as a reference. The
first line of the reply then says so before the reference figures, so that "fits on 1 × A100 80G" is
never read as the answer for, say, an "RTX 5090 D v2" or a "Biren BR104". A card typed with its memory
("BR104 32GB") is sized by that memory instead and keeps its headline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

NO_VERDICT = N_(
    "No verdict for your card: it is not in my catalog and its memory was not given. For reference only — "
)
"""The prefix of the reference headline; the next line names the card as typed and the card sized instead
(bot.render.understood), so the name is said once."""


def unknown_card_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with :data:`NO_VERDICT` before its first line when the request was
    sized on the default card in place of an unknown one typed without memory; else ``text``."""
    report = answer.report
    name = answer.parsed.unknown_gpu
    if report is None or not name:
        return text
    if not any(a.field == "gpu" and a.why == "gpu_unknown_default" for a in report.assumptions):
        return text
    return translate(answer.lang, NO_VERDICT) + text
