"""'How many at once on my GPUs?': the serving answer sized at the sequences the user's GPUs hold, and —
when the released 16-bit weights do not fit that count but FP8 weights do — at FP8 on that count (trial
s21 #4: 'Qwen3-30B-A3B vLLM on 2 × 4090, 16k, how many concurrent' answered for 8 cards with bf16 weights
and an FP8 layout in one headline). Sizes in bytes, counts in GPUs and sequences.
"""

from __future__ import annotations

from collections.abc import Callable

from estimator.catalog import GpuSpec
from estimator.ledger import Ledger
from estimator.models import Inference, Precision, SizingRequest
from estimator.reasons import Why
from estimator.runtimes import ServingRuntime
from estimator.serving_layout import most_that_fit
from estimator.verdicts import requested_count

SIXTEEN_BIT = (Precision.bf16, Precision.fp16)
"""Weights that FP8 halves: 2 bytes per parameter (the released checkpoints of most models)."""


def at_capacity(
    most: list[int],
    sized: Callable[[], Inference],
    inf: Inference,
    rt: ServingRuntime,
    cap: int | None = None,
) -> Inference:
    """ "How many at once?" on the user's GPUs: sized again at the sequences they hold (speed, KV cache
    and cost at that load, not at an assumed 16), never more than the engine's ``cap``
    (``--max-num-seqs``); ``most`` receives that count."""
    if inf.max_concurrency >= 1 or rt.prefills_batch:
        most.append(max(1, min(inf.max_concurrency, cap or inf.max_concurrency)))
        inf = sized()
    return _batch_bound(most, sized, inf) if rt.prefills_batch else inf


def held_at_share(
    most: list[int], sized: Callable[..., Inference], rt: ServingRuntime, req: SizingRequest, ledger: Ledger,
    share: float,
) -> Inference:  # fmt: skip
    """ "How many at once?" where the user's memory share does not start the model and the answer is
    re-sized at the smallest ``share`` that does (:func:`estimator.serving_verdict.at_stated_share`): the
    sequences held counted again at that ``share`` on the user's GPUs, not kept from the layout that
    the stated share would need (s33 #1: TGI at 0.5 on one L4 answered for 66 sequences, 4 GPUs' worth,
    beside a headline of 4 on one), and the ledger's concurrency line restated in place."""
    most.clear()
    at = lambda: sized(share=share)  # noqa: E731
    inf = at_capacity(most, at, at(), rt, req.max_num_seqs)
    if most:
        held, said = {"value": most[0]}, ledger.assumptions
        ledger.assumptions = [a.model_copy(update=held) if a.field == "concurrency" else a for a in said]
    return inf


def _batch_bound(most: list[int], sized: Callable[[], Inference], inf: Inference) -> Inference:
    """Where the workspace grows with the batch (transformers prefills every prompt at once): sized at
    the most that fit with their own batch (:func:`most_that_fit`, ``most[0]``, its ``max_concurrency``)."""

    def held(n: int) -> int:
        most[0] = n
        return sized().max_concurrency

    n = most_that_fit(max(most[0], inf.max_concurrency), held)
    most[0] = max(1, n)
    return sized().model_copy(update={"max_concurrency": n})


def _fp8_holds_count(
    req: SizingRequest, gpu: GpuSpec, precision: Precision, inf: Inference, count: int
) -> bool:
    """Whether FP8 weights would hold the job on the user's ``count`` GPUs where their 16-bit weights do not:
    no precision named, 16-bit weights needing more than ``count`` (``inf.min_gpus``), a GPU with FP8 tensor
    cores (catalog ``peak_tflops_fp8``: Ada, Hopper, Blackwell) and FP8 weights that fit ``count``
    (``inf.fp8_min_gpus``). The guard of :func:`fp8_on_count` and :func:`fp8_at_load`."""
    if req.precision is not None or precision not in SIXTEEN_BIT or not gpu.peak_tflops_fp8:
        return False
    if req.start_asked:  # 'will it start?': the engine as launched, its 16-bit weights (s50 trial #1)
        return False
    return inf.min_gpus > count and inf.fp8_min_gpus is not None and inf.fp8_min_gpus <= count


def fp8_on_count(
    req: SizingRequest,
    gpu: GpuSpec,
    precision: Precision,
    inf: Inference,
    size: Callable[[Precision], Inference],
    ledger: Ledger,
) -> Inference | None:
    """The answer in FP8 weights on the user's count, or None: no precision named, 16-bit weights whose
    copy and one sequence need more GPUs than the user has (``inf.min_gpus``), a GPU with FP8 tensor
    cores (Ada, Hopper, Blackwell: catalog ``peak_tflops_fp8``) and FP8 weights that fit that count
    (``inf.fp8_min_gpus``: half the bytes per parameter, vLLM ``--quantization fp8``). The note
    ``released_weights_short`` says the 16-bit weights do not fit first (the user's setting), with the
    GPUs they would need; the caller sizes the FP8 answer at the sequences it holds. When FP8 weights
    hold a sequence on a TP × PP the user stated, the note that it cannot (``stated_layout_too_small``,
    made for the 16-bit weights) is dropped: one plan across headline, warnings and JSON (trial s26 #4)."""
    count = requested_count(req)
    if count is None or not _fp8_holds_count(req, gpu, precision, inf, count):
        return None
    ledger.note(
        "released_weights_short",
        precision=precision.value,
        weights_bytes=inf.weights_bytes,
        gpu_count=count,
        min_gpus=inf.min_gpus,
        **short_cause(inf, count),
    )
    fp8 = size(Precision.fp8)
    if fp8.max_concurrency:  # FP8 on their TP × PP holds a sequence: the free layout noted was bf16's
        ledger.notes[:] = [n for n in ledger.notes if n.code != "stated_layout_too_small"]  # (s26 #4)
    return fp8


