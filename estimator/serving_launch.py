"""The serving verdict for the job as the user launches it, after the memory sizing: their own
tensor-parallel layout (a vLLM/SGLang/lmdeploy command with no TP size runs on one GPU) and runtimes
that keep their activation memory as a share of the card rather than a need (lmdeploy: what
``cache_max_entry_count`` leaves of the free memory,
:meth:`estimator.runtimes.others.Lmdeploy.reserve_short`). Sizes in bytes."""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.models import Inference, Precision, SizingRequest
from estimator.runtimes.base import Load, ServingRuntime
from estimator.runtimes.others import LMDEPLOY_CACHE_MAX_ENTRY_COUNT

Verdict = tuple[str | None, str | None]


class Launch(NamedTuple):
    """How the user launches the server."""

    stated_too_small: bool
    """One copy on their TP × PP cannot hold the weights and a sequence (the answer shows a free one)."""
    gpu_count: int | None
    """Their GPUs."""
    runtime: ServingRuntime
    precision: Precision
    """The weight format sized."""


def launched_verdict(
    verdict: Verdict, launch: Launch, spec: ModelSpec, gpu: GpuSpec, inf: Inference, ledger: Ledger
) -> Verdict:
    """'no' for the job as launched where the sizing alone says it fits: ('no', 'stated_layout') when
    their TP × PP cannot hold one copy but a larger TP on their GPUs can (docs/design.md §8: their
    setting first) and its note stands (dropped when FP8 weights on that TP × PP hold a sequence:
    :func:`estimator.serving_capacity.fp8_on_count`, trial s26 #4); ('no', 'engine_reserve') when the
    runtime's reserve per GPU is smaller than one prefill's activations (noted with both figures and
    the share); else ``verdict``."""
    if verdict[0] not in ("yes", "borderline"):
        return verdict
    kept = any(n.code == "stated_layout_too_small" for n in ledger.notes)  # FP8 on their TP may hold it
    if launch.stated_too_small and kept and inf.min_gpus <= (launch.gpu_count or 0):
        return "no", "stated_layout"
    runtime = launch.runtime
    short = runtime.reserve_short(spec, gpu, inf.tp, Load(precision=launch.precision))
    if short <= 0:
        return verdict
    reserve = inf.workspace_bytes_per_gpu
    share = runtime.utilization or LMDEPLOY_CACHE_MAX_ENTRY_COUNT
    fits = reserve_share(runtime, share, (spec, gpu, inf.tp), launch.precision)
    need = reserve + short
    ledger.note("engine_reserve_short", reserve_bytes=reserve, need_bytes=need, share=share, fits=fits)
    return "no", "engine_reserve"


SHARE_STEP = 0.05
"""The steps in which a lowered share is searched (as :func:`estimator.serving_verdict.share_needed`)."""


def reserve_share(
    runtime: ServingRuntime, share: float, job: tuple[ModelSpec, GpuSpec, int], precision: Precision
) -> float:
    """The largest share below ``share``, in steps of :data:`SHARE_STEP`, at which the runtime's reserve
    holds one prefill's activations (lmdeploy: ``--cache-max-entry-count`` 0.8 → 0.7 leaves (1 − 0.7) of
    the free memory to its workspace); 0.0 when none above 0 does. The answer is re-sized at it
    (:func:`estimator.serving_verdict.at_stated_share`): the figures of a run that starts (s34 fixa)."""
    spec, gpu, tp = job
    steps = round(share / SHARE_STEP)
    for k in range(steps - 1, 0, -1):
        lower = round(k * SHARE_STEP, 2)
        if replace(runtime, utilization=lower).reserve_short(spec, gpu, tp, Load(precision=precision)) <= 0:
            return lower
    return 0.0


def takes_model_length(req: SizingRequest) -> bool:
    """vLLM starts at the model's own length: no ``max_model_len`` stated and vLLM left at its default
    (``max_model_len_default``: a pasted command that sets none, or vLLM named in words with no length
    and the model's version named, bot.parse.assemble). vLLM then takes ``max_position_embeddings`` as
    ``--max-model-len`` (vllm/config.py ``_get_and_verify_max_len``, ``max_model_len=None``) and refuses
    to start when one sequence of it does not fit its KV cache (vllm/v1/core/kv_cache_utils.py
    ``check_enough_kv_cache_memory``; v0: worker ``raise_if_cache_size_invalid``)."""
    return req.max_model_len is None and bool(req.max_model_len_default)


def engine_limit(req: SizingRequest, inf: Inference, spec: ModelSpec) -> int:
    """The longest sequence vLLM checks against its KV cache at start-up, in tokens: the stated
    ``max_model_len``, else — vLLM left at its default (:func:`takes_model_length`) — the model's
    ``max_position_embeddings`` of the release's config.json (vllm/config.py ``_get_and_verify_max_len``:
    131,072 for Llama 3.1, 32,768 for Qwen2.5-14B-Instruct, whose 131,072 needs YaRN set by hand:
    :func:`estimator.ledger.derived_window`), and at least the context sized."""
    limit = max(inf.context_tokens, req.max_model_len or 0)
    if takes_model_length(req) and spec.max_context:
        from estimator.ledger import derived_window

        limit = max(limit, derived_window(spec, req.release))
    return limit


def note_unsupported_gpu(req: SizingRequest, runtime: ServingRuntime, gpu: GpuSpec, ledger: Ledger) -> None:
    """``runtime_unsupported_gpu`` when the engine does not run on the card's generation
    (``runtime.unsupported_generations``: vLLM on a Pascal P40, s12 trial C1); ``assumed`` when the user
    named no engine, so the reply says the engine was the sizing's default (s13 review 11)."""
    if gpu.generation in runtime.unsupported_generations:
        assumed = {} if req.runtime is not None else {"assumed": True}
        ledger.note(
            "runtime_unsupported_gpu",
            gpu=gpu.family,
            runtime=runtime.name,
            generation=gpu.generation,
            **assumed,
        )


def note_int8_kv(req: SizingRequest, runtime: ServingRuntime, ledger: Ledger) -> None:
    """``int8_kv_as_fp8`` when an int8 KV cache is asked of an engine whose only 1-byte cache is fp8
    (:data:`estimator.kv_types.FP8_KV_ONLY`: vLLM, SGLang): sized at the same 1 byte a value, run as fp8,
    and LMDeploy (``--quant-policy 8``) named as the engine that has int8."""
    from estimator.kv_types import FP8_KV_ONLY

    if req.kv_precision is Precision.int8 and runtime.name in FP8_KV_ONLY:
        ledger.note("int8_kv_as_fp8", runtime=runtime.name)
