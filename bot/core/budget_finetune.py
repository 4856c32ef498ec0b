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
METHODS = (Method.lora, Method.full)
"""The methods answered when none is said: LoRA first (what a budget usually buys), then full."""
MAX_TRIED = 8
"""Catalog models sized per method at most, largest first."""
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
    """Per method, the largest catalog model whose fine-tune fits the budget (module doc), sized; []
    when none does (the answer then stays the budget's GPU-hours)."""
    methods = (first.method,) if first.method else METHODS
    tokens = float(DEFAULT_SAMPLES * SAMPLE_TOKENS)
    out: list[Sized] = []
    for method in methods:
        picked = _largest(first.model_copy(update={"method": method, "tokens": tokens}), size)
        if picked is not None:
            out.append(picked)
    return out


def _largest(ask: SizingRequest, size: Callable[..., Sized | None]) -> Sized | None:
    """The largest catalog model whose sized cost (the middle of its range) is at most the budget."""
    budget = ask.budget or 0.0
    tried = 0
    for model in _by_size():
        sized = size(ask.model_copy(update={"model": model}), extra_sources={"tokens": SOURCE})
        tried += 1
        if (
            sized is not None
            and (cost := sized[0].headline_cost) is not None
            and (cost.low + cost.high) / 2 <= budget
        ):
            return sized
        if tried >= MAX_TRIED and sized is not None and sized[0].cost is not None:
            tried = 0  # the costs fall with the size: skip ahead to a quarter of this one
            skip = sized[0].request.params_total or 0.0
            return _largest_below(ask, size, skip / 4)
    return None


def _largest_below(ask: SizingRequest, size: Callable[..., Sized | None], cap: float) -> Sized | None:
    """:func:`_largest` among the catalog models of at most ``cap`` parameters (one pass, largest first)."""
    budget = ask.budget or 0.0
    for model in [m for m in _by_size() if (catalog.model(m).params_total or 0) <= cap][:MAX_TRIED]:
        sized = size(ask.model_copy(update={"model": model}), extra_sources={"tokens": SOURCE})
        if (
            sized is not None
            and (cost := sized[0].headline_cost) is not None
            and (cost.low + cost.high) / 2 <= budget
        ):
            return sized
    return None


def _by_size() -> list[str]:
    """Catalog text models, largest first (vision-language ones too: their language model is trained)."""
    models = catalog.models().values()
    return [m.id for m in sorted(models, key=lambda m: (-(m.params_total or 0), m.id))]


def as_json(first: SizingReport, others: list[SizingReport]) -> list[dict[str, object]]:
    """``report.budget_finetune``: per method, the largest catalog model the budget fine-tunes on the
    data (assumed when none was given: ``tokens_assumed``), its fewest GPUs, GPU-hours and cost."""
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
        })  # fmt: skip
    return out
