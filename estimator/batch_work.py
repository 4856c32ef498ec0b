"""Tokens a deployment generates in a period, and how long an offline batch takes (s44 trial #3, #4).

'How many tokens a day can 8 H100 generate with Llama 3.1 70B', '8 张 H100 一天能生成多少 token' and
'process 1B tokens, how long on 8×H100' were answered with a fit and a price per million tokens, never with
the figure asked. Both are the deployment's total output throughput at its capacity (s44 batchfix; review
B2: the layout sized for the default load, 16 sequences or 1 on a GeForce card, was priced, up to 18× too
low): on the stated GPUs, each tensor-parallel size that divides the count and the model's heads
(:func:`estimator.serving_layout.tp_options`) is laid out as count ÷ TP copies, each holding the most
sequences its KV cache takes at the context (:func:`estimator.inference.serve` at an unbounded load:
``max_concurrency``, capped by the engine's ``max_num_seqs``), and timed by the serving speed model at that
load (``decode_tokens_per_s``: estimator.serving_speed.decode_speed, whose per-sequence speed falls as
the batch grows); the TP with the most tokens/s is kept. A stated TP × PP is kept as stated; a runtime
that splits layers (llama.cpp, Ollama) keeps its own layout. Then

    tokens in a period T = throughput × T  (T = 86,400 s a day, 3,600 s an hour),
    batch time = batch tokens ÷ throughput,
    batch cost = batch time × GPUs × the price per GPU-hour (s46 trial #1: 'how much will it cost'),

arithmetic on the serving estimate's price range (:func:`estimator.ledger.price_range`: the user's price,
else the catalog's market range per GPU-hour, each with its source in the assumptions); without the serving
setup, the price its month was billed at (:func:`_month_price`)

Every token is counted as generated (a decode step's rate), so a batch whose tokens are mostly prompt is
timed high: prefill runs several times faster per token than decoding (Pope et al. 2022, §2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from estimator.copying import replace

if TYPE_CHECKING:
    from estimator.request import SizingRequest


class BatchCost(BaseModel):
    """An offline batch's rental cost range: ``low`` – ``high`` in ``currency`` (its code, e.g. "USD")."""

    model_config = ConfigDict(frozen=True)

    low: float
    high: float
    currency: str
    price_low: float
    price_high: float
    """the price range per GPU-hour the cost is at"""


class BatchWork(BaseModel):
    """The answer to a tokens-in-a-period or batch-duration question (module doc): ``report.batch_work``."""

    model_config = ConfigDict(frozen=True)

    tokens_per_s: float
    """output tokens/s of the whole deployment at ``sequences`` at once (inference.priced_tokens_per_s)"""
    sequences: int
    """sequences decoding at once over all copies: the most they hold at the context (module doc)"""
    gpus: int
    tp: int
    pp: int
    replicas: int
    """the layout: ``replicas`` copies of TP × PP GPUs each"""
    most_held: bool = True
    """``sequences`` is the most these GPUs hold (False: the estimate's priced load, no capacity found)"""
    period_s: int | None = None
    """the period asked about, in seconds (request.tokens_period_asked_s)"""
    tokens_in_period: float | None = None
    """tokens_per_s × period_s"""
    batch_tokens: float | None = None
    """the batch's tokens (request.batch_tokens)"""
    batch_seconds: float | None = None
    """batch_tokens ÷ tokens_per_s"""
    batch_gpu_hours: float | None = None
    """batch_seconds ÷ 3,600 × gpus: the GPU-hours the batch rents (s46 trial #1)"""
    batch_cost: BatchCost | None = None
    """batch_gpu_hours × the serving estimate's price range per GPU-hour (estimator.ledger.price_range); None
    without a price"""


UNBOUNDED = 10**6
"""A load no layout holds: :func:`estimator.inference.serve` then runs the most its GPUs hold."""


