"""'How many users can my GPUs serve?' answered at a usable speed, not only from the KV cache (s41 trial
#2): the most sequences the KV cache holds may each decode too slowly to serve anyone — with long prompts
the others' prefill shares every step (:mod:`estimator.prefill_load`). The count answered is the most
sequences that still decode at least :data:`SPEED_FLOOR_TPS` each — or the speed per user the user states
(``tokens_per_s_per_sequence``, s41 review #2) — when that is fewer than the KV cache holds."""

from __future__ import annotations

from collections.abc import Callable

from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.runtimes import RUNTIMES

SPEED_FLOOR_TPS = 5.0
"""Output tokens/s per sequence below which a load is not served: MLPerf Inference's Llama-2-70B Server
scenario bounds the 99th-percentile time per output token at 200 ms (1 / 0.2 s = 5 tokens/s per user;
time to first token ≤ 2 s: mlcommons/inference ``mlperf.conf``, ``llama2-70b.Server.tpot_latency = 200``;
MLCommons, "Llama 2 70B: an MLPerf Inference benchmark", 2024). The interactive bound (25 tokens/s,
:data:`bot.core.serving_rank.DECODE_FLOOR_TPS`) ranks options; this one only caps what 'how many' says."""


def at_speed_floor(
    req: SizingRequest, most: list[int], sized: Callable[[], Inference], inf: Inference, ledger: Ledger
) -> Inference:
    """``inf`` (sized at ``most[0]``, the sequences the user's GPUs hold) when the user did not ask how
    many (``req.concurrency_asked``) or each decodes at least
    :data:`SPEED_FLOOR_TPS`, or on a server engine with a paged KV cache (vLLM, SGLang, lmdeploy, TGI)
    the largest count n ≤ ``most[0]`` that does (bisection over ``sized`` at ``most[0]`` = n: the speed
    per sequence falls as n grows), with ``max_concurrency`` = n and the note ``speed_floor_held``
    (n, the KV cache's count, its speed there, the floor). Unchanged where even one sequence is slower
    than the floor (the floor then says nothing about the load) or the runtime is not a paged server."""
    speed = inf.decode_tokens_per_s
    held = most[0] if most else 0
    rt = RUNTIMES.get(inf.runtime)
    floor = req.tokens_per_s_per_sequence or SPEED_FLOOR_TPS  # the user's speed per user, when stated
    if not req.concurrency_asked or speed is None or held <= 1 or speed.per_sequence >= floor:
        return inf
    if rt is None or not rt.paged:
        return inf
    one: list[float] = []

    def fast(n: int) -> bool:
        most[0] = n
        at = sized().decode_tokens_per_s
        one.append(at.per_sequence if at is not None else 0.0)
        return at is not None and at.per_sequence >= floor

    if not fast(1):
        most[0] = held
        if req.tokens_per_s_per_sequence:  # even one sequence is slower than the speed they want
            ledger.note("user_speed_unmet", speed=round(one[0], 1), target_tokens_per_s=_rate(floor))
        return inf
    low, high = 1, held  # fast(low), not fast(high)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fast(mid) else (low, mid)
    most[0] = low
    ledger.note(
        "user_speed_held" if req.tokens_per_s_per_sequence else "speed_floor_held",
        concurrency=low,
        max_concurrency=held,
        speed=round(speed.per_sequence, 1),
        target_tokens_per_s=_rate(floor),
    )
    return sized().model_copy(update={"max_concurrency": low})


def _rate(value: float) -> float | int:
    """``value`` tokens/s as said: a whole number without '.0' (30, not 30.0)."""
    return int(value) if float(value).is_integer() else round(value, 1)


def stated_speed_check(req: SizingRequest, inf: Inference, ledger: Ledger) -> None:
    """With a stated load and a stated speed per user (``req.tokens_per_s_per_sequence``), the note
    ``user_speed_met`` or ``user_speed_short``: whether each of the ``inf.concurrency`` sequences decodes at
    least that (its decode speed per sequence). Nothing when the user asked how many (:func:`at_speed_floor`
    answers it) or there is no speed."""
    target, speed = req.tokens_per_s_per_sequence, inf.decode_tokens_per_s
    if not target or req.concurrency_asked or speed is None:
        return
    met = speed.per_sequence >= target
    ledger.note(
        "user_speed_met" if met else "user_speed_short",
        concurrency=min(inf.concurrency, inf.max_concurrency) or inf.concurrency,  # those running at once
        speed=round(speed.per_sequence, 1),
        target_tokens_per_s=_rate(target),
    )
