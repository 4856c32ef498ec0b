"""Tokens a deployment generates in a period, and how long an offline batch takes (s44 trial #3, #4).

'How many tokens a day can 8 H100 generate with Llama 3.1 70B', '8 张 H100 一天能生成多少 token' and
'process 1B tokens, how long on 8×H100' were answered with a fit and a price per million tokens, never with
the figure asked. Both are the deployment's total output throughput at its best batch: the inference
estimate's ``priced_tokens_per_s``, the sequences that decode at once when the GPUs hold the most they can
(``priced_concurrency``: estimator.inference, the same throughput the price per million tokens assumes), on
the layout the estimate chose — copies of the smallest tensor/pipeline-parallel group that holds the model
and its KV cache, each answering its own requests (``replicas``), which give more tokens than one copy over
every GPU (estimator.serving_layout). Then

    tokens in a period T = throughput × T  (T = 86,400 s a day, 3,600 s an hour),
    batch time = batch tokens ÷ throughput.

Every token is counted as generated (a decode step's rate), so a batch whose tokens are mostly prompt is
timed high: prefill runs several times faster per token than decoding (Pope et al. 2022, §2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from estimator.request import SizingRequest


class BatchWork(BaseModel):
    """The answer to a tokens-in-a-period or batch-duration question (module doc): ``report.batch_work``."""

    model_config = ConfigDict(frozen=True)

    tokens_per_s: float
    """output tokens/s of the whole deployment at ``sequences`` at once (inference.priced_tokens_per_s)"""
    sequences: int
    """sequences decoding at once: the most the GPUs hold (inference.priced_concurrency)"""
    gpus: int
    tp: int
    pp: int
    replicas: int
    """the layout: ``replicas`` copies of TP × PP GPUs each"""
    period_s: int | None = None
    """the period asked about, in seconds (request.tokens_period_asked_s)"""
    tokens_in_period: float | None = None
    """tokens_per_s × period_s"""
    batch_tokens: float | None = None
    """the batch's tokens (request.batch_tokens)"""
    batch_seconds: float | None = None
    """batch_tokens ÷ tokens_per_s"""


def batch_work(req: SizingRequest, inference: Any) -> BatchWork | None:
    """The :class:`BatchWork` of a request that asks a period's tokens or a batch's time, from its
    inference estimate (``estimator.models.Inference``); None when neither is asked or no throughput was
    estimated (the model does not fit, no price, a personal card)."""
    period, batch = req.tokens_period_asked_s, req.batch_tokens
    if not (period or batch) or inference is None:
        return None
    tps, seqs = inference.priced_tokens_per_s, inference.priced_concurrency
    if not tps or not seqs:
        return None
    return BatchWork(
        tokens_per_s=tps,
        sequences=seqs,
        gpus=inference.serving_gpus or inference.min_gpus or 1,
        tp=inference.tp or 1,
        pp=inference.pp or 1,
        replicas=inference.replicas or 1,
        period_s=period,
        tokens_in_period=tps * period if period else None,
        batch_tokens=batch,
        batch_seconds=batch / tps if batch else None,
    )