def short_cause(inf: Inference, count: int) -> dict[str, float | int]:
    """Why the 16-bit answer ``inf`` needs more than ``count`` GPUs when its weights alone fit them (s42
    trial #13: 'bf16 weights do not fit' on one L4, where 15.0 GiB of weights fit its 19.2 GiB usable and
    one 32K sequence's 4 GiB KV cache did not): per GPU, the weights ÷ ``count`` (tensor parallel), one
    sequence's KV cache at the context ÷ ``count`` and the engine's workspace
    (``Inference.workspace_bytes_per_gpu``: vLLM's profile run, TGI's warm-up prefill), against
    ``usable_bytes_per_gpu``. ``kv_in_gib`` (the KV cache is what does not fit) or ``workspace_in_gib``
    (the workspace already does not), with ``weights_in_gib``, ``need_in_gib``, ``usable_in_gib`` and
    ``context``; {} when the weights alone do not fit, or the figures are missing. GiB: bytes ÷ 2³⁰."""
    usable, gib = inf.usable_bytes_per_gpu, float(2**30)
    if not usable or not count or not inf.weights_bytes:
        return {}
    weights = inf.weights_bytes / count
    workspace = inf.workspace_bytes_per_gpu or 0.0
    kv = (inf.kv_bytes_per_sequence or 0.0) / count
    if weights > usable:
        return {}
    shown = {"weights_in_gib": weights / gib, "usable_in_gib": usable / gib, "context": inf.context_tokens}
    if weights + workspace > usable:
        return shown | {"workspace_in_gib": workspace / gib, "need_in_gib": (weights + workspace) / gib}
    if kv <= 0 or weights + workspace + kv <= usable:
        return {}
    return shown | {"kv_in_gib": kv / gib, "need_in_gib": (weights + workspace + kv) / gib}


def fits_only_in_fp8(req: SizingRequest, inf: Inference, gpu: GpuSpec, personal: bool) -> bool:
    """Whether a serving question with the user's GPU count and no load ('Does Gemma-2-27B fit on 2x 4090
    with vLLM at 16k?') is answered as 'how many at once' there: its released weights and one sequence
    need more GPUs than stated (``inf.min_gpus``) and FP8 weights fit that count (``inf.fp8_min_gpus``),
    so every figure is for FP8 on the user's GPUs, at the sequences they hold, never an assumed 16 on
    more GPUs (trial s28 H2; design.md §8, their setting first). The caller asks only for a named server
    (vLLM, SGLang) on several GPUs, whose ``--quantization fp8`` this is. A load stated as users or
    tokens/s, and a personal machine (one user), keep their own sizing; the sequences of a 'max context?'
    question (``context_asked``) are no such load: its longest context is FP8's on their count."""
    if inf.fp8_min_gpus is None or req.precision is not None or not gpu.peak_tflops_fp8:  # as fp8_on_count
        return False
    count = requested_count(req)
    stated_load = req.concurrency and not req.context_asked  # 'max context?': their count first (s33 fixe #1)
    if count is None or personal or stated_load or req.users or req.target_tokens_per_s:
        return False
    return inf.min_gpus > count >= inf.fp8_min_gpus


def fp8_at_load(
    req: SizingRequest,
    gpu: GpuSpec,
    sized: tuple[Precision, Inference],
    size: Callable[[Precision], Inference],
    ledger: Ledger,
) -> Inference | None:
    """The answer in FP8 weights on the user's count at the load they stated, or None (s42 trial #5): a
    concurrency stated (no users, no tokens/s target: those keep their own sizing), 16-bit weights that need
    more GPUs than stated and FP8 weights that fit that count (as :func:`fp8_on_count`), and FP8 on that
    count holding the whole load (``max_concurrency`` ≥ the stated concurrency). Before, the headline said
    'only with FP8 weights … (FP8, TP=2)' while every figure below was bf16 on the 4 GPUs bf16 needs; the
    FP8 answer on their GPUs now fills the details, the JSON and the note ``released_weights_short``
    (bf16's count first). A load FP8 cannot hold on their count keeps bf16's 'does not fit'."""
    precision, inf = sized
    count = requested_count(req)
    if not req.concurrency or req.users or req.target_tokens_per_s or count is None or req.context_asked:
        return None
    if not _fp8_holds_count(req, gpu, precision, inf, count):
        return None
    fp8 = size(Precision.fp8)
    if fp8.max_concurrency < req.concurrency:
        return None
    ledger.note(
        "released_weights_short",
        precision=precision.value,
        weights_bytes=inf.weights_bytes,
        gpu_count=count,
        min_gpus=inf.min_gpus,
    )
    ledger.notes[:] = [n for n in ledger.notes if n.code != "stated_layout_too_small"]  # as fp8_on_count
    ledger.replace("precision", Precision.fp8.value, Why.fp8_on_count)
    return fp8
