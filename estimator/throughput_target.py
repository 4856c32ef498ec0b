"""A serving throughput target ("5,000 tokens/s", "每分钟 100 万 token") → the sequences to decode at once.

Aggregate decode throughput is per-sequence speed × sequences decoded together (a decode batch; Kwon
et al. 2023 §6 measure vLLM's throughput this way). Per-sequence speed falls as the batch grows (the
weights are read once per step for the whole batch, the KV cache once per sequence: Pope et al. 2022
§2), so the count that reaches the target is found by fixed-point iteration: n ← ⌈target ÷ speed(n)⌉.
The GPUs then follow from holding n sequences, as for a stated load.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from estimator.copying import replace
from estimator.inference import ServingSetup, serve
from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest

ROUNDS = 12
"""Steps of the search for the count; each scales n by target ÷ aggregate (at least +1)."""

SATURATED = 0.25
"""More sequences that add less than a quarter of their share to the aggregate: the GPUs are compute-
bound there, and the search stops rather than grow the load (and the GPUs) without end."""


def concurrency_for_target(
    target: float, most: list[int], sized: Callable[[], Inference], inf: Inference
) -> Inference:
    """The answer sized at the fewest sequences found that decode ``target`` output tokens/s in total
    (``most[0]`` receives the count; ``sized`` sizes at ``most[0]``). ``inf``: the answer at the
    default load. The aggregate grows with n while the per-sequence speed falls, so n starts at
    ⌈target ÷ speed⌉ and grows by target ÷ aggregate until the target is met, or the aggregate stops
    growing (compute-bound: more sequences no longer add tokens/s). Unchanged without a speed."""
    speed = inf.decode_tokens_per_s
    if speed is None or speed.per_sequence <= 0:
        return inf
    most[:] = [max(1, math.ceil(target / speed.per_sequence))]
    inf = sized()
    for _ in range(ROUNDS):
        speed = inf.decode_tokens_per_s
        if speed is None or speed.aggregate >= target or speed.aggregate <= 0:
            break
        n = max(most[0] + 1, math.ceil(most[0] * target / speed.aggregate))
        previous, step = speed.aggregate, n / most[0] - 1
        most[:] = [n]
        inf = sized()
        grown = inf.decode_tokens_per_s
        if grown is None or grown.aggregate / previous - 1 < SATURATED * step:  # compute-bound: stop
            break
    return inf


def note_short_of_target(target: float | None, inf: Inference, ledger: Ledger, prompt: bool = False) -> None:
    """When the load the GPUs hold decodes less than the target (bandwidth spent on the KV cache: the
    aggregate of one copy levels off as its batch grows), the copies that would reach it: the copies
    scale the aggregate (each decodes its share of the sequences), ⌈copies × target ÷ aggregate⌉. With
    the prompt length stated (``prompt``), prefill and decode are checked together instead
    (:func:`note_shared_short`)."""
    if prompt and target and (shares := _shares(target, inf)) is not None:  # s20 #4: they share the time
        note_shared_short(target, shares, inf, ledger)
        return
    note_prefill_short(target, inf, ledger, assumed=not prompt)
    speed = inf.decode_tokens_per_s
    if not target or speed is None or speed.aggregate <= 0 or speed.aggregate >= target:
        return
    copies = math.ceil(inf.replicas * target / speed.aggregate)
    ledger.note(
        "throughput_short",
        target_tokens_per_s=target,
        tokens_per_s=speed.aggregate,
        replicas=copies,
        gpus=copies * inf.tp * inf.pp,
        per_copy=inf.tp * inf.pp,
    )


def copies_for_target(
    target: float | None, inf: Inference, sized_on: Callable[[int], Inference], ledger: Ledger
) -> Inference:
    """The GPUs that reach the ``target`` tokens/s (the question asked) when the GPUs that hold the load
    decode less (the KV cache's bandwidth levels one copy's aggregate off): copies of the same TP × PP,
    each decoding its share of the sequences, from ⌈copies × target ÷ aggregate⌉ up until the target is
    met (``sized_on(copies)`` sizes on that many copies). The answer is sized on them, its
    ``recommended_gpus`` the GPUs that reach the target; a note gives the GPUs that hold the load and
    what they decode. Unchanged when the load's GPUs already reach it."""
    speed = inf.decode_tokens_per_s
    if not target or speed is None or speed.aggregate <= 0 or speed.aggregate >= target:
        return inf
    per, copies = inf.tp * inf.pp, math.ceil(inf.replicas * target / speed.aggregate)
    for _ in range(ROUNDS):
        more = sized_on(copies)
        got = more.decode_tokens_per_s
        if got is None or got.aggregate <= 0:
            return inf
        if got.aggregate >= target:
            break
        copies = max(copies + 1, math.ceil(copies * target / got.aggregate))
    else:
        return inf
    ledger.note(
        "throughput_copies",
        target_tokens_per_s=target,
        load_gpus=inf.serving_gpus,
        tokens_per_s=speed.aggregate,
        concurrency=inf.concurrency,
        gpus=copies * per,
        replicas=copies,
        per_copy=per,
    )
    return more.model_copy(update={"recommended_gpus": copies * per})


