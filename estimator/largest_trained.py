"""The largest model a set of GPUs fine-tunes ("8张4090最大能全参微调多大的模型", "what's the biggest model
I can full fine-tune on 8x 4090?"; trial s21 #9): per method (the one said, else full, LoRA and QLoRA),
the most parameters of a generic dense shape (:func:`estimator.architecture.shape_for_size`) whose
fewest GPUs — the layout search every training answer makes (:func:`estimator.plan.min_gpus`: ZeRO
stages, TP/PP, recompute, micro-batch) — are at most the user's count and whose verdict there is not
"does not fit", and the largest catalog models that fit by their own shape. A model is sized by the
same estimate as any fine-tuning question (``size``: :func:`estimator.sizing.estimate`, passed in to
keep the import one way), so this answer and "can I full fine-tune a 7B on 8 × 4090?" agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from estimator import catalog
from estimator.catalog import GpuSpec
from estimator.largest import EXAMPLES, MIN_PARAMS, PRECISION
from estimator.largest_rows import LargestTrained
from estimator.ledger import Ledger
from estimator.reasons import Why
from estimator.request import Method, SizingRequest

METHODS = (Method.full, Method.lora, Method.qlora)
"""The methods compared when none is said: full fine-tuning, LoRA on 16-bit weights, QLoRA on NF4."""
MIN_BYTES_PER_PARAM = 0.5
"""No method here keeps fewer than 4 bits per parameter on the GPUs (QLoRA's NF4 base, Dettmers et al.
2023 §3), so the GPUs' memory ÷ 0.5 bytes cannot fit: the search's upper bound."""
MAX_TRIED = 10
"""Catalog models tried per method for the examples (each is one estimate), largest first."""
EXAMPLE_SLACK = 1.1
"""Catalog models up to 10 % above the generic size are tried, each by its own shape (a smaller
vocabulary or fewer layers can fit more parameters); a wider slack spends the tries on models that
do not fit (a 34B tried against a 29B bound)."""
SCAN_STEP = 1.15
"""The comfortable bound is scanned down from the tight one in 15 % steps (about a dozen estimates
over a 5× gap), then refined to ``PRECISION``."""
TIGHT = ("yes", "borderline")
"""The verdicts of the second bound: sizes that fit only with each card nearly full, CPU offload or an
8-bit optimizer (``SizingReport.feasible``)."""
CARRIED = ("seq_len", "micro_batch")
"""The assumptions of the sized estimates said with this answer: the sequence and micro-batch each
size was trained at (the same defaults as any fine-tuning answer)."""


def largest_trained(
    req: SizingRequest, gpu: GpuSpec, ledger: Ledger, size: Callable[[SizingRequest], Any]
) -> tuple[list[LargestTrained], dict[str, Any]]:
    """Per method: the most parameters trained on ``req.gpu_count`` GPUs of ``gpu`` (one when not
    said, recorded in ``ledger``), or ``params_max`` None when not even 100M fit; with the request
    fields it filled (``gpu_count``, ``seq_len``). ``size`` estimates one request (a SizingReport)."""
    count = req.gpu_count or int(ledger.assume("gpu_count", 1, Why.largest_one_gpu))
    ledger.assume("architecture", "generic", Why.largest_trained_shape)
    last: list[Any] = []

    def fits(update: dict[str, Any], verdicts: tuple[str, ...] = ("yes",)) -> bool:
        report = size(req.model_copy(update={"gpu_count": count, **update}))
        memory = report.memory
        ok = memory is not None and memory.min_gpus is not None and memory.min_gpus <= count
        if ok and report.feasible in verdicts:  # "yes" alone: a 97 % card is a run that may OOM
            last[:] = [report]
            return True
        return False

    out = []
    for method in (req.method,) if req.method else METHODS:
        low, high = MIN_PARAMS, count * gpu.memory_bytes / MIN_BYTES_PER_PARAM
        if not fits({"params_total": low, "method": method}, TIGHT):
            out.append(LargestTrained(method=method, params_max=None, examples=[]))
            continue
        tight = _bisect(low, high, lambda p, m=method: fits({"params_total": p, "method": m}, TIGHT))
        best = _largest_comfortable(low, tight, lambda p, m=method: fits({"params_total": p, "method": m}))
        examples = _examples(best, method, fits) if best is not None else []
        edge = tight if best is None or tight > best * PRECISION else None
        out.append(LargestTrained(method=method, params_max=best, examples=examples, params_tight=edge))
    filled: dict[str, Any] = {"gpu_count": count}
    if last:
        for a in last[0].assumptions:
            if a.field in CARRIED and all(b.field != a.field for b in ledger.assumptions):
                ledger.assumptions.append(a)
        filled["seq_len"] = last[0].request.seq_len
    return out, filled


def _bisect(low: float, high: float, fits: Callable[[float], bool]) -> float:
    """The largest size within ``PRECISION`` of the bound where ``fits`` turns false (``low`` fits,
    ``high`` does not), halving the bounds' ratio each step."""
    while high / low > PRECISION:
        mid = math.sqrt(low * high)
        low, high = (mid, high) if fits(mid) else (low, mid)
    return low


def _largest_comfortable(low: float, tight: float, fits: Callable[[float], bool]) -> float | None:
    """The largest size at most ``tight`` that fits with headroom, scanning down from ``tight`` by
    ``SCAN_STEP`` and refining by bisection: the verdict is not monotonic in size (a 70B LoRA on 8 × A100
    80G is borderline on DP 8 where a 100B fits with TP 2 × DP 4), so a bisection from below could stop
    under a comfortable size. ``low`` when none above it fits; None when not even ``low`` does."""
    p = tight
    while p > low:
        if fits(p):
            return _bisect(p, min(tight * PRECISION, p * SCAN_STEP), fits) if p < tight else p
        p /= SCAN_STEP
    return low if fits(low) else None


def _examples(params: float, method: Method, fits: Callable[[dict[str, Any]], bool]) -> list[str]:
    """The largest catalog models up to ``EXAMPLE_SLACK`` × ``params`` that fit with ``method``, each by
    its own shape (tried by name, as a question naming it would be; at most ``MAX_TRIED`` of them)."""
    examples: list[str] = []
    tried = 0
    for spec in sorted(catalog.models().values(), key=lambda m: -m.params_total):
        if len(examples) == EXAMPLES or tried == MAX_TRIED:
            break
        if spec.params_total <= params * EXAMPLE_SLACK:
            tried += 1
            if fits({"model": spec.id, "method": method}):
                examples.append(spec.id)
    return examples
