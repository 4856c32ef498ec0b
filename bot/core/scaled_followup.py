"""A follow-up that moves a finished run to other cards (issue 24 item 6, s21): 'we fine-tuned Llama 3
8B on 8 A100s and it took 3 days' → 'How long on H100s?'. The run gave no data size, so no k·N·D times
the job; its GPU-hours do: the same model, method and data on the new card take the run's GPU-hours ×
the old card's dense peak ÷ the new card's ÷ the two generations' MFU ratio
(:func:`bot.parse.scaled_run.scaled_hours`, what one message saying both already gets, s17-2 #4):
8 × 72 = 576 A100-hours → 576 × 312 ÷ 989 ÷ 0.7 ≈ 260 H100-hours, on 8 GPUs ≈ 32 hours. The merged
request's carried ``hours`` (the old run's) is replaced by those, and the run is named
``earlier_run_scaled``."""

from __future__ import annotations

from bot.parse.result import ParseResult
from estimator.models import SizingRequest, Stage

_TRAINING = (Stage.pretrain, Stage.continued_pretrain, Stage.finetune)


def scaled_followup(
    prev: SizingRequest, merged: SizingRequest, changed: list[str], parsed: ParseResult
) -> tuple[SizingRequest, ParseResult]:
    """(request, parse) of a follow-up that changed only the card of a timed run with no data size:
    the hours scaled to the new card, the run named as used; unchanged otherwise (the follow-up
    states its own hours or data, the stage or model changed, a card outside the catalog)."""
    if "gpu" not in changed or "hours" in parsed.found or merged.stage not in _TRAINING:
        return merged, parsed
    if not prev.hours or prev.stage != merged.stage or merged.hours != prev.hours:
        return merged, parsed
    job = merged.model_copy(update={"hours": None})
    from bot.parse.scaled_run import scaled_hours

    hours = scaled_hours(prev, job, prev.hours * 3600.0)
    if hours is None:
        return merged, parsed
    card = (prev.gpu or "").split("-")[0]
    said = (
        f"{prev.gpu_count} 张 {card} · {prev.hours:g} 小时"
        if parsed.lang == "zh"
        else (f"{prev.gpu_count} × {card} · {prev.hours:g} h")
    )
    from bot.parse.scaled_run import SCALED, scaled_said

    item = (scaled_said(said, hours, job, parsed.lang), SCALED)
    parsed = parsed.model_copy(update={"unused_numbers": [*parsed.unused_numbers, item]})
    return job.model_copy(update={"hours": round(hours, 2)}), parsed
