"""'Faster: A100 80G (≈ 41 tokens/s per sequence; RTX 4090 ≈ 30)': the line a question that asks which
card is faster ('which is faster, a 4090 or an A100?', '4090 和 A100 哪个快') leads with (s37 fixg #1: it
led with the cheapest per token). Each option's decode speed per sequence at the stated load, the rows'
own figures; where the options run at different precisions, the line says so (a speed at another precision
is no like-for-like comparison). Imported when the parse noted the question (start-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.describe import gpu_names
from bot.render.fmt import fmt_for
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from estimator.models import SizingReport

FASTER = N_("Faster: %(gpu)s (≈ %(tps)s tokens/s per sequence; %(others)s)")
OTHER = N_("%(gpu)s ≈ %(tps)s")
OTHER_PRECISION = N_(" — not at the same precision: %(precisions)s")


def faster_line(reports: list[SizingReport], lang: str) -> str | None:
    """:data:`FASTER` for ``reports`` (two or more serving options), the fastest per sequence first; None
    unless every option has a decode speed."""
    speeds = [r.inference.decode_tokens_per_s for r in reports if r.inference is not None]
    if len(reports) < 2 or any(s is None for s in speeds) or len(speeds) < len(reports):
        return None
    f = fmt_for(lang)
    per = [s.per_sequence for s in speeds if s is not None]
    best = max(range(len(reports)), key=lambda i: per[i])
    others = [
        translate(lang, OTHER, gpu=gpu_names(r)[0], tps=f.num(per[i], 0))
        for i, r in enumerate(reports)
        if i != best
    ]
    sep = "；" if lang == "zh" else "; "
    line = translate(
        lang, FASTER, gpu=gpu_names(reports[best])[0], tps=f.num(per[best], 0), others=sep.join(others)
    )
    if len({r.request.precision for r in reports}) > 1:
        said = ", ".join(f"{gpu_names(r)[0]} {r.request.precision}" for r in reports)
        line += translate(lang, OTHER_PRECISION, precisions=said)
    return line


def speed_first(reports: list[SizingReport], lang: str, cheapest: str | None) -> dict[str, object]:
    """The reply context's ``cheapest`` line led by :func:`faster_line` ({} when there is none)."""
    speed = faster_line(reports, lang)
    if speed is None:
        return {}
    sep = "；" if lang == "zh" else " — "
    return {"cheapest": f"{speed}{sep}{cheapest}" if cheapest else speed}