def _capacity(
    setup: Any, inference: Any, stated: bool, kv_stated: bool
) -> tuple[float, int, int, int, int] | None:
    """(tokens/s, sequences, TP, PP, copies) of the layout with the most tokens/s at capacity on the
    estimate's GPUs (module doc); ``stated``: the user's TP × PP, kept; ``kv_stated``: their KV type, kept.
    None when none holds a sequence."""
    from estimator.inference import serve
    from estimator.models import Precision
    from estimator.runtimes import GGUF_FORMATS, runtime_named
    from estimator.serving_layout import tp_options

    count = inference.serving_gpus or inference.min_gpus or 1
    rt = runtime_named(inference.runtime)
    if setup.precision in GGUF_FORMATS and not (kv_stated or rt.local):  # as size_serving: f16 KV for GGUF
        setup = replace(setup, kv_precision=Precision.fp16)
    own = (inference.tp or 1, inference.pp or 1)
    groups = [own]
    if not (stated or rt.splits_layers):
        groups += [(t, 1) for t in tp_options(setup.spec, setup.gpu, rt) if count % t == 0 and (t, 1) != own]
    best = None
    for tp, pp in groups:
        if count % (tp * pp):
            continue
        inf = serve(
            replace(setup, concurrency=UNBOUNDED, group=(tp, pp), gpu_count=count, most_sequences=False)
        )
        speed, seqs = inf.decode_tokens_per_s, inf.max_concurrency
        if speed is None or not seqs:
            continue
        if best is None or speed.aggregate > best[0]:
            best = (speed.aggregate, seqs, tp, pp, count // (tp * pp))
    return best


def _month_price(inference: Any) -> tuple[float, float, str] | None:
    """(low, high, currency) per GPU-hour the estimate's month was priced at: ``cost_per_month`` ÷ (serving
    GPUs × each one's hours a month, 730 or a daily schedule's; as estimator.layer_offload prices its own
    layout); None when the month is unpriced."""
    month = getattr(inference, "cost_per_month", None)
    if month is None:
        return None
    from estimator.serving_speed import HOURS_PER_MONTH

    hours = max(1, inference.serving_gpus) * (inference.gpu_hours_per_month or HOURS_PER_MONTH)
    return month.low / hours, month.high / hours, month.currency


def batch_work(req: SizingRequest, inference: Any, served: Any = None) -> BatchWork | None:
    """The :class:`BatchWork` of a request that asks a period's tokens or a batch's time, from its
    inference estimate (``estimator.models.Inference``) and the serving answer it came from
    (``estimator.serving.ServingResult``: its ``setup`` in its ``precision``, re-laid at capacity, module
    doc; without one, the estimate's priced figures); None when neither is asked or no throughput was
    estimated (the model does not fit, no speed)."""
    period, batch = req.tokens_period_asked_s, req.batch_tokens
    if not (period or batch) or inference is None:
        return None
    setup = getattr(served, "setup", None)  # the ServingSetup sized, before its precision was settled
    best = None
    if setup is not None:
        setup = replace(setup, precision=served.precision)
        best = _capacity(setup, inference, bool(req.tp or req.pp), bool(req.kv_precision))
    most = best is not None
    if best is None:
        tps, seqs = inference.priced_tokens_per_s, inference.priced_concurrency
        if not tps or not seqs:
            return None
        best = (tps, seqs, inference.tp or 1, inference.pp or 1, inference.replicas or 1)
        most = seqs >= (inference.max_concurrency or 0)
    tps, seqs, tp, pp, copies = best
    hours = batch / tps / 3600 * tp * pp * copies if batch else None
    price = getattr(setup, "price", None) if setup is not None else _month_price(inference)  # s46 review N10
    cost = None
    if hours and price:
        money = getattr(price[2], "value", price[2])
        cost = BatchCost(
            low=hours * price[0],
            high=hours * price[1],
            currency=money,
            price_low=price[0],
            price_high=price[1],
        )
    return BatchWork(
        tokens_per_s=tps,
        sequences=seqs,
        gpus=tp * pp * copies,
        tp=tp,
        pp=pp,
        replicas=copies,
        most_held=most,
        period_s=period,
        tokens_in_period=tps * period if period else None,
        batch_tokens=batch,
        batch_seconds=batch / tps if batch else None,
        batch_gpu_hours=hours,
        batch_cost=cost,
    )
