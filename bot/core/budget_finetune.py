"""The largest model a fine-tuning budget fine-tunes, with no data size (session 36 fixb #2).

'预算 5 万块，能微调多大的模型', 'with a $10k budget, how big a model can I fine-tune?': a fine-tune needs
a released model and its data, not a compute-optimal pre-training size (the Chinchilla size the budget's
FLOPs buy, D = 20·N, is the answer to a pre-training budget only). Per method — the one said, else LoRA
and full fine-tuning — the answer is the largest catalog model whose fine-tune on the data (the one
stated, else :data:`DEFAULT_SAMPLES` × :data:`SAMPLE_TOKENS`, named as an assumption) costs at most the
budget at the middle of the price range and the likely MFU (as ``request.largest_asked`` with a data size,
s35), on the card asked (else the estimator's reference card). Each model is sized by the same estimate
as any fine-tuning question, so this answer and 'LoRA Qwen3-32B on 1e8 tokens, budget ¥50,000' agree; the
reply asks for the data size."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from estimator import catalog
from estimator.request import Method, Stage

if TYPE_CHECKING:
    from estimator.models import SizingReport, SizingRequest

Sized = tuple["SizingReport", dict[str, str]]
DEFAULT_SAMPLES = 100_000
"""Samples of a fine-tuning set when none is given: a typical instruction-tuning set (Alpaca 52K, Dolly
15K, OpenHermes 1M; LLaMA-Factory's demo sets are 1K–100K): an assumption, named in the ledger."""
SAMPLE_TOKENS = 1024
"""Tokens per sample when none is given (LLaMA-Factory's cutoff_len default is 2,048; a chat turn with its
answer is about 1K): an assumption, named in the ledger."""
ASSUMED = {"seq_len": SAMPLE_TOKENS}
"""The assumed samples' length is the sequence length, as the single answer for '100,000 samples × 1,024
tokens' sets it (not the 2,048 default: s36 fixl, the row costs what that answer prints)."""
METHODS = (Method.lora, Method.full)
"""The methods answered when none is said: LoRA first (what a budget usually buys), then full."""
LOOK_UP = 8
"""Models above the bisection's boundary sized too: a fine-tune's cost is not strictly ordered by size."""
SOURCE = "budget_finetune_data"
"""The ledger source of the assumed data (bot.core.filled.SOURCE_REASONS)."""


def asks_budget_model(request: SizingRequest) -> bool:
    """A fine-tuning budget asking the largest model, with no model and no data size."""
    return bool(
        request.largest_asked
        and request.budget
        and request.stage == Stage.finetune
        and not (request.model or request.params_total or request.tokens or request.num_samples)
    )


def budget_models(first: SizingRequest, size: Callable[..., Sized | None]) -> list[Sized]:
    """Per method, the largest dense catalog model whose fine-tune fits the budget, then the largest MoE
    one (s36 fixl: an MoE's total size is not comparable with a dense one's: ranked apart), sized; []
    when none does (the answer then stays the budget's GPU-hours)."""
    methods = (first.method,) if first.method else METHODS
    tokens = float(DEFAULT_SAMPLES * SAMPLE_TOKENS)
    out: list[Sized] = []
    for method in methods:
        ask = first.model_copy(update={"method": method, "tokens": tokens, **ASSUMED})
        for moe in (False, True):
            picked = _largest(ask, size, by_size(moe))
            if picked is not None:
                out.append(picked)
    return out


def _fits(sized: Sized | None, budget: float) -> bool:
    """The sized cost (the one the single answer prints) is within the budget at its top, as the single
    answer's 'within budget' says (s36 fixl: not its middle, which that answer calls tight)."""
    return sized is not None and (cost := sized[0].headline_cost) is not None and cost.high <= budget


def _largest(ask: SizingRequest, size: Callable[..., Sized | None], models: tuple[str, ...]) -> Sized | None:
    """The largest of ``models`` (largest first) whose sized cost is at most the budget, by bisection:
    at fixed data a fine-tune's cost grows with the model (C = kND), so the models that fit are about a
    tail of the list; about log2(len(models)) + 2 + :data:`LOOK_UP` are sized, and the one returned
    always fits."""
    budget = ask.budget or 0.0
    seen: dict[int, Sized | None] = {}

    def fits(i: int) -> bool:
        if i not in seen:
            seen[i] = _size(ask, size, models[i])
        return _fits(seen[i], budget)

    if not models or not fits(len(models) - 1):
        return None
    if fits(0):
        return seen[0]
    lo, hi = 0, len(models) - 1  # models[lo] over the budget, models[hi] within it
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    # the costs are not strictly ordered (a larger model's MFU is higher): the LOOK_UP models above too
    return seen[min([i for i in range(max(hi - LOOK_UP, 0), hi) if fits(i)], default=hi)]


def _size(ask: SizingRequest, size: Callable[..., Sized | None], model: str) -> Sized | None:
    return size(ask.model_copy(update={"model": model}), extra_sources={"tokens": SOURCE, "seq_len": SOURCE})


def is_moe(model: str) -> bool:
    """A mixture-of-experts catalog model: fewer parameters active per token than in total."""
    m = catalog.model(model)
    return bool(m.params_active and m.params_total and m.params_active < m.params_total)


@cache
def by_size(moe: bool) -> tuple[str, ...]:
    """Catalog text models of one kind (dense, or MoE), largest first (vision-language ones too: their
    language model is trained)."""
    models = [m for m in catalog.models().values() if is_moe(m.id) == moe]
    return tuple(m.id for m in sorted(models, key=lambda m: (-(m.params_total or 0), m.id)))


def not_the_limit(report: SizingReport) -> bool:
    """The model picked is the largest catalog model of its kind: the budget decides nothing."""
    model = report.request.model
    return model is not None and by_size(is_moe(model))[:1] == (model,)


def as_json(first: SizingReport, others: list[SizingReport]) -> list[dict[str, object]]:
    """``report.budget_finetune``: per method, the largest catalog model the budget fine-tunes on the
    data (assumed when none was given: ``tokens_assumed``), its fewest GPUs, GPU-hours and cost; dense and
    MoE ranked apart (``moe``), ``budget_not_limit`` when it is the catalog's largest of its kind."""
    if not first.request.largest_asked or first.request.model is None:
        return []
    out: list[dict[str, object]] = []
    for r in [first, *others]:
        cost = r.headline_cost
        assumed = any(a.field == "tokens" and a.why == SOURCE for a in r.assumptions)
        out.append({
            "method": str(r.request.method) if r.request.method else None,
            "model": r.request.model,
            "params_total": r.request.params_total,
            "gpu": r.request.gpu,
            "min_gpus": r.memory.min_gpus if r.memory is not None else None,
            "gpu_hours": r.gpu_hours.likely if r.gpu_hours is not None else None,
            "cost": cost.model_dump(mode="json") if cost is not None else None,
            "tokens": r.request.tokens,
            "tokens_assumed": assumed,
            "moe": is_moe(r.request.model or ""),
            "params_active": r.request.params_active if is_moe(r.request.model or "") else None,
            "gpus_shown": (r.days.gpus if r.days is not None else None) or r.gpus_for_deadline,
            "budget_not_limit": not_the_limit(r),
        })  # fmt: skip
    return out
