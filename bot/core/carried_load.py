"""A follow-up that only changes the card keeps the load the answer before it used (s29 trial, fix b item
2): '部署Qwen2.5-72B给公司用' sized 16 concurrent sequences (assumed), then '那用4090呢' sized
one (a GeForce card's personal default) — another job, not the same one on another card. When the message
set only card fields and the load was assumed both times, the previous answer's assumed concurrency is
carried into the new sizing, as an assumption with its reason (``Why.previous_answer_load``), never into
what the user said: a load said later replaces it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from estimator.models import Stage

if TYPE_CHECKING:
    from collections.abc import Callable

    from estimator.models import SizingReport, SizingRequest

CARD_FIELDS = frozenset({"gpu", "gpu_memory_gib", "gpu_count"})
"""What a message that 'only changes the card' sets ('那用4090呢', '换成两张H100')."""
CONTEXT_FIELDS = frozenset({"seq_len", "max_model_len"})
"""What a message that 'only changes the context' sets ('上下文改成32k呢', 'what about 32k?')."""
LOAD_FIELDS = (
    "concurrency",
    "users",
    "target_tokens_per_s",
    "concurrency_asked",
    "requests_per_day",
    "requests_per_hour",
)


def _assumed_concurrency(report: SizingReport | None) -> int | None:
    if report is None or report.inference is None:
        return None
    a = next((a for a in report.assumptions if a.field == "concurrency"), None)
    return int(a.value) if a is not None and isinstance(a.value, int | float) and a.value else None


def carried_load(
    previous: SizingRequest,
    new: dict[str, Any],
    request: SizingRequest,
    report: SizingReport | None,
    size: Callable[[SizingRequest], SizingReport | None],
) -> dict[str, Any] | None:
    """{'concurrency': n} when the follow-up ``new`` (the fields the message set) changes only the card of
    a serving ``request`` whose load neither message stated, and the previous answer (``size`` sizes
    ``previous``) assumed ``n`` where the new ``report`` assumed another; None otherwise."""
    if new and set(new) <= CONTEXT_FIELDS and request.stage == Stage.inference:
        return _carried_weights(previous, request, report, size)
    if not new or not set(new) <= CARD_FIELDS or request.stage != Stage.inference:
        return None
    if previous.stage != Stage.inference or any(getattr(request, f) for f in LOAD_FIELDS):
        return None
    now = _assumed_concurrency(report)
    if now is None:
        return None
    before = _assumed_concurrency(size(previous))
    return {"concurrency": before} if before is not None and before != now else None


def _assumed_precision(report: SizingReport | None) -> str | None:
    if report is None or report.inference is None:
        return None
    a = next((a for a in report.assumptions if a.field == "precision"), None)
    return str(a.value) if a is not None and a.value else None


def _carried_weights(
    previous: SizingRequest,
    request: SizingRequest,
    report: SizingReport | None,
    size: Callable[[SizingRequest], SizingReport | None],
) -> dict[str, Any] | None:
    """{'precision': p} when a follow-up changes only the context of a serving ``request`` whose weights
    neither message stated, and the previous answer assumed ``p`` (e.g. Q4_K_M on two 4090s, llama.cpp)
    where the new ``report`` assumed another (bf16 on 16 cards): the same weights and runtime, sized at
    the new context (s35 fix c #3); None otherwise."""
    if previous.precision or request.precision or previous.stage != Stage.inference:
        return None
    now = _assumed_precision(report)
    if now is None:
        return None
    before = _assumed_precision(size(previous))
    from estimator.request import Precision  # the enum the estimator reads (model_copy does not validate)

    return {"precision": Precision(before)} if before is not None and before != now else None
