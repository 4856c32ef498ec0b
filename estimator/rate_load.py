"""A request rate's sequences in flight on the layout sized (s43 fixserve2 #1): Little's law.

'QPS 20, 1,000 tokens in, 300 out' states a rate λ (requests/s), not a load. The sequences in flight are
L = λ × W (Little 1961, "A proof for the queuing formula L = λW"), W the time one request spends on the
layout sized: its time to first token (the prompt's prefill, :attr:`Inference.prefill_seconds`) plus its
output tokens at that layout's per-sequence decode speed (output × TPOT, TPOT = 1 ÷ tokens/s per
sequence). More sequences slow each one's decode (the KV cache is read every step), so L is found as a
fixed point: L₀ from the sequences the throughput search held, then L = ⌈λ × W(L)⌉ re-sized on the same
TP × PP × copies until it no longer moves. Before, the load was the sequences that decode λ × output on
the fewest GPUs that hold them, kept when the throughput search then sized more copies, where each
sequence decodes faster: the trial's 'QPS 20' on L20 was 622 sequences at 64 cards, ≈ 15,925 tokens/s
for a 6,000 tokens/s rate (s43 trial q12_zh); on that layout a request takes ≈ 12 s, so ≈ 240 sequences.

Applied only when the rate was stated with an output length (``SizingRequest.qps``) and the layout's
decode reaches the rate's output tokens/s (past that the queue grows without bound: the short-of-target
notes of :mod:`estimator.throughput_target` say so). The capacity notes (how many GPUs, the prefill and
decode shares of a second) keep the load the search sized them at."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from estimator.built import note as built_note
from estimator.reasons import Why

if TYPE_CHECKING:
    from estimator.inference import ServingSetup
    from estimator.ledger import Ledger
    from estimator.models import Inference
    from estimator.request import SizingRequest

ROUNDS = 12
"""Re-sizings at most before the fixed point is taken as found (L moves by a few sequences after 3–4)."""


def request_seconds(inf: Inference, rate: float) -> tuple[float, float] | None:
    """(W, the prefill's share of each second) for one request on ``inf``'s layout at ``rate`` requests/s:
    W = time to first token + output ÷ (tokens/s per sequence × (1 − prefill share)), seconds (output =
    context − prompt). vLLM's chunked prefill runs the prompts inside the decode steps on the same GPUs
    (vLLM docs, 'Chunked Prefill'), so the rate's prefill takes its share of each second from the decode
    (:func:`estimator.throughput_target.prefill_share`). None without a decode speed or an output
    length, or when the prefill alone fills the second."""
    from estimator.throughput_target import prefill_share

    speed = inf.decode_tokens_per_s
    out = inf.context_tokens - (inf.prompt_tokens or 0)
    if speed is None or speed.per_sequence <= 0 or out <= 0:
        return None
    share = prefill_share(rate * out, inf)
    if share >= 1:
        return None
    return (inf.prefill_seconds or 0.0) + out / (speed.per_sequence * (1 - share)), share


def rate_concurrency(
    req: SizingRequest, inf: Inference, setup: ServingSetup, most: list[int], ledger: Ledger
) -> Inference:
    """``inf`` re-sized at L = ⌈qps × W⌉ sequences on its own TP × PP and GPUs (the fixed point above;
    ``most[0]`` receives L, ``setup`` is sized by :func:`estimator.inference.serve`), the assumption
    ``concurrency`` said with the arithmetic (``Why.rate_concurrency``) and the note that the load's
    fewest GPUs decode less (``throughput_copies``) re-said at L. Unchanged without a stated rate, with a
    stated load, or when the layout decodes less than qps × output tokens/s."""
    from estimator.inference import serve

    rate, found = req.qps, request_seconds(inf, req.qps or 0.0)
    speed = inf.decode_tokens_per_s
    if not rate or req.concurrency or found is None or speed is None or not most:
        return inf
    if speed.aggregate < rate * (inf.context_tokens - (inf.prompt_tokens or 0)):
        return inf
    group, gpus, n = (inf.tp, inf.pp), inf.recommended_gpus, most[0]

    def on(count: int, gpu_count: int) -> Inference:
        return serve(replace(setup, concurrency=count, group=group, gpu_count=gpu_count))

    for _ in range(ROUNDS):
        want = max(1, math.ceil(rate * found[0]))
        if want == n:
            break
        n, inf = want, on(want, gpus).model_copy(update={"recommended_gpus": gpus})
        if (found := request_seconds(inf, rate)) is None:
            return inf
    most[:] = [n]
    per_sequence = inf.decode_tokens_per_s.per_sequence if inf.decode_tokens_per_s else 0.0
    ledger.assume(
        "concurrency",
        n,
        Why.rate_concurrency,
        qps=f"{rate:g}",
        seconds=f"{found[0]:.3g}",
        ttft=f"{inf.prefill_seconds or 0:.2g}",
        output=f"{inf.context_tokens - (inf.prompt_tokens or 0):,}",
        speed=f"{per_sequence * (1 - found[1]):.3g}",
        prefill=f"{found[1]:.0%}",
    )
    _resaid(ledger, n, partial(on, n))
    return inf


def _resaid(ledger: Ledger, n: int, on: Callable[[int], Inference]) -> None:
    """The note 'the N sequences fit on G GPUs, which decode ≈ T tokens/s' (``throughput_copies``, said
    at the load the throughput search held) re-said at L sequences on the same G GPUs, in its place."""
    for i, note in enumerate(ledger.notes):
        if note.code == "throughput_copies":
            load = on(int(note.params["load_gpus"] or 1)).decode_tokens_per_s
            params = note.params | {"concurrency": n, "tokens_per_s": load.aggregate if load else None}
            ledger.notes[i] = built_note(note.code, params)
