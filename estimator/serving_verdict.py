"""The serving verdict on the user's GPUs (or total memory): yes / borderline / no with a reason.

Moved out of :mod:`estimator.serving` (session 30, the module was at the 500-line cap); the
verdicts are unchanged. Memory figures are bytes; counts are GPUs."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable

from estimator import defaults
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.plan import HEADROOM
from estimator.runtimes import ServingRuntime, runtime_named
from estimator.runtimes.base import visible_bytes
from estimator.runtimes.llama_cpp import LlamaCpp, kq_score_bytes
from estimator.runtimes.others import Lmdeploy, Ollama, Tgi
from estimator.runtimes.vllm import Vllm, vllm_utilization
from estimator.serving_launch import engine_limit, takes_model_length
from estimator.serving_layout import tp_options
from estimator.units import GIB
from estimator.verdicts import requested_count


def serving_verdict(
    req: SizingRequest, inf: Inference, gpu: GpuSpec, spec: ModelSpec
) -> tuple[str | None, str | None]:
    """('yes' / 'borderline' / 'no', reason) for the user's GPU count; (None, None) without one.

    The weights and one full-context sequence must fit, and a stated concurrency too; borderline when
    that leaves under 10 % of the usable memory ('tight'), fits only at the upper end of a stated range
    ('range_upper_end'), or — no precision named, 16-bit weights, a GPU with FP8 tensor cores — fits
    only with FP8 weights ('fp8_only': standard on Hopper-class serving, a quality trade-off to check).
    vLLM refuses to start when its KV cache holds fewer tokens than one ``max_model_len``
    (vllm/v1/core/kv_cache_utils.py ``check_enough_kv_cache_memory``; V0 ``raise_if_cache_size_invalid``):
    'no' at the stated (or default) utilization — :func:`_serving_notes` says what 0.95 would hold.
    Other runtimes: 'borderline' when it fits only with nearly all memory ('full_memory').
    """
    count = requested_count(req)
    if count is None:
        return total_memory_verdict(req, inf, gpu)
    if inf.min_gpus > count:
        if req.gpu_count_max and inf.min_gpus <= req.gpu_count_max:
            return "borderline", "range_upper_end"
        refuses = runtime_named(inf.runtime).refuses_short_cache  # vLLM
        if refuses and inf.kv_capacity_tokens:  # the weights fit, one request does not: vLLM will not start
            return "no", None if req.concurrency else "max_model_len"  # s15 trial #3: no load stated
        fp8_fits = inf.fp8_min_gpus is not None and inf.fp8_min_gpus <= count
        if req.concurrency:  # a stated load must fit in FP8 too (the FP8 alternative is sized for it)
            fp8_load = next((a.min_gpus for a in inf.alternatives if a.change == "fp8"), None)
            fp8_fits = fp8_fits and fp8_load is not None and fp8_load <= count
        if req.precision is None and gpu.peak_tflops_fp8 and fp8_fits:
            return "borderline", "fp8_only"
        if refuses:
            return "no", None
        holds = count in tp_options(spec, gpu) or count % max(tp_options(spec, gpu)) == 0
        if holds and serving_need(req, inf, count) <= full_memory(gpu.addressable_bytes * count, count):
            return "borderline", "full_memory"  # a layout of exactly `count` (TP, or whole TP groups)
        return "no", None
    if req.concurrency and inf.max_concurrency < req.concurrency:
        return "no", None
    limited = req.max_model_len or takes_model_length(req)  # stated, or the model's (vLLM's default)
    if limited and refused_to_start(req, inf, runtime_named(inf.runtime), spec):
        return "no", "max_model_len"  # the context fits, one max_model_len sequence does not: no start
    need = inf.weights_bytes + inf.kv_bytes_per_sequence * (req.concurrency or 1)
    need += inf.workspace_bytes_per_gpu * count
    if need <= HEADROOM * inf.usable_bytes_per_gpu * count:
        return "yes", None
    return "borderline", "tight"


OLLAMA_FLASH_DEFAULT_RE = re.compile(r"(?i)\b(?:qwen[\s\-]?3|gemma[\s\-]?3|gpt[\s\-]?oss|olmo[\s\-]?3)")
"""Model families Ollama turns flash attention on for by itself (``OLLAMA_FLASH_ATTENTION`` unset): its GGUF
architectures qwen3, qwen3moe, qwen35, qwen3next, qwen3vl, gemma3, gptoss, olmo3 (… and bert, lfm2,
mistral3, nemotron_h, glm4moelite), ollama/ollama fs/ggml/ggml.go ``FlashAttention()`` and llm/server.go
``fa := envconfig.FlashAttention(f.FlashAttention())`` at ollama/ollama@008a6cae: the environment
variable (envconfig/config.go, a bool) wins when set; every other family runs without it."""


def flash_unstated(
    req: SizingRequest,
    inf: Inference,
    card: tuple[ModelSpec, ServingRuntime],
    verdict: tuple[str | None, str | None],
    ledger: Ledger,
) -> tuple[str | None, str | None]:
    """A "fits" on llama.cpp (or Ollama) that holds only with flash attention, where the user did not say
    which: ('borderline', 'flash_unstated'), else ``verdict``. llama.cpp runs flash attention by default
    since build b6327 (2025-08-31, ``-fa auto``); older builds, ``-fa off`` and a device without the kernel
    keep one layer's fp32 KQ scores in each device's compute buffer, ``n_ctx × n_ubatch × n_head × 4``
    bytes (:func:`estimator.runtimes.llama_cpp.kq_score_bytes`, src/llama-graph.cpp ``build_attn_mha``
    at ggml-org/llama.cpp@00395eb2). The build is unknown, so the verdict is "fits" only when the
    service keeps 10 % of the cards free with those scores too (the rule of :func:`serving_verdict`;
    s33: en-047, Qwen2-72B Q4_K_M at n_ctx 32,000 on 3 × 24 GB, 4.2 GB of scores a GPU). Noted
    (``flash_unstated``) with the scores per GPU in bytes and the context in tokens. Ollama has no -fa:
    its switch is ``OLLAMA_FLASH_ATTENTION`` and its default is per model family
    (:data:`OLLAMA_FLASH_DEFAULT_RE`): on for those, so the verdict stands; else ('borderline',
    'flash_unstated_ollama'), noted so (s33 fix A)."""
    spec, runtime = card
    count = requested_count(req)
    if verdict != ("yes", None) or count is None or req.flash_attention is not None:
        return verdict
    if not isinstance(runtime, LlamaCpp) or not runtime.flash_attention:
        return verdict
    ollama = isinstance(runtime, Ollama)
    if ollama and OLLAMA_FLASH_DEFAULT_RE.search(f"{spec.family} {spec.name}"):
        return verdict  # Ollama turns flash attention on by itself for this family
    scores = kq_score_bytes(spec, inf.context_tokens)
    if serving_need(req, inf, count) + scores * count <= HEADROOM * inf.usable_bytes_per_gpu * count:
        return verdict
    code = "flash_unstated_ollama" if ollama else "flash_unstated"
    ledger.note(code, scores_bytes=scores, context=inf.context_tokens)
    return "borderline", code


NO_FA2 = ("Volta", "Turing", "Pascal")
"""Generations FlashAttention-2 does not run on (estimator.eager_unstated.NO_FA2_GENERATIONS, kept here so a
plain question imports nothing more)."""


VLLM_CUDA_GRAPH_BYTES = (0.555 * GIB, 2464 * 2**20)
"""vLLM's CUDA-graph pool per GPU, (likely, high), from logged runs (s35, s36:
``estimator/data/measured/vllm_cuda_graphs.json``, each row with its thread's URL): the median and the largest
of the whole-engine pools kept for the fit (0.10, 0.21, 0.46, 0.65, 0.73 and 2.41 GiB: Llama-3.2-1B 0.21
(vllm-project/vllm#11349), Qwen3.8-27B NVFP4 on a 24 GB card 0.46 (#57475), gemma-3-4b 0.65 (#21489),
2,464 MiB (#7553)); the rows held out (0.36, 0.17, 0.06 GiB: TP 2, TP 4 on RTX 3090s, gpt-oss-120b at TP 8)
all lie under the likely value. Single captured sizes (6–26 MiB each: #22897, #23184, #50780) are kept
apart in the file's ``per_capture``, and #21489's "underestimates ~1.3 GB" on Llama 4 Maverick — the error
of that PR's profiler estimate, not a pool — in its ``excluded`` (it had been the high end, 1.21 GiB).
Neither the model's size nor the count of captured sizes orders the pools, so the pool is a band, not a
formula. vLLM's own pre-v0.11 line "CUDA graphs can take additional 1~3 GiB memory per GPU"
(vllm/worker/model_runner.py ``capture_model``) brackets the high end. Before v0.21 the graphs are captured
after the KV cache is allocated, in what ``gpu_memory_utilization`` leaves beside the CUDA context
(:data:`estimator.defaults.CUDA_CONTEXT_BYTES`); since v0.21 vLLM profiles them and counts them inside it
(:data:`VLLM_GRAPHS_PROFILED`), so the check below applies to an older or unstated release."""


VLLM_NCCL_GRAPH_BYTES = 803 * 2**20
"""What NCCL's all-reduce adds to the captured graphs per GPU where vLLM's custom all-reduce is off — more
than two GPUs without a full NVLink mesh: "Custom allreduce is disabled because it's not supported on more
than two PCIe-only GPUs" (vllm/distributed/device_communicators/custom_all_reduce.py). The median of the
four memory drops the custom all-reduce brought in its own PR (vllm-project/vllm#2192, benchmark_latency with
CUDA graphs, NCCL before → custom after: Llama 70B A100 TP 4 76,723 → 75,717 MiB, 33B TP 2 75,739 → 74,741,
13B A30 TP 2 23,519 → 22,911, 7B T4 TP 2 14,969 → 14,475: 1,006, 998, 608, 494; "NCCL's internal buffer is
captured in the graph"): 803 MiB."""


VLLM_GRAPHS_PROFILED = (0, 21)
"""The first vLLM release that profiles its CUDA graphs and counts them inside ``gpu_memory_utilization`` by
default (its log: "CUDA graph memory profiling is enabled (default since v0.21.0)"; vllm/v1/worker/
gpu_worker.py ``determine_available_memory``: ``available_kv_cache_memory_bytes = requested_memory -
profile_result.non_kv_cache_memory - cudagraph_memory_estimate_applied``, the estimate from
gpu_model_runner.py ``profile_cudagraph_memory``, applied unless VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0).
Before it (V0's model_runner.py ``capture_model``, V1 to v0.20) the graphs are captured after the KV cache is
allocated, in what the share leaves."""


def graphs_outside_budget(version: str | None) -> bool:
    """Whether vLLM ``version`` (as stated, 'major.minor[.patch]') may capture its CUDA graphs outside
    ``gpu_memory_utilization``: a stated release before :data:`VLLM_GRAPHS_PROFILED`, or none stated
    (s37). Unstated, the run may be on either side of v0.21: ``pip install vllm`` today gives a release that
    counts the graphs inside, while the KV capacity the estimate prints is the V1 profile of the releases
    before it (vllm/v1/worker/gpu_worker.py v0.10.1.1, :func:`estimator.runtimes.vllm.vllm_profile_bytes`;
    field case f11's log, 22,096 tokens, has no graph pool taken from it), so a "fits" must also hold with
    the graphs outside — as "fits" holds only where the band's high end fits (issue 25 item 1). A stated
    v0.21 or later: inside, no check."""
    if not version:
        return True
    major, minor = (int(p) for p in version.split(".")[:2])
    return (major, minor) < VLLM_GRAPHS_PROFILED


def cuda_graphs_outside(
    req: SizingRequest, inf: Inference, card: tuple[GpuSpec, ServingRuntime], verdict: tuple, ledger: Ledger
) -> tuple[str | None, str | None]:
    """A vLLM "fits" whose CUDA graphs may not fit beside it: ('borderline', 'cuda_graphs_outside'), else
    ``verdict``. What ``gpu_memory_utilization`` leaves of the memory CUDA reports, less the CUDA context,
    must hold the logged pool's likely 0.555 GiB (:data:`VLLM_CUDA_GRAPH_BYTES`) for "fits": at the default
    0.9 a 24 GB card leaves 2.38 − 1 = 1.38 GiB (fits), a 16 GB card 0.58 GiB (fits: vllm-project/vllm#11251
    started at 0.90); at 0.95 a 16 GB card leaves none and a 24 GB card 0.19 GiB (borderline: #11251 ran out
    of memory capturing the graphs at 0.95, #57475 at 0.98). ``--enforce-eager`` (``req.enforce_eager``)
    captures none: the verdict stands. Over more than two GPUs without NVLink the graphs also hold NCCL's
    buffers (:data:`VLLM_NCCL_GRAPH_BYTES`): an A10G at TP 8 and 0.9 leaves 1.25 GiB for 0.555 + 0.784
    (borderline). Noted with the room per GPU and the logged band in bytes. Only for a stated vLLM before
    v0.21 or none stated (:func:`graphs_outside_budget`; s36, s37): v0.21 and later count them inside."""
    gpu, runtime = card
    if verdict != ("yes", None) or req.enforce_eager or not isinstance(runtime, Vllm):
        return verdict
    if req.vllm_version and not graphs_outside_budget(req.vllm_version):  # unstated: outside, no call
        return verdict
    room = visible_bytes(gpu) * (1.0 - vllm_utilization(runtime)) - defaults.CUDA_CONTEXT_BYTES.value
    nccl = VLLM_NCCL_GRAPH_BYTES if inf.tp > 2 and not gpu.nvlink else 0.0  # NCCL in the graphs
    if room >= VLLM_CUDA_GRAPH_BYTES[0] + nccl:
        return verdict
    low, high = VLLM_CUDA_GRAPH_BYTES
    ledger.note(
        "cuda_graphs_outside", room_bytes=max(room, 0.0), low_bytes=low + nccl, high_bytes=high + nccl
    )
    return "borderline", "cuda_graphs_outside"


def runtime_edges(
    req: SizingRequest,
    inf: Inference,
    card: tuple[ModelSpec, GpuSpec, ServingRuntime],
    verdict: tuple[str | None, str | None],
    ledger: Ledger,
) -> tuple[str | None, str | None]:
    """A "fits" checked against what the engine itself keeps outside the sizing: llama.cpp's / Ollama's
    attention scores without flash attention stated (:func:`flash_unstated`), vLLM's CUDA graphs outside
    ``gpu_memory_utilization`` (:func:`cuda_graphs_outside`); other engines: ``verdict``. A "fits" or
    "borderline" of a stated lmdeploy before v0.2.2, whose KV share is of the card's total memory:
    :func:`estimator.lmdeploy_release.total_share_verdict` (s42). A "fits" on a stated TGI v0.9.4–v1.4.0,
    whose KV blocks take all the memory its warm-up leaves: :func:`estimator.tgi_release.no_headroom_verdict`
    (s43)."""
    spec, gpu, runtime = card
    if req.lmdeploy_version and isinstance(runtime, Lmdeploy):  # s42: before v0.2.2, a share of the total
        from estimator.lmdeploy_release import total_share_verdict

        verdict = total_share_verdict(req, inf, (spec, gpu, runtime), verdict, ledger)
    if verdict != ("yes", None):
        return verdict
    if req.tgi_version and isinstance(runtime, Tgi):  # s43: v0.9.4–v1.4.0 keep no memory back
        from estimator.tgi_release import no_headroom_verdict

        return no_headroom_verdict(req.tgi_version, verdict, ledger)
    if runtime.local and req.flash_attention is None:
        return flash_unstated(req, inf, (spec, runtime), verdict, ledger)
    if req.runtime is None and gpu.generation in NO_FA2 and req.flash_attention is None:
        from estimator.eager_unstated import eager_unstated  # s51: a card without FlashAttention-2

        count = requested_count(req) or 1
        verdict = eager_unstated(req, inf, spec, count, serving_need(req, inf, count), ledger)
        if verdict != ("yes", None):
            return verdict
    if isinstance(runtime, Vllm):
        return cuda_graphs_outside(req, inf, (gpu, runtime), verdict, ledger)
    return verdict


def serving_need(req: SizingRequest, inf: Inference, cards: int) -> float:
    """Bytes the service needs on ``cards`` GPUs: weights, the stated concurrency (or one sequence) of
    KV cache, and each card's activation workspace."""
    kv = inf.kv_bytes_per_sequence * (req.concurrency or 1)
    return inf.weights_bytes + kv + inf.workspace_bytes_per_gpu * cards


def full_memory(memory_bytes: float, cards: int) -> float:
    """What raising vLLM's gpu_memory_utilization to its practical maximum (0.95) gives, less each
    card's CUDA context: a fit beyond the default but within this is 'borderline'."""
    return memory_bytes * defaults.MAX_GPU_MEMORY_UTILIZATION - defaults.CUDA_CONTEXT_BYTES.value * cards


def total_memory_verdict(req: SizingRequest, inf: Inference, gpu: GpuSpec) -> tuple[str | None, str | None]:
    """A total ("准备700G显存", no GPU count): the same yes/borderline/no on the sum, counted in cards of
    the assumed GPU's size for the per-card context and workspace."""
    if not req.total_memory_gib:
        return None, None
    total = req.total_memory_gib * GIB * (gpu.gpu_memory_fraction or 1.0)
    cards = max(1, math.ceil(req.total_memory_gib / gpu.memory_gib))
    need = serving_need(req, inf, cards)
    utilization = 1.0 if gpu.gpu_memory_fraction else defaults.GPU_MEMORY_UTILIZATION.value
    usable = total * utilization - defaults.CUDA_CONTEXT_BYTES.value * cards
    if need <= HEADROOM * usable:
        return "yes", None
    if need <= usable:
        return "borderline", "tight"
    if need <= full_memory(total, cards):
        return "borderline", "full_memory"
    return "no", None


def refused_to_start(req: SizingRequest, inf: Inference, runtime: ServingRuntime, spec: ModelSpec) -> bool:
    """vLLM on the user's GPUs cannot hold one sequence of its ``max_model_len`` (:func:`engine_limit`)
    in its KV cache: it refuses to start (vllm/v1/core/kv_cache_utils.py
    ``check_enough_kv_cache_memory``)."""
    limit = engine_limit(req, inf, spec)
    capacity = inf.kv_capacity_tokens
    return runtime.refuses_short_cache and requested_count(req) is not None and 0 < (capacity or 0) < limit


WHOLE_CARD_SHARES = ("vLLM", "TGI", "SGLang")
"""Runtimes whose memory share the user can raise to fit the weights: a share of the card (vLLM
``gpu_memory_utilization``, TGI ``--cuda-memory-fraction``) or of the memory free at start-up (SGLang
``--mem-fraction-static``); lmdeploy's ``cache_max_entry_count`` is the KV cache's share of what the
weights leave, so raising it never fits them."""


def share_needed(
    req: SizingRequest, inf: Inference, gpu: GpuSpec, runtime: ServingRuntime, ledger: Ledger
) -> float | None:
    """The user's stated memory share leaves too little for the weights, workspace and the load (or one
    sequence) on their GPUs, where a larger share would hold them (the 'full_memory' fit): the smallest
    share in steps of 0.05 that does, noted (``stated_share_short``) with what the stated share leaves
    per GPU and what that share leaves for the KV cache (docs/design.md §8: their setting first; s32
    trial #1). None without a stated share, a count, or a runtime whose share can be raised for it."""
    count = requested_count(req)
    stated = req.gpu_memory_utilization
    if stated is None or not count or runtime.name not in WHOLE_CARD_SHARES:
        return None
    workspace = inf.workspace_bytes_per_gpu
    need = serving_need(req, inf, count) / count  # per GPU, the weights split over the user's GPUs
    usable = runtime.share_bytes(runtime.usable_bytes(gpu), workspace)
    for step in range(math.floor(stated * 20) + 1, 21):
        raised = dataclasses.replace(runtime, utilization=step / 20)
        room = raised.share_bytes(raised.usable_bytes(gpu), workspace)
        if room >= need:
            kv = room - workspace - inf.weights_bytes / count
            ledger.note(
                "stated_share_short", share=stated, usable_bytes=usable, need_bytes=need,
                needed=step / 20, kv_bytes=kv, sequences=req.concurrency or 1,
            )  # fmt: skip
            return step / 20
    return None


def at_stated_share(
    req: SizingRequest,
    sized: tuple[Inference, tuple[str | None, str | None]],
    card: tuple[GpuSpec, ServingRuntime],
    resize: Callable[..., Inference],
    ledger: Ledger,
) -> tuple[Inference, tuple[str | None, str | None]]:
    """The answer and verdict; where the user's memory share is too small but a larger one holds the
    service on their GPUs (:func:`share_needed`), 'no' ('stated_share') and the answer re-sized on
    their GPUs at that share (``resize(share=…)``), so the reply keeps to one GPU count (s32 trial #1)."""
    inf, verdict = sized
    if verdict[1] == "engine_reserve":  # lmdeploy: the figures at the lowered share that starts (s34 fixa)
        fits = next((n.params.get("fits") for n in ledger.notes if n.code == "engine_reserve_short"), 0.0)
        lowered = resize(share=fits) if fits else None
        return (lowered, verdict) if lowered is not None and lowered.max_concurrency >= 1 else sized
    if verdict[1] != "full_memory":
        return sized
    share = share_needed(req, inf, card[0], card[1], ledger)
    if share is None:
        return sized
    return resize(share=share), ("no", "stated_share")
