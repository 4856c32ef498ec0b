"""The prompts' prefill on a serving engine's decode steps (s41 trial #1).

A server with continuous batching and chunked prefill (vLLM V1, SGLang) runs the prompts of arriving
requests in the same steps as the running sequences' decoding: each step has a token budget
(``max_num_batched_tokens``), the running requests are scheduled first and the budget left goes to
chunks of waiting prompts (vllm-project/vllm ``vllm/v1/core/sched/scheduler.py`` ``Scheduler.schedule``:
``token_budget = self.max_num_scheduled_tokens``; "First, schedule the RUNNING requests", then the
WAITING ones; Agrawal et al. 2024, "Sarathi-Serve", OSDI: stall-free batching with chunked prefills).
A step that carries a prefill chunk is compute-bound, so it lasts about as long as that chunk's
prefill: every prompt's compute, input tokens × (2·N_active + attention) FLOPs
(:func:`estimator.serving_speed.prefill_seconds`), is added to the steps that decode the others.

In steady state with ``batch`` sequences on a replica, each producing ``output`` tokens, a sequence
finishes every ``output`` steps and another request's prompt is prefilled in its place: over one
sequence's ``output`` tokens the replica prefills ``batch`` − 1 other prompts (its own prompt is the time
to first token, shown apart). Each step therefore lasts the decode step plus
(``batch`` − 1) × prefill seconds ÷ ``output``. Example: Qwen2.5-72B on 4 × A100, 54 sequences of
8,192-token prompts and 512-token answers: a 76 ms decode step (13.2 tokens/s) + 53 × 1.673 s / 512 =
173 ms of prefill, ≈ 4.0 tokens/s per sequence (≈ 217 tokens/s in total instead of 710).

The added time is an upper bound (s41 review #5): it adds the compute-bound prefill chunk and the
memory-bound decode step as if they ran one after the other, with no overlap. In one fused step the
decode's weight reads and the chunk's matmuls share the same pass over the weights, so the real step
lies between max(decode, prefill chunk) and their sum: the speed shown is a lower bound.

Applied where the user stated the prompt length (``prompt_tokens``) and the answer length follows
(``context`` − prompt > 0), on the server engines (not llama.cpp/Ollama/transformers, which split
layers or serve one request at a time)."""

from __future__ import annotations

from estimator.ledger import Ledger
from estimator.models import DecodeSpeed, Inference, SizingRequest


def prefill_per_step(batch: int, prefill_s: float, output_tokens: int) -> float:
    """Seconds of other requests' prefill each decode step carries: (``batch`` − 1) × ``prefill_s`` ÷
    ``output_tokens`` (module docstring); 0 for one sequence or no answer length."""
    if batch <= 1 or output_tokens <= 0 or prefill_s <= 0:
        return 0.0
    return (batch - 1) * prefill_s / output_tokens


def with_prefill(one: DecodeSpeed | None, prefill_s: float, output_tokens: int) -> DecodeSpeed | None:
    """``one`` (a replica's decode speed at ``one.batch`` sequences) slowed by the prompts' prefill it
    runs between its tokens (:func:`prefill_per_step`): tokens/s per sequence and in total × step ÷
    (step + prefill per step), the band likewise. Unchanged for one sequence."""
    if one is None:
        return one
    added = prefill_per_step(one.batch, prefill_s, output_tokens)
    if added <= 0.0:
        return one
    step = 1.0 / one.per_sequence
    k = step / (step + added)
    low, high = one.per_sequence_low, one.per_sequence_high
    return one.model_copy(
        update={
            "per_sequence": one.per_sequence * k,
            "aggregate": one.aggregate * k,
            "per_sequence_low": None if low is None else low * k,
            "per_sequence_high": None if high is None else high * k,
        }
    )


def prefill_in_decode(req: SizingRequest) -> bool:
    """The prompt length stated and no throughput target or request volume, whose sizing counts the
    prefill and decode shares of a copy's time itself (``estimator.throughput_target``)."""
    volume = req.target_tokens_per_s or req.requests_per_day or req.requests_per_hour
    return bool(req.prompt_tokens) and not volume


def note_prefill_load(prompt_stated: bool, paged: bool, inf: Inference, ledger: Ledger) -> None:
    """The ``prefill_in_decode`` note where :func:`with_prefill` slowed the decode speed shown: the stated
    prompt (``length``), its prefill in seconds on the layout (``prefill_s``), the share of each step the
    others' prompts take at the load shown (``prefill_share``, ``concurrency``) and the tokens/s per
    sequence decoding alone would give (``tokens_per_s``)."""
    speed, prefill_s = inf.decode_tokens_per_s, inf.prefill_seconds or 0.0
    answer = inf.context_tokens - inf.prompt_tokens
    if not (prompt_stated and paged and speed and prefill_s > 0 and answer > 0):
        return
    per_replica = -(-speed.batch // max(1, inf.replicas))
    added = prefill_per_step(per_replica, prefill_s, answer)
    if added <= 0.0:
        return
    step = 1.0 / speed.per_sequence
    ledger.note(
        "prefill_in_decode",
        length=inf.prompt_tokens,
        prefill_s=round(prefill_s, 2),
        prefill_share=round(added / step, 3),
        concurrency=speed.batch,
        tokens_per_s=round(1.0 / (step - added)),
    )
