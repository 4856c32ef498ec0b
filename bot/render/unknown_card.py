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
    from bot.parse import ParseResult
    from estimator.models import SizingReport

NO_VERDICT = N_(
    "No verdict for your card: it is not in my catalog and its memory was not given. For reference only — "
)
"""The prefix of the reference headline; the next line names the card as typed and the card sized instead
(bot.render.understood), so the name is said once."""


FAMILY_HEAD = N_(
    "“%(name)s” names a family of accelerators, not one model — which model is it? The ones I know: "
    "%(names)s (or add its memory: “%(name)s <memory>GB”). For reference only — "
)
"""The prefix instead of :data:`NO_VERDICT` when the card typed names a family ('华为的卡', 'Intel Gaudi'):
the one line about the card (trial s27 #9: the generic prefix and the family line both said it), the
family's models asked for (bot.render.understood.FAMILY_LINE is then not shown)."""


def family_head(parsed: ParseResult, report: SizingReport) -> bool:
    """Whether the reply's first line names the unknown card as a family (:data:`FAMILY_HEAD`): a card
    typed without memory, sized on the default card, whose name is a family with models in the catalog."""
    name = parsed.unknown_gpu
    if not name or not parsed.gpu_suggestions or not _on_default(report):
        return False
    from bot.parse.accelerator_family import family_only  # the parser's, loaded by then

    return family_only(name)


def _on_default(report: SizingReport) -> bool:
    return any(a.field == "gpu" and a.why == "gpu_unknown_default" for a in report.assumptions)


def unknown_card_head(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with :data:`NO_VERDICT` (:data:`FAMILY_HEAD` for a family) before its
    first line when the request was sized on the default card in place of an unknown one typed without
    memory; else ``text``."""
    report, parsed = answer.report, answer.parsed
    name = parsed.unknown_gpu
    if report is None or not name or not _on_default(report):
        return text
    if family_head(parsed, report):
        names = " / ".join(parsed.gpu_suggestions[:4])
        return translate(answer.lang, FAMILY_HEAD, name=name, names=names) + text
    return translate(answer.lang, NO_VERDICT) + text