def reach_target(req: SizingRequest, inf: Inference, setup: ServingSetup, ledger: Ledger) -> Inference:
    """No GPU count stated: the answer is the GPUs that reach the throughput target, copies of ``inf``'s
    TP × PP (:func:`copies_for_target`; ``setup`` sized at ``inf``'s load on n copies,
    :func:`estimator.inference.serve`)."""
    if req.gpu_count:
        return inf
    tp, pp = inf.tp, inf.pp

    def on(n: int) -> Inference:
        return serve(replace(setup, concurrency=inf.concurrency, group=(tp, pp), gpu_count=n * tp * pp))

    inf = copies_for_target(req.target_tokens_per_s, inf, on, ledger)
    # no prompt length said: the context's assumed prompt share, said in the note (s37 grpo #2)
    return share_with_prefill(req.target_tokens_per_s, inf, on, ledger, assumed=not req.prompt_tokens)


def _shares(target: float, inf: Inference) -> tuple[float, float, float] | None:
    """(prompt tokens/s to prefill, the fraction of a second prefill takes, the fraction decode takes)
    over all copies, or None without a prompt, an output length, a prefill time or a decode speed."""
    prompt, out = inf.prompt_tokens or 0, inf.context_tokens - (inf.prompt_tokens or 0)
    speed = inf.decode_tokens_per_s
    if prompt <= 0 or out <= 0 or not inf.prefill_seconds or speed is None or speed.aggregate <= 0:
        return None
    need = target / out * prompt
    return need, need * _prefill_compute(inf) / (inf.replicas * prompt), target / speed.aggregate


def prefill_share(target: float, inf: Inference) -> float:
    """The fraction of each second that the prompts of a rate decoding ``target`` output tokens/s take to
    prefill on ``inf``'s copies, as :func:`share_with_prefill` counts it (compute-bound: prompt tokens/s
    = target ÷ output × prompt, × time to first token ÷ (prompt × copies)); 0 without a prompt, an
    output length or a prefill time."""
    prompt, out = inf.prompt_tokens or 0, inf.context_tokens - (inf.prompt_tokens or 0)
    if prompt <= 0 or out <= 0 or not inf.prefill_seconds:
        return 0.0
    return target / out * prompt * _prefill_compute(inf) / (inf.replicas * prompt)


def _prefill_compute(inf: Inference) -> float:
    """A prompt's prefill seconds less its tensor-parallel all-reduces (s39 fixs #1): the throughput model
    fitted on MLPerf Inference (estimator.validation_serving) leaves them out — in-flight batching
    carries prefill chunks inside the decode steps, whose all-reduce is the decode's (``decode_speed``)."""
    return (inf.prefill_seconds or 0.0) - inf.prefill_allreduce_seconds


