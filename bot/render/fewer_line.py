"""The line that answers 'which needs fewer cards' of two models (s39 fixp #4; core:
bot.core.compared_models.fewer_cards): the cards each needs for the job, and with the same count, the
sequences each holds on the user's cards — about the same when the difference is within the estimate's
memory band, said so."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.compared_models import cards_for_load
from bot.render.describe import gpu_names, model_label
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from estimator.models import SizingReport

FEWER = {
    True: N_("Fewer GPUs: %(model)s needs %(need)s × %(gpu)s for this load (%(others)s)"),
    False: N_("Fewer GPUs: %(model)s needs at least %(need)s × %(gpu)s (%(others)s)"),
}
OTHER_NEEDS = N_("%(model)s: %(need)s")
SAME = {
    True: N_("About the same: both need %(need)s × %(gpu)s for this load"),
    False: N_("About the same: both need at least %(need)s × %(gpu)s"),
}
HELD_SAME = N_(
    "; the concurrent sequences each holds on your %(count)s (%(held)s) differ by less than the "
    "estimate's memory band"
)
MORE_HELD = N_(
    "Both need %(need)s × %(gpu)s for this load; on your %(count)s, %(model)s holds more concurrent "
    "sequences (%(held)s)"
)
HELD = N_("%(model)s ≈ %(n)s")
EACH = {
    True: N_("GPUs each needs for this load: %(each)s"),
    False: N_("GPUs each needs (the weights and one sequence): %(each)s"),
    None: N_("GPUs each needs for this training's memory: %(each)s"),
}
"""'How many cards does each need' (s39 fixs2 #1): the count of each model, not the cost."""
EACH_ONE = N_("%(model)s %(need)s × %(gpu)s")


def fewer_line(reports: list[SizingReport], index: int | None, why: str, lang: str) -> str:
    """The line for ``why`` ('fewer_gpus', 'same_gpus', 'more_held', 'each_needs') of :func:`which`'s
    answer."""
    f = fmt_for(lang)
    sep = "；" if lang == "zh" else "; "
    serving = reports[0].inference is not None and bool(reports[0].request.concurrency)
    gpu = gpu_names(reports[0])[0]
    if why == "each_needs":
        sep = "；" if lang == "zh" else "; "
        each = sep.join(
            translate(lang, EACH_ONE, model=model_label(r), need=f.int(cards_for_load(r) or 0), gpu=gpu)
            for r in reports
        )
        return translate(lang, EACH[serving if reports[0].inference is not None else None], each=each)
    need = f.int(cards_for_load(reports[index if index is not None else 0]) or 0)
    if why == "fewer_gpus" and index is not None:
        others = sep.join(
            translate(lang, OTHER_NEEDS, model=model_label(r), need=f.int(cards_for_load(r) or 0))
            for i, r in enumerate(reports)
            if i != index
        )
        return translate(
            lang, FEWER[serving], model=model_label(reports[index]), need=need, gpu=gpu, others=others
        )
    held = ("、" if lang == "zh" else ", ").join(
        translate(lang, HELD, model=model_label(r), n=f.int(r.inference.max_concurrency))
        for r in reports
        if r.inference is not None
    )
    count = f.int(reports[0].request.gpu_count or 0)
    if why == "more_held" and index is not None:
        return translate(
            lang, MORE_HELD, need=need, gpu=gpu, count=count, model=model_label(reports[index]), held=held
        )
    line = translate(lang, SAME[serving], need=need, gpu=gpu)
    if reports[0].inference is not None and reports[0].request.gpu_count:
        line += translate(lang, HELD_SAME, count=count, held=held)
    return line
