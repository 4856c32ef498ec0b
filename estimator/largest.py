"""The largest model a set of GPUs serves ("一张4090能跑多大的模型", "the biggest model I can run on one
RTX 4090"): for each weight format, the most parameters of a generic dense shape
(:func:`estimator.architecture.shape_for_size`) whose weights and KV cache at the context and load fit
the GPUs, by the same memory model as every serving answer (:func:`estimator.inference.size_inference`),
and the largest catalog models that fit in that format.
"""

from __future__ import annotations

import math

from estimator import catalog, defaults
from estimator.architecture import shape_for_size
from estimator.catalog import GpuSpec, ModelSpec
from estimator.inference import ServingSetup, serve
from estimator.ledger import Ledger
from estimator.models import LargestServed, Precision, SizingRequest
from estimator.reasons import Why
from estimator.runtimes import runtime_named

SERVER_FORMATS = (Precision.bf16, Precision.int8, Precision.int4)
"""Data-centre cards: 16-bit weights, 8-bit (W8A16 / FP8) and 4-bit (GPTQ/AWQ) checkpoints under vLLM."""
PERSONAL_FORMATS = (Precision.bf16, Precision.q8_0, Precision.q4_k_m)
"""Personal machines: 16-bit, and llama.cpp's Q8_0 and Q4_K_M GGUF files (the formats shipped for them)."""

MIN_PARAMS = 1e8
"""The smallest size searched: 100M parameters."""
MIN_BYTES_PER_PARAM = 0.5
"""No weight format here stores fewer than 4 bits per parameter, so the GPUs' memory ÷ 0.5 bytes is a
size that cannot fit: the search's upper bound."""
PRECISION = 1.02
"""The bisection stops when the bounds are within 2 % of each other (replies round to 2 digits)."""
EXAMPLES = 2
"""Catalog models named per format."""
EXAMPLE_SLACK = 1.25
"""Catalog models up to 25 % above the generic size are tried (each by its own shape): fewer KV heads
or a smaller vocabulary than the generic shape's leave room for more parameters."""


def largest_served(
    req: SizingRequest, gpu: GpuSpec, ledger: Ledger
) -> tuple[list[LargestServed], dict[str, int]]:
    """Per weight format: the most parameters that serve ``req.concurrency`` sequences of
    ``req.seq_len`` tokens on ``req.gpu_count`` GPUs of ``gpu`` (defaults recorded in ``ledger``:
    one GPU, the serving context, one user on a personal card else 16), or ``params_max`` None when
    not even 100M parameters fit. Sizes are a generic dense GQA shape's; a real model of the same size
    with a larger KV cache (no GQA) fits fewer sequences. Also returns the request fields it filled
    (``gpu_count``, ``seq_len``, ``concurrency``)."""
    count = req.gpu_count or int(ledger.assume("gpu_count", 1, Why.largest_one_gpu))
    serve_context = defaults.SERVE_CONTEXT
    context = req.seq_len or int(ledger.assume("context", serve_context.value, serve_context.why))
    load = defaults.SERVE_CONCURRENCY_PERSONAL if gpu.personal else defaults.SERVE_CONCURRENCY
    concurrency = req.concurrency or int(ledger.assume("concurrency", load.value, load.why))
    ledger.assume("architecture", "generic", Why.largest_generic_shape)

    runtime = req.runtime.value if req.runtime else None

    def fits(spec: ModelSpec, params: float, weights: Precision) -> bool:
        inf = serve(
            ServingSetup(
                spec, params, None, gpu, weights, context, concurrency, count,
                utilization=req.gpu_memory_utilization, runtime=runtime,
            )
        )  # fmt: skip
        return inf.recommended_gpus <= count

    out = []
    server = runtime is not None and not runtime_named(runtime).splits_layers  # vLLM, SGLang
    local = gpu.personal and not server  # a server on GeForce cards: its formats
    formats = (req.precision,) if req.precision else PERSONAL_FORMATS if local else SERVER_FORMATS
    for weights in formats:
        low, high = MIN_PARAMS, count * gpu.memory_bytes / MIN_BYTES_PER_PARAM
        if not fits(shape_for_size(low), low, weights):
            out.append(LargestServed(precision=weights, params_max=None, examples=[]))
            continue
        while high / low > PRECISION:  # low fits, high does not
            mid = math.sqrt(low * high)
            low, high = (mid, high) if fits(shape_for_size(mid), mid, weights) else (low, mid)
        examples: list[str] = []
        for spec in sorted(catalog.models().values(), key=lambda m: -m.params_total):
            if len(examples) == EXAMPLES:
                break
            if spec.params_total <= low * EXAMPLE_SLACK and fits(spec, spec.params_total, weights):
                examples.append(spec.id)  # its own shape decides (a 1.2× model with a small KV may fit)
        out.append(LargestServed(precision=weights, params_max=low, examples=examples))
    return out, {"gpu_count": count, "seq_len": context, "concurrency": concurrency}
