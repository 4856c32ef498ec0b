"""The time to first token under a load (s46 trial #12): 'P99 TTFT under 500 ms for 200 concurrent users'.

One prompt's prefill alone (``Inference.prefill_seconds``, :func:`estimator.serving_speed.prefill_seconds`)
is the service time S of a queue: under a load each arriving prompt waits for the prefill of the prompts
ahead of it on its copy of the model. In steady state requests finish, and so arrive, at the rate the copy
decodes their answers: λ = (output tokens/s of the copy) ÷ (output tokens a request) (flow balance,
Little's law L = λW: Little 1961). The prefill's load is ρ = λ·S; at ρ ≥ 1 prompts arrive faster than the
copy can prefill them and the wait grows without bound.

Below that, prompts of one length take the same time (deterministic service) and arrivals of many
independent users are Poisson: an M/D/1 queue. Its mean wait is the Pollaczek–Khinchine formula
W_q = ρ·S ÷ (2(1 − ρ)) (Kleinrock 1975, *Queueing Systems* Vol. 1 §5.7, M/G/1 with zero service
variance); a prompt waits at all with probability ρ, and the wait of those that do is taken as exponential
with mean W_q ÷ ρ (Kingman 1962's heavy-traffic limit: the waiting time of a GI/G/1 queue is
exponential), so the q-quantile wait is (W_q ÷ ρ)·ln(ρ ÷ (1 − q)) when ρ > 1 − q, else 0.

The figure is a lower bound: the decode steps of the running sequences share the same GPUs (chunked
prefill puts both in one step, estimator.prefill_load), which stretches each prefill beyond S."""

from __future__ import annotations

import math
from typing import NamedTuple


class LoadedTtft(NamedTuple):
    """The time to first token at a quantile under the load, seconds, and the prefill's load ρ."""

    seconds: float
    """S + the q-quantile wait; ``math.inf`` at ρ ≥ 1."""
    rho: float
    arrivals_per_s: float
    """Requests a second on one copy of the model (λ)."""


def loaded_ttft(
    prefill_s: float, tokens_per_s: float, output_tokens: int, quantile: float | None = 0.99
) -> LoadedTtft | None:
    """The ``quantile`` time to first token on one copy of the model that decodes ``tokens_per_s`` output
    tokens a second in all, each request ``output_tokens`` long, one prompt's prefill taking
    ``prefill_s`` seconds (module docstring: λ = tokens_per_s ÷ output_tokens, ρ = λ·S, M/D/1 wait);
    ``quantile`` None: the mean, S + W_q. None when any input is not positive or ``quantile`` is outside
    (0, 1). Example: Llama 3.3 70B on
    8 × H100 (TP 8), 200 sequences of a 3,072-token prompt and 1,024 output tokens: S = 0.130 s,
    5,701 tokens/s → λ = 5.57/s, ρ = 0.72, P99 ≈ 0.13 + 1.0 = 1.1 s."""
    if prefill_s <= 0 or tokens_per_s <= 0 or output_tokens <= 0 or not 0 < (quantile or 0.5) < 1:
        return None
    arrivals = tokens_per_s / output_tokens
    rho = arrivals * prefill_s
    if rho >= 1:
        return LoadedTtft(math.inf, rho, arrivals)
    mean_wait = rho * prefill_s / (2 * (1 - rho))  # Pollaczek–Khinchine, deterministic service
    if quantile is None:
        return LoadedTtft(prefill_s + mean_wait, rho, arrivals)
    tail = 1 - quantile
    wait = (mean_wait / rho) * math.log(rho / tail) if rho > tail else 0.0
    return LoadedTtft(prefill_s + wait, rho, arrivals)
