"""The serving asked after a training one (s20 #7, :mod:`bot.parse.second_stage`): the answer sizes the
training; this paragraph says the serving is a second question and gives its exact follow-up, with the
model, the load and the card the message stated, so nothing asked is dropped in silence."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.second_stage import THEN_SERVE
from bot.render.describe import gpu_names, model_label
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.answer import Answer

NEXT = N_(
    "You also asked about serving it: that is a second question, sized on its own (its GPUs, load and "
    "memory differ from training's). Ask next: “%(follow)s”"
)
FOLLOW = N_("Serve %(model)s%(load)s%(gpu)s: how many GPUs?")
FOLLOW_LOAD = N_(" to %(n)s concurrent users")
FOLLOW_GPU = N_(" on %(gpu)s")
"""The follow-up's parts: the model as sized, the concurrency stated (if any), the card sized (if any)."""


def second_stage_text(text: str, answer: Answer) -> str:
    """``text`` (a rendered reply) with the paragraph :data:`NEXT` after its first paragraph when the
    parse noted a serving stage after the training one sized; unchanged otherwise."""
    report = answer.report
    if report is None or THEN_SERVE not in answer.parsed.notes:
        return text
    lang = answer.lang
    said, model = answer.parsed.request, model_label(report, answer.lang)
    users = said.concurrency or said.users  # '部署给100人用' reads as users since s21 (trfix): still the load
    load = translate(lang, FOLLOW_LOAD, n=fmt_for(lang).int(users)) if users else ""
    gpu = translate(lang, FOLLOW_GPU, gpu=gpu_names(report)[0]) if said.gpu else ""
    follow = translate(lang, FOLLOW, model=model, load=load, gpu=gpu)
    head, sep, rest = text.partition("\n\n")
    return head + "\n\n" + translate(lang, NEXT, follow=follow) + (sep + rest if sep else "")
