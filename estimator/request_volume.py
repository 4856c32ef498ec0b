"""A request volume as the sequences a service runs at once (s35 fix c item 2): Little's law.

'部署qwen3-8b给客服用，每天大概1万次对话，平均每次2000 token' stated no concurrency but a volume. The
sequences in flight L = λ × W (Little 1961, "A proof for the queuing formula L = λW"): λ the arrival rate
of requests, W the time each is in the system — here the time its tokens take to decode at one
sequence's speed, tokens ÷ per-sequence tokens/s. So L × per-sequence speed = λ × tokens: the load is the
output throughput λ × tokens, sized as ``target_tokens_per_s`` (the sequences that decode it:
:mod:`estimator.throughput_target`), said in the assumptions with the arithmetic.

λ from a daily count is the busiest hour's: the day's average rate × :data:`PEAK_FACTOR` (a planning
assumption, said: a service's busiest hour carries 2–3× its average hour's traffic; the high end is
taken). An hourly count is taken as that hour's rate. Each request's tokens are counted as generated
(the prompt's prefill is several times faster per token than decoding, so W, and the load, err high);
without a stated size, :data:`DEFAULT_TOKENS_PER_REQUEST` (a planning assumption, said)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.reasons import Why

if TYPE_CHECKING:
    from estimator.ledger import Ledger
    from estimator.request import SizingRequest

PEAK_FACTOR = 3.0
"""The busiest hour's traffic ÷ the day's average hour (module docstring: the high end of 2–3×)."""
DEFAULT_TOKENS_PER_REQUEST = 500
"""Generated tokens per request when none are stated: a chat reply of a few hundred tokens (assumed)."""


def volume_load(req: SizingRequest, ledger: Ledger) -> SizingRequest:
    """``req`` with ``target_tokens_per_s`` = λ × tokens per request when it states a request volume and
    no load (concurrency, users, a throughput), or a token volume (:func:`_token_volume`); ``req``
    unchanged otherwise."""
    daily, hourly = req.requests_per_day, req.requests_per_hour
    if req.concurrency or req.users or req.target_tokens_per_s:
        return req
    if not (daily or hourly):
        return _token_volume(req, ledger) if req.tokens_per_day or req.tokens_per_hour else req
    tokens = req.tokens_per_request or int(
        ledger.assume("tokens_per_request", DEFAULT_TOKENS_PER_REQUEST, Why.tokens_per_request_default)
    )
    rate = hourly / 3600 if hourly else daily / 86400 * PEAK_FACTOR  # type: ignore[operator]
    target = rate * tokens
    why = Why.request_volume_hourly if hourly else Why.request_volume_daily
    params = {"requests": hourly or daily, "peak": PEAK_FACTOR, "rate": round(rate, 2), "tokens": tokens}
    ledger.assume("target_tokens_per_s", round(target, 1), why, **params)
    return req.model_copy(update={"target_tokens_per_s": target})


def _token_volume(req: SizingRequest, ledger: Ledger) -> SizingRequest:
    """``req`` with ``target_tokens_per_s`` from a token volume (s44 trial #1: 'we process 50 million
    tokens per day through Llama 3.1 70B'): the hour's tokens ÷ 3,600 s, or the day's ÷ 86,400 s ×
    :data:`PEAK_FACTOR` (the busiest hour, as a daily request count), every token counted as generated
    (errs high, as above)."""
    hourly, daily = req.tokens_per_hour, req.tokens_per_day
    target = hourly / 3600 if hourly else daily / 86400 * PEAK_FACTOR  # type: ignore[operator]
    why = Why.token_volume_hourly if hourly else Why.token_volume_daily
    ledger.assume("target_tokens_per_s", round(target, 1), why, tokens=hourly or daily, peak=PEAK_FACTOR)
    return req.model_copy(update={"target_tokens_per_s": target})
