"""lmdeploy (TurboMind), TGI, ExLlamaV2 and Ollama: each engine's own budget, workspace and KV policy,
from its source code's defaults (repository path named at each constant). Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.models import Inference, Precision, Runtime, SizingRequest
from estimator.reasons import Why
from estimator.runtimes.base import NO_LOAD, Load, ServingRuntime, visible_bytes
from estimator.runtimes.llama_cpp import LlamaCpp
from estimator.runtimes.vllm import either_engine_profile_bytes
from estimator.runtimes.vllm import forward_peak_bytes as prefill_bytes
from estimator.units import GIB
from estimator.weights import BITS_PER_WEIGHT, weight_bytes

if TYPE_CHECKING:
    from collections.abc import Callable

    from estimator.ledger import Ledger

LMDEPLOY_CACHE_MAX_ENTRY_COUNT = 0.8
"""lmdeploy's default ``--cache-max-entry-count``: the share of the memory FREE after the weights load
that TurboMind gives the KV cache (InternLM/lmdeploy ``lmdeploy/messages.py``
``TurbomindEngineConfig.cache_max_entry_count: float = 0.8``; "the percentage of free gpu memory
occupied by the k/v cache", since v0.2.1). The rest (0.2) is its workspace."""
LMDEPLOY_MAX_PREFILL_TOKENS = 8192
"""Tokens lmdeploy prefills in one forward pass: TurboMind's ``max_prefill_token_num`` default 8192
(``lmdeploy/messages.py`` ``TurbomindEngineConfig``; the PyTorch engine's is 4096,
``PytorchEngineConfig``). Its activations must fit in what ``cache_max_entry_count`` leaves over."""
TGI_CUDA_MEMORY_FRACTION = 1.0
"""TGI's default ``--cuda-memory-fraction`` (huggingface/text-generation-inference
``launcher/src/main.rs``: ``default_value = "1.0"``)."""
TGI_WIGGLE_ROOM = 0.90
"""TGI's share of its memory fraction it may fill (huggingface/text-generation-inference @db931fc
``server/text_generation_server/models/globals.py``: ``TGI_WIGGLE_ROOM`` default "0.90"). After its warm-up
prefill, ``flash_causal_lm.py`` sizes the KV blocks from ``get_free_memory(device, MEMORY_FRACTION *
TGI_WIGGLE_ROOM)`` = free − (1 − fraction × 0.90) × total (``utils/import_utils.py``
``get_cuda_free_memory``): the memory left under fraction × 0.90 of the card once the weights, the CUDA
context and the warm-up peak are in use — vLLM's ``gpu_memory_utilization`` model
(:class:`estimator.runtimes.vllm.Vllm`) at 0.90 × ``--cuda-memory-fraction`` (s32; before, 5 % of what was
left after the weights and the warm-up, from an earlier default)."""
EXLLAMA_MAX_INPUT_LEN = 2048
"""ExLlamaV2's scratch buffers hold one chunk of ``max_input_len`` tokens and an attention matrix of
``max_attention_size`` = 2048² entries (turboderp/exllamav2 ``exllamav2/config.py`` defaults)."""
OLLAMA_DEFAULT_CONTEXT = 4096
"""Ollama's default context when ``num_ctx`` is not set, as sized: 4,096 tokens (ollama/ollama
``envconfig/config.go`` ``OLLAMA_CONTEXT_LENGTH`` default 4096 from v0.6.7, commit 44b466eeb, 2025-04-28;
2,048 before, ``api/types.go`` ``NumCtx``). Since v0.15.5 (commit 0334ffa62, 2026-02-02, "server: use
tiered VRAM-based default context length") the default is 0 and ``server/routes.go`` picks it from
the total VRAM of the GPUs it sees: under 23 GiB 4,096, under 47 GiB 32,768, else 262,144
(docs/context-length.mdx: "4k/32k/256k based on VRAM"), capped at the model's trained context
(``server/sched.go`` ``effectiveContext``) and, from v0.30, lowered to 32K or 4K when the load would
not fit (``server/sched.go`` ``nextLowerAutoNumCtx``; read at v0.33.0-rc2). The reply names the 4,096
assumed and the newer tiers (``runtime_default_context``); the tiers are not sized (s41 fixserve #5)."""

OLLAMA_NUM_PARALLEL = 1
"""Requests one loaded Ollama model serves at once when ``OLLAMA_NUM_PARALLEL`` is not set: 1 (ollama/ollama
``envconfig/config.go`` line 275 at v0.33.0-rc2, ``NumParallel = Uint("OLLAMA_NUM_PARALLEL", 1)``; since
v0.10.0, commit 20c3266 "Reduce default parallelism to 1" (#11330); before, 4 or 1 picked by free memory).
Each slot has its own ``num_ctx``: the runner's context is num_ctx × slots (``server/sched.go`` line 794,
``effectiveLlamaServerContext``; docs/faq.mdx: "Required RAM will scale by OLLAMA_NUM_PARALLEL *
OLLAMA_CONTEXT_LENGTH"), so its KV cache is num_ctx × slots tokens — the context × concurrency sized."""

OLLAMA_SLOTS_SOURCE = "ollama/ollama envconfig/config.go (NumParallel), server/sched.go (num_ctx × slots)"
"""The ledger's citation of :data:`OLLAMA_NUM_PARALLEL` and the slots' context."""


def ollama_slots(req: SizingRequest, concurrency: int, context: int, ledger: Ledger) -> None:
    """The ledger's Ollama slots (s40 fixs #2): one sequence at a time by default
    (:data:`OLLAMA_NUM_PARALLEL`), so ``concurrency`` sequences at once need ``OLLAMA_NUM_PARALLEL`` set to
    it, a KV cache of ``context`` × it tokens; nothing for one sequence."""
    if req.runtime == Runtime.ollama and concurrency > OLLAMA_NUM_PARALLEL:
        ledger.assume(
            "ollama_num_parallel",
            concurrency,
            Why.ollama_slots,
            citation=OLLAMA_SLOTS_SOURCE,
            context=context,
            kv_tokens=concurrency * context,
        )


def _weights_per_gpu(spec: ModelSpec, tp: int, precision: Precision | None) -> float:
    return weight_bytes(spec, spec.params_total, precision or Precision.bf16) / tp


@dataclass(frozen=True)
class Lmdeploy(ServingRuntime):
    """lmdeploy TurboMind: after the weights load, ``cache_max_entry_count`` (the user's, else 0.8) of
    the FREE memory becomes the KV cache; the rest is its workspace
    (:data:`LMDEPLOY_CACHE_MAX_ENTRY_COUNT`)."""

    name = "lmdeploy"
    words = r"(?<![a-z0-9])lmdeploy(?![a-z0-9])|turbomind"  # also --use_lmdeploy
    affix = "lmdeploy"
    context_key = "--session-len"
    memory_key = "--cache-max-entry-count"
    paged = spans_tp_pp = takes_share = True
    workspace_why = Why.lmdeploy_workspace
    kv_block_tokens: ClassVar[int] = 64
    """TurboMind's ``cache_block_seq_len`` default 64 (``lmdeploy/messages.py``)."""

    def _usable(self, gpu: GpuSpec) -> float:
        return visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """(1 − cache_max_entry_count) × (free memory − weights per GPU)."""
        share = self.utilization or LMDEPLOY_CACHE_MAX_ENTRY_COUNT
        free = self._usable(gpu) - _weights_per_gpu(spec, tp, load.precision)
        return max(0.0, (1.0 - share) * free)

    def needed_workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """Its reserve is a share, not a need: the activations it runs, counted as vLLM's profile."""
        return either_engine_profile_bytes(spec, gpu, tp)

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        if self.utilization is not None:
            return None
        return Default(LMDEPLOY_CACHE_MAX_ENTRY_COUNT, Why.lmdeploy_workspace)

    def reserve_short(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """Bytes per GPU by which one prefill's activations (:func:`prefill_bytes` of
        :data:`LMDEPLOY_MAX_PREFILL_TOKENS` tokens) exceed the reserve (1 − cache_max_entry_count) × free
        memory: above 0 the engine runs out of memory on a long prompt whatever its KV cache holds — e.g.
        ``--cache-max-entry-count 0.99`` on an H100 with InternLM2.5-7B leaves ≈ 0.7 GB for ≈ 1.0 GB."""
        return prefill_bytes(spec, LMDEPLOY_MAX_PREFILL_TOKENS, tp) - self._workspace(spec, gpu, tp, load)


@dataclass(frozen=True)
class Tgi(ServingRuntime):
    """TGI: ``cuda_memory_fraction`` (the user's, else 1.0) × :data:`TGI_WIGGLE_ROOM` of the card, less
    the CUDA context, is usable (as vLLM's ``gpu_memory_utilization``); its warm-up prefill's activations
    (counted as vLLM's profile) are its workspace; the rest holds the KV cache."""

    name = "TGI"
    words = r"\btgi\b|text[\s\-_]*generation[\s\-_]*inference"
    context_key = "--max-total-tokens"
    memory_key = "--cuda-memory-fraction"
    paged = spans_tp_pp = takes_share = True
    workspace_why = Why.tgi_workspace
    kv_block_tokens: ClassVar[int] = 16
    """TGI's paged-attention ``BLOCK_SIZE`` 16 (``models/globals.py``, flash-attention backend)."""
    wiggle_room: float = TGI_WIGGLE_ROOM
    """The share of ``--cuda-memory-fraction`` × the card its KV blocks may fill: :data:`TGI_WIGGLE_ROOM`;
    1.0 for a stated v0.9.4–v1.4.0, which keep nothing back (:func:`estimator.tgi_release.release_share`)."""

    def _usable(self, gpu: GpuSpec) -> float:
        share = self.utilization or TGI_CUDA_MEMORY_FRACTION
        return visible_bytes(gpu) * share * self.wiggle_room - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        return either_engine_profile_bytes(spec, gpu, tp)


@dataclass(frozen=True)
class ExLlama(ServingRuntime):
    """ExLlamaV2: no utilization cap; the cache holds exactly ``max_seq_len`` × batch tokens; layers
    split over the cards (``gpu_split`` / autosplit); scratch for one ``max_input_len`` chunk."""

    name = "ExLlama"
    words = r"\bexllama(?:v[23]|\s*v[23]|[23])?\b|\bexl[23]\b"  # s15: ExLlamaV3 and its EXL3 too
    context_key = "max_seq_len"
    memory_key = "gpu_split"
    splits_layers = True
    workspace_why = Why.exllama_workspace

    def _usable(self, gpu: GpuSpec) -> float:
        return visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """T·(4h + 3f)·2 bytes of hidden states and MLP outputs for T = 2,048 tokens, the fp16
        attention matrix (2048² per head group: ``max_attention_size``) and one row of fp32 logits."""
        t = EXLLAMA_MAX_INPUT_LEN
        hidden = t * (4 * spec.hidden + 3 * spec.active_ffn_hidden) * 2.0
        return hidden + t * t * 2.0 + spec.vocab * 4.0


@dataclass(frozen=True)
class Ollama(LlamaCpp):
    """Ollama: llama.cpp underneath (same budget and compute buffer), its own default context
    (:data:`OLLAMA_DEFAULT_CONTEXT`) when ``num_ctx`` is not set."""

    name = "Ollama"
    chunk_policy = "full"  # llama.cpp underneath, its Llama 4 per-chunk KV not verified: the whole context
    words = r"\bollama\b"
    kv_type_flags = False  # OLLAMA_KV_CACHE_TYPE, not -ctk/-ctv
    context_key = "num_ctx"
    memory_key = "num_gpu"
    recipe = "ollama"
    offloads_by_itself = True
    default_context: ClassVar[int | None] = OLLAMA_DEFAULT_CONTEXT


def ollama_default_precision(ledger: Ledger) -> Precision:
    """Ollama with no quantization named ('ollama run deepseek-r1:32b', a library tag without a suffix):
    Q4_K_M, the quantization of the Ollama library's default tags (ollama/ollama issue #1543, J. Morgan,
    2024-12-29: "The default is now q4_k_m"; before, Q4_0, the same 4-bit size class). A tag with its own
    suffix ('32b-q8_0', '70b-instruct-fp16') is a stated precision and kept."""
    return Precision(ledger.assume("precision", Precision.q4_k_m.value, Why.ollama_default_tag))


FOUR_BIT_RELEASES = frozenset({"mxfp4"})
"""Release precisions that are already 4-bit (``ModelSpec.release_precision``): the Ollama library
publishes such a model in its native format (gpt-oss's tags are MXFP4, ollama.com/library/gpt-oss:
"MXFP4 format"), so :func:`ollama_default_precision`'s Q4_K_M does not apply to it."""


GGUF_RUNTIMES = frozenset({Runtime.llama_cpp, Runtime.ollama})
"""Runtimes that load GGUF files: their weights are quantized unless a format is said (session 19, trial
19b: '3050Ti Laptop 4G … qwen2.5-7b … 用 llama.cpp' sized bf16 weights, 15.2 GB, on a 4 GB card; now
Q4_K_M, Ollama's default tags' format, its layers that do not fit kept in CPU memory)."""


def gguf_fallback(
    req: SizingRequest, inf: Inference, size: Callable[[Precision], Inference], count: int | None = None
) -> tuple[Precision, Inference] | None:
    """(Q4_K_M, its sizing) when ``req`` names llama.cpp or Ollama — or names no runtime and asks of one
    personal card (``count`` 1, said or assumed: 'can I run Qwen3-30B-A3B on my 3060?' asks whether it
    runs on that card as people run it there, GGUF with the rest in CPU memory, not how many cards bf16
    takes; s31 trial) — and the sizing ``inf`` is of larger weights (bytes per parameter above Q4_K_M's
    4.85 bits / 8); else None."""
    gguf = req.runtime in GGUF_RUNTIMES or (req.runtime is None and count == 1 and _as_people_run_it(req))
    if not gguf or BITS_PER_WEIGHT[Precision.q4_k_m] / 8.0 >= inf.bytes_per_param:
        return None
    q4 = size(Precision.q4_k_m)
    if req.runtime is None and host_part(q4) > home_ram(req):
        return None  # 'serve Llama-3.1-405B on RTX 4090': ~200 GiB in CPU memory is no home machine's
    return Precision.q4_k_m, q4


HOME_RAM = 128 * GIB
"""The most CPU memory a home machine is taken to have when none is said (4 × 32 GB DIMMs, a large
desktop's usual most): with no runtime named, Q4_K_M with its rest in CPU memory is the answer on one
personal card only when that rest fits in it (or in the host memory the user states)."""


def _as_people_run_it(req: SizingRequest) -> bool:
    """No layout or offload of their own said: a stated TP ('with TP 1', an engine's layout) or CPU
    offload (KTransformers, ``--cpu-moe``, 'offload') is sized as stated, not as GGUF layers in CPU
    memory (s31 merge: tests/test_understanding.py, tests/test_serving_offload_named.py)."""
    return req.tp is None and req.cpu_moe_layers is None and not req.offload


def home_ram(req: SizingRequest) -> float:
    """The host memory stated, else :data:`HOME_RAM`, bytes."""
    return req.host_memory_gib * GIB if req.host_memory_gib else HOME_RAM


def host_part(inf: Inference) -> float:
    """What of a sizing does not fit one card's usable memory, bytes: the most it keeps in CPU memory."""
    return inf.required_bytes - inf.usable_bytes_per_gpu
