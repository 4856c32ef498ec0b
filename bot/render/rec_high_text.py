"""The recommended count's borderline wording when something lowers its high end on that count
(``Memory.recommended_fit_change``, estimator.rec_high.levers; s38-verdict #1): what lowers it on the
recommended count first — micro-batch 1, full recompute —, then the count that holds it without them
(``Memory.recommended_high_gpus``), never a count that cannot help. Imported by
:func:`bot.render.memory_text._rec_high` only when the list is not empty.

A memory answer's headline says only the verdict and the figure that decides it (:data:`SHORT`); the
levers and the count go on a line below it (:func:`rec_high_below`; s40-fixh #1: the headline ran to four
clauses)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from bot.render.plan_wording import ADAPTER_RECOMPUTE_COST, FULL_RECOMPUTE_COST

if TYPE_CHECKING:
    from bot.render.fmt import Fmt
    from estimator.models import Memory

HEAD = N_(
    " — borderline: at the high end of the memory band (%(high)s per GPU) the recommended count is above "
    "the card's %(usable)s"
)
"""The recommendation is borderline (its band's high end above the card)."""
HOLDS = N_("; on %(rec)s, %(levers)s keeps it under the card (%(fixed)s at the high end)")
"""What lowers the high end on the recommended count, and it fits then."""
LOWERS = N_("; on %(rec)s, %(levers)s lowers it to %(fixed)s")
"""What lowers the high end on the recommended count, still above the card."""
THEN_AT = N_("; without that, %(gpus)s hold the high end")
"""The count (2×, 4× or 8× the recommendation) whose layout holds the high end as recommended."""
THEN_NONE = N_(
    "; up to 8 times as many GPUs do not bring it under: a chunked loss (Liger kernel) or shorter "
    "sequences shrink what stays on each GPU"
)
"""No count up to 8× holds it and the levers do not either."""
LEVERS = {
    "micro_batch": N_("micro-batch 1"),
    "recompute": N_("full recompute (gradient checkpointing: %(cost)s)"),
}
"""Each lever's name (estimator.rec_high.levers' settings)."""
WITH = N_(" with ")
"""Between two levers applied together."""


def rec_high_levers(m: Memory, f: Fmt, adapters: bool) -> str:
    """:data:`HEAD`, then :data:`HOLDS` or :data:`LOWERS` (the last lever's high end), then the count
    holding it without them (:data:`THEN_AT`) or, when nothing holds it, :data:`THEN_NONE` (alone when
    no lever is left: the recommended layout recomputes fully already). ``adapters``: a LoRA/QLoRA job,
    whose second forward pass costs half as much again (plan_wording)."""
    lang, changes, at = f.lang, m.recommended_fit_change, m.recommended_high_gpus
    high = m.recommended_per_gpu_bytes_high or 0.0
    text = translate(lang, HEAD, high=f.gib(high), usable=f.gib(m.usable_bytes))
    fixed = changes[-1].per_gpu_bytes_high or 0.0 if changes else high
    if changes:
        cost = translate(lang, ADAPTER_RECOMPUTE_COST if adapters else FULL_RECOMPUTE_COST)
        names = translate(lang, WITH).join(translate(lang, LEVERS[c.setting], cost=cost) for c in changes)
        lever = HOLDS if fixed <= m.usable_bytes else LOWERS
        rec = gpus_text(lang, m.recommended_gpus or 0)
        text += translate(lang, lever, rec=rec, levers=names, fixed=f.gib(fixed))
    if at:
        return text + translate(lang, THEN_AT, gpus=gpus_text(lang, at))
    return text if fixed <= m.usable_bytes else text + translate(lang, THEN_NONE)


SHORT = N_(
    " — borderline on %(rec)s: up to %(high)s per GPU at the high end, above the card's %(usable)s "
    "(see below)"
)
"""The memory headline's borderline clause on the recommended count: the one figure that decides it, with
the count it is for (s43: '86.7 GiB' in the headline beside '31.6 GiB' on the line below, neither said to be
on the 2 recommended nor which setting)."""
SHORT_NO_FULL = N_(
    " — borderline on %(rec)s: up to %(high)s per GPU at the high end without full recompute, above the "
    "card's %(usable)s (see below)"
)
""":data:`SHORT` when full recompute is a lever on that count: the figure is the one without it."""
BELOW_HOLDS = N_("Borderline on %(rec)s: %(levers)s keeps the high end under the card (%(fixed)s)")
"""The line below the headline: what lowers the high end on the recommended count, and it fits then."""
BELOW_LOWERS = N_("Borderline on %(rec)s: %(levers)s lowers the high end to %(fixed)s")
""":data:`BELOW_HOLDS` when the lever leaves the high end above the card."""
BELOW_AT = N_("Borderline on %(rec)s: %(gpus)s hold the high end of the memory band")
"""The line below the headline when no lever is left and a larger count holds the high end."""
BELOW_NONE = N_(
    "Borderline on %(rec)s: up to 8 times as many GPUs do not bring the high end under the card: what "
    "stays on each GPU (the loss's logits, a layer's activations) shrinks with full recompute, a chunked "
    "loss (Liger kernel) or shorter sequences"
)
"""The line below the headline when nothing named holds the high end."""
BELOW_NONE_FULL = N_(
    "Borderline on %(rec)s: up to 8 times as many GPUs do not bring the high end under the card: a "
    "chunked loss (Liger kernel) or shorter sequences shrink what stays on each GPU"
)
""":data:`BELOW_NONE` when the recommended layout recomputes fully already (no lever left to name)."""


def rec_high_below(m: Memory, f: Fmt, adapters: bool) -> str:
    """The line under a memory headline whose recommended count is borderline (:data:`SHORT`): the levers
    on that count first (:data:`BELOW_HOLDS` / :data:`BELOW_LOWERS`), then the count holding the high end
    without them (:data:`THEN_AT`) or :data:`THEN_NONE`; with no lever, :data:`BELOW_AT` or
    :data:`BELOW_NONE`. The same facts as :func:`rec_high_levers`, as a sentence of its own."""
    lang, changes, at = f.lang, m.recommended_fit_change, m.recommended_high_gpus
    rec = gpus_text(lang, m.recommended_gpus or 0)
    high = m.recommended_per_gpu_bytes_high or 0.0
    if not changes and at:
        return translate(lang, BELOW_AT, rec=rec, gpus=gpus_text(lang, at))
    if not changes:
        full = m.recommended_plan is not None and m.recommended_plan.recompute == "full"
        return translate(lang, BELOW_NONE_FULL if full else BELOW_NONE, rec=rec)
    fixed = changes[-1].per_gpu_bytes_high or high
    cost = translate(lang, ADAPTER_RECOMPUTE_COST if adapters else FULL_RECOMPUTE_COST)
    names = translate(lang, WITH).join(translate(lang, LEVERS[c.setting], cost=cost) for c in changes)
    lever = BELOW_HOLDS if fixed <= m.usable_bytes else BELOW_LOWERS
    text = translate(lang, lever, rec=rec, levers=names, fixed=f.gib(fixed))
    if at:
        return text + translate(lang, THEN_AT, gpus=gpus_text(lang, at))
    return text if fixed <= m.usable_bytes else text + translate(lang, THEN_NONE)


def split_high(m: Memory, f: Fmt, adapters: bool) -> dict[str, str]:
    """The memory headline's short borderline clause (:data:`SHORT`: its one figure) and the line below
    it (:func:`rec_high_below`: the levers and the count; s40-fixh #1)."""
    high = f.gib(m.recommended_per_gpu_bytes_high or 0.0)
    full = any(c.setting == "recompute" for c in m.recommended_fit_change)  # the figure is without it
    rec = gpus_text(f.lang, m.recommended_gpus or 0)
    return {
        "rec_high": translate(
            f.lang, SHORT_NO_FULL if full else SHORT, rec=rec, high=high, usable=f.gib(m.usable_bytes)
        ),
        "rec_high_more": rec_high_below(m, f, adapters),
    }