def share_with_prefill(
    target: float | None,
    inf: Inference,
    sized_on: Callable[[int], Inference],
    ledger: Ledger,
    assumed: bool = False,
) -> Inference:
    """The copies whose GPUs both prefill the request rate's prompts and decode the ``target`` output
    tokens/s: vLLM's chunked prefill runs both in the same steps on the same GPUs (vLLM docs, 'Chunked
    Prefill': prefills are batched with the decodes), so a copy's second holds the prefill's time plus the
    decode's, prefill share + decode share ≤ 1. Prefill share = prompt tokens/s × time to first token ÷
    (prompt × copies) (compute-bound, 2·N FLOPs a token at the prefill MFU 0.675 fitted on MLPerf
    Inference v4.1: :data:`estimator.serving_speed.FITTED`); decode share = target ÷ the aggregate decode
    tokens/s. Above 1: copies from ⌈copies × sum⌉ until the sum fits (``sized_on(copies)``), the note
    ``prefill_decode_share``; unchanged when it fits. With no prompt length said (``assumed``), the
    prompt is the context's assumed share (:data:`estimator.runtimes.base.PROMPT_SHARE`) and the note
    ``prefill_decode_share_assumed`` says the prompt and output lengths it rests on (s37 grpo #2)."""
    shares = _shares(target or 0, inf) if target else None
    if target is None or shares is None or shares[1] + shares[2] <= 1:
        return inf
    need, prefill, decode = shares
    per, copies, more = inf.tp * inf.pp, math.ceil(inf.replicas * (prefill + decode)), inf
    for _ in range(ROUNDS):
        more = sized_on(copies)
        got = _shares(target, more)
        if got is None:
            return inf
        if got[1] + got[2] <= 1:
            break
        copies = max(copies + 1, math.ceil(copies * (got[1] + got[2])))
    else:
        return inf
    lengths = {"prompt": inf.prompt_tokens, "output": inf.context_tokens - (inf.prompt_tokens or 0)}
    ledger.note(
        "prefill_decode_share_assumed" if assumed else "prefill_decode_share",
        **(lengths if assumed else {}),
        prefill_tokens_per_s=round(need),
        prefill_share=prefill,
        decode_share=decode,
        load_gpus=inf.replicas * per,
        replicas=copies,
        per_copy=per,
        gpus=copies * per,
        target_tokens_per_s=target,
    )
    return more.model_copy(update={"recommended_gpus": copies * per})


def note_prefill_short(target: float | None, inf: Inference, ledger: Ledger, assumed: bool = False) -> None:
    """When the prompts of the request rate need more prefill than the plan computes ('20 req/s, 2,000
    tokens in, 200 out': 20 × 2,000 = 40,000 prompt tokens/s), the note ``prefill_short``. The rate is
    the output target ÷ the output tokens of a request (context − prompt, tokens); the plan's prefill
    throughput is compute-bound, 2·N FLOPs a token at the prefill MFU (Kaplan et al. 2020 Table 1,
    forward pass; :func:`estimator.serving_speed.prefill_seconds`): prompt ÷ time to first token per copy,
    × copies (tokens/s). Prefill and decode share the GPUs, so past 100 % prefill is the limit, whatever
    the decode speed: the copies that prefill it are ⌈copies × need ÷ capacity⌉. Nothing without a
    target, a prompt length or a prefill time. With no prompt nor output length said (``assumed``), the
    output a request writes is the context's share past the assumed prompt, and the note says so
    (``prefill_short_assumed``, s37 fixb #1: the rate rests on it)."""
    prompt, out = inf.prompt_tokens or 0, inf.context_tokens - (inf.prompt_tokens or 0)
    if not target or prompt <= 0 or out <= 0 or not inf.prefill_seconds or inf.prefill_seconds <= 0:
        return
    rate = target / out  # requests a second
    need, capacity = rate * prompt, inf.replicas * prompt / _prefill_compute(inf)
    if need <= capacity:
        return
    copies, per = math.ceil(inf.replicas * need / capacity), inf.tp * inf.pp
    ledger.note(
        "prefill_short_assumed" if assumed else "prefill_short",
        **({"output": out, "target_tokens_per_s": target} if assumed else {}),
        rate=round(rate, 2),
        prompt=prompt,
        prefill_tokens_per_s=round(need),
        prefill_capacity=round(capacity),
        replicas=copies,
        per_copy=per,
        gpus=copies * per,
    )


def note_shared_short(
    target: float, shares: tuple[float, float, float], inf: Inference, ledger: Ledger
) -> None:
    """On the user's GPUs (a count stated), the request rate's prefill and the ``target`` decode share
    each copy's second as :func:`share_with_prefill` sizes them with no count (vLLM's chunked prefill:
    both in the same steps): past a whole second, the note ``prefill_decode_short`` with both shares, the
    larger one as the limit ('prefill' or 'decode') and the copies of the same TP × PP that do both,
    ⌈copies × (prefill share + decode share)⌉ (the shares fall as 1 ÷ copies). Nothing when both fit
    (s20 #4: before, prefill was checked alone, then decode alone)."""
    need, prefill, decode = shares
    if prefill + decode <= 1:
        return
    per, copies = inf.tp * inf.pp, math.ceil(inf.replicas * (prefill + decode))
    ledger.note(
        "prefill_decode_short",
        prefill_tokens_per_s=round(need),
        prefill_share=prefill,
        decode_share=decode,
        target_tokens_per_s=target,
        load_gpus=inf.replicas * per,
        limit="prefill" if prefill >= decode else "decode",
        replicas=copies,
        per_copy=per,
        gpus=copies * per,
        **({} if prefill >= decode else {"decode_limit": 1}),  # the note's wording: decode the larger part
    )
