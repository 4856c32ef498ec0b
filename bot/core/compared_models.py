"""Two models sized side by side on one job (session 36 fixb #1; the parse: bot.parse.models_compared).

Each other model compared is the same request with its model swapped (the user's GPUs, count, load,
context, precision, method and data as stated), sized by the same ``size`` as the first and at one load
(:func:`bot.core.compared_load.sized_options`: a load one option assumed is every option's) in one
currency, so the rows and the line that answers which compare one job. :func:`which` reads the answer:
the ones that fit on the user's cards first, then the cheaper per million output tokens (serving) or the
fewer GPU-hours (training)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.core.compared_load import sized_options

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingReport, SizingRequest

Sized = tuple["SizingReport", dict[str, str]]
MODEL_FIELDS = ("params_total", "params_active", "hf_config", "model_typed")
"""Request fields that belong to the first model: dropped when another model is sized in its place."""


def side_by_side(
    parsed: ParseResult, first: SizingRequest, sized: Sized, size: Callable[..., Sized | None]
) -> list[SizingReport]:
    """Each model in ``parsed.compared_models`` sized at ``sized``'s (the first model's) load; [] when
    none could be sized."""
    fields = set(type(first).model_fields)
    drop = {k: None for k in MODEL_FIELDS if k in fields}
    asks = [first.model_copy(update={**drop, "model": m}) for m in parsed.compared_models]
    done = sized_options([first, *asks], sized, size)
    return [d[0] for d in done[1:] if d is not None]


def fits(report: SizingReport) -> bool | None:
    """Whether the job fits on the user's cards (None: no count to hold it to); serving: the verdict at the
    stated load the single answer gives (``report.feasible``; borderline fits), not the weights' fewest
    GPUs (s36 fixi #2)."""
    count = report.request.gpu_count
    if report.inference is not None:
        if not count:
            return None
        return report.feasible != "no" if report.feasible else report.inference.min_gpus <= count
    m = report.memory
    if m is None:
        return None
    if m.fits_requested is not None:
        return m.fits_requested
    return None if not count or not m.min_gpus else m.min_gpus <= count


def gpus_needed(report: SizingReport) -> int | None:
    """The GPUs the job needs: serving, those holding the stated load when the user's do not
    (``recommended_gpus``), else the fewest for the weights and one sequence; training, the fewest for
    the memory."""
    inf = report.inference
    if inf is None:
        return report.memory.min_gpus if report.memory is not None else None
    held = not report.request.concurrency or fits(report) is not False
    return inf.min_gpus if held else max(inf.min_gpus, inf.recommended_gpus)


def which(
    reports: list[SizingReport], faster: bool = False, fewer: bool = False, each: bool = False
) -> tuple[int | None, str]:
    """The index of the one the answer names and why: 'fits' (only it fits on the user's cards), 'cheaper'
    (per million output tokens, or in cost), 'faster' (fewer GPU-hours, or more tokens/s; before cost when
    the message asks which is ``faster``), or 'none_fits' (None: no one fits); ``(None, '')`` when nothing
    tells them apart. ``fewer``: the message asks which needs fewer cards (:func:`fewer_cards`); ``each``: how
    many cards each needs and not the cost (s39 fixs2 #1): ``(None, 'each_needs')``, the cards each needs
    (:func:`cards_for_load`) answer it, when every count is known."""
    if each and all(cards_for_load(r) is not None for r in reports):
        return None, "each_needs"
    if fewer and (told := fewer_cards(reports)) is not None:
        return told
    verdicts = [fits(r) for r in reports]
    if verdicts and all(v is False for v in verdicts):
        return None, "none_fits"
    fitting = [i for i, v in enumerate(verdicts) if v is not False]
    if len(fitting) == 1 and len(reports) > 1:
        return fitting[0], "fits"
    fast = [(i, s) for i in fitting if (s := _speed(reports[i])) is not None]
    if faster and len(fast) == len(fitting) and fast:
        return max(fast, key=lambda iv: iv[1])[0], "faster"
    cheap = [(i, c) for i in fitting if (c := _cost(reports[i])) is not None]
    if len(cheap) == len(fitting) and len({c[1][1] for c in cheap}) == 1:  # one currency
        best = min(cheap, key=lambda ic: ic[1][0])
        if sum(1 for _, c in cheap if c[0] == best[1][0]) == 1:
            return best[0], "cheaper"
    if len(fast) == len(fitting) and fast:
        return max(fast, key=lambda iv: iv[1])[0], "faster"
    return None, ""


def cards_for_load(report: SizingReport) -> int | None:
    """The cards a job needs, the question 'which needs fewer cards' asks of each model: serving, those
    holding the stated load (``recommended_gpus``: TP a power of two), or the weights and one sequence when
    no load is stated (``min_gpus``); training, the fewest that hold the memory."""
    inf = report.inference
    if inf is not None:
        return inf.recommended_gpus if report.request.concurrency else inf.min_gpus
    return report.memory.min_gpus if report.memory is not None else None


def fewer_cards(reports: list[SizingReport]) -> tuple[int | None, str] | None:
    """Which needs fewer cards (s39 fixp #4: '哪个部署更省卡' was answered on the cost per million tokens):
    'fewer_gpus' (the one that needs the fewest, :func:`cards_for_load`); with the same count, serving on the
    user's cards, the one holding more sequences ('more_held') unless the difference is within the
    estimate's memory band ('same_gpus', None: about the same); None when a count is unknown."""
    needs = [cards_for_load(r) for r in reports]
    if any(n is None for n in needs):
        return None
    least = min(needs)  # type: ignore[type-var]
    if needs.count(least) == 1:
        return needs.index(least), "fewer_gpus"
    held = [r.inference.max_concurrency if r.inference is not None else None for r in reports]
    if not reports[0].request.gpu_count or any(h is None for h in held) or len(set(held)) == 1:
        return None, "same_gpus"
    most = max(held)  # type: ignore[type-var]
    if held.count(most) > 1 or within_band(reports, most - min(held)):  # type: ignore[type-var, operator]
        return None, "same_gpus"
    return held.index(most), "more_held"


def within_band(reports: list[SizingReport], sequences: int) -> bool:
    """Whether ``sequences`` more of the longest KV cache among ``reports`` weigh no more than the estimate's
    memory band on the user's cards: the step from vLLM's default ``gpu_memory_utilization`` (0.90) to the
    practical maximum (0.95) of each card (:data:`estimator.defaults.MAX_GPU_MEMORY_UTILIZATION`; a fit in
    that band is already 'borderline', docs/design.md §3.4): a difference in concurrency that small is one
    the estimate cannot tell apart."""
    from estimator.defaults import GPU_MEMORY_UTILIZATION, MAX_GPU_MEMORY_UTILIZATION

    first = reports[0]
    kv = max(r.inference.kv_bytes_per_sequence for r in reports if r.inference is not None)
    band = MAX_GPU_MEMORY_UTILIZATION - float(GPU_MEMORY_UTILIZATION.value)
    card = first.gpu_spec.memory_gib * 2**30 if first.gpu_spec is not None else 0.0
    return sequences * kv <= band * card * (first.request.gpu_count or 1)


def _cost(report: SizingReport) -> tuple[float, str] | None:
    """The midpoint of the cost per million output tokens (serving) or of the run's cost, and its currency."""
    c = report.inference.cost_per_million_tokens if report.inference is not None else report.cost
    if c is None:
        return None
    return (c.low + c.high) / 2, str(c.currency)


def _speed(report: SizingReport) -> float | None:
    """Tokens/s per sequence (serving) or the inverse of the likely GPU-hours (training): higher is faster."""
    if report.inference is not None:
        d = report.inference.decode_tokens_per_s
        return d.per_sequence if d is not None else None
    gh = report.gpu_hours
    return 1 / gh.likely if gh is not None and gh.likely else None


def as_json(
    first: SizingReport,
    others: list[SizingReport],
    faster: bool = False,
    fewer: bool = False,
    each: bool = False,
) -> list[dict[str, object]]:
    """``report.compared_models``: each model of the comparison, the first (the one ``report`` details)
    included, with its verdict on the user's cards and the figures its row quotes; ``chosen`` marks the
    one the first line names and ``why`` says why ('fits', 'cheaper', 'faster'); [] when none compared."""
    if not others:
        return []
    reports = [first, *others]
    index, why = which(reports, faster, fewer, each)
    out: list[dict[str, object]] = []
    for i, r in enumerate(reports):
        inf = r.inference
        d = inf.decode_tokens_per_s if inf is not None else None
        cpm = inf.cost_per_million_tokens if inf is not None else None
        need = inf.min_gpus if inf is not None else (r.memory.min_gpus if r.memory is not None else None)
        out.append({
            "model": r.request.model,
            "params_total": r.request.params_total,
            "gpu": r.request.gpu,
            "gpu_count": r.request.gpu_count,
            "fits": fits(r),
            "feasible": r.feasible,
            "min_gpus": need,
            "gpus_needed": gpus_needed(r),
            "tokens_per_s_per_sequence": d.per_sequence if d is not None else None,
            "cost_per_million_tokens": cpm.model_dump(mode="json") if cpm is not None else None,
            "gpu_hours": r.gpu_hours.likely if r.gpu_hours is not None else None,
            "cost": r.cost.model_dump(mode="json") if r.cost is not None else None,
            "gpus_for_load": cards_for_load(r),
            "max_concurrency": inf.max_concurrency if inf is not None else None,
            "chosen": i == index,
            "why": why if i == index else None,
        })  # fmt: skip
    return out


def other_options(
    parsed: ParseResult, first: SizingRequest, sized: Sized, size: Callable[..., Sized | None]
) -> tuple[list[Sized], list[SizingReport]] | None:
    """(the detailed option, the other reports) of a comparison of models (:func:`side_by_side`) or of a
    fine-tuning budget's largest models per method (:mod:`bot.core.budget_finetune`, s36 #2); None when
    neither applies (the card comparison of bot.core.pipeline then runs)."""
    if parsed.compared_models:
        return [sized], side_by_side(parsed, first, sized, size)
    from bot.core.budget_finetune import asks_budget_model, budget_models  # imported when used: start-up

    picks = budget_models(first, size) if asks_budget_model(first) else []
    return (picks[:1], [r for r, _ in picks[1:]]) if picks else None
