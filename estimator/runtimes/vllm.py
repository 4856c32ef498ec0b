"""vLLM: pre-allocates its KV cache at start-up — ``gpu_memory_utilization`` × the memory CUDA reports,
less the weights and the non-KV peak of a profiling run (activations of ``max_num_batched_tokens``, the
sampler's logits for ``max_num_seqs`` rows, non-torch memory); a ``max_model_len`` above the cache is
refused at start-up. Constants from vLLM's source, each with its file and version. Sizes in bytes."""

from __future__ import annotations

from dataclasses import dataclass

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, GPU_MEMORY_UTILIZATION, Default
from estimator.reasons import Why
from estimator.runtimes.base import Load, ServingRuntime, visible_bytes
from estimator.units import GIB

VLLM_BLOCK_TOKENS = 16
"""Tokens per KV-cache block (vLLM ``block_size`` default 16; the cache is whole blocks:
``num_blocks = available // page_size // num_layers``, vllm/v1/core/kv_cache_utils.py)."""

BATCHED_TOKENS_LARGE, BATCHED_TOKENS_SMALL = 8192, 2048
"""Tokens in one forward pass (vLLM V1 ``max_num_batched_tokens`` for the OpenAI server): 8,192 on cards
of ≥ 70 GiB, else 2,048 (vllm/engine/arg_utils.py, ``get_batch_defaults``, v0.8.5 and v0.10.1.1); vLLM
names A100 as an exception, kept in the catalog as ``GpuSpec.vllm_small_batch``."""
MAX_SEQS_LARGE, MAX_SEQS_SMALL = 1024, 256
"""Sequences per step (vLLM V1 ``max_num_seqs``), same split and source."""

V0_MIN_BATCHED_TOKENS = 2048
"""vLLM V0 (the default engine before v0.8, kept to v0.10): without chunked prefill,
``max_num_batched_tokens = max(max_model_len, 2048)`` (vllm/config.py ``SchedulerConfig``, v0.6.3)."""
V0_CHUNKED_PREFILL_ABOVE = 32_768
"""V0 turns chunked prefill on by itself only when ``max_model_len`` > 32,768 (vllm/engine/arg_utils.py,
v0.6.3 #941-964); its chunk is then 512 tokens (:data:`V0_CHUNKED_TOKENS`)."""
V0_CHUNKED_TOKENS = 512
"""``max_num_batched_tokens`` of V0 with chunked prefill (vllm/config.py, v0.6.3)."""

SAMPLER_BYTES_PER_ROW_VOCAB = 28
"""Peak bytes per sampled row × vocabulary entry of vLLM's profiling sampler pass (top-k = vocab − 1,
top-p < 1 force the sort-based path, vllm/v1/sample/ops/topk_topp_sampler.py ``apply_top_k_top_p``,
v0.8.5 and v0.10.1.1): bf16 logits 2 + fp32 copy 4 + sorted values 4 + int64 indices 8 + top-k mask 1
+ probabilities 4 + top-p mask 1 + scattered output 4 = 28."""

VLLM_NON_TORCH_BYTES = 0.16 * GIB
"""Memory vLLM's profiler counts outside PyTorch (NCCL, cuBLAS workspaces) at start-up, V1 and V0
after the profiler rewrite (PR #10511): "non_torch_memory takes 0.16GiB" (logs in vllm-project/vllm
PR #12126 and kubernetes-sigs/gateway-api-inference-extension PR #550; 0.20 GiB with TP in PR #14447)."""
VLLM_V0_NON_TORCH_BYTES = 0.35 * GIB
"""The same in V0 before the rewrite: "non_torch_memory=0.35GiB" (vllm-project/vllm#10517, RTX 3090)."""

MOE_EXPERT_OUTPUT_COPIES = 2
"""Bytes per token × top-k × hidden of the fused MoE kernel's per-expert outputs (vLLM
``fused_experts``: ``intermediate_cache3`` of shape [tokens, top_k, hidden] in 16-bit, before the
weighted sum)."""


def forward_peak_bytes(spec: ModelSpec, tokens: int, tp: int) -> float:
    """Live activations of one forward pass over ``tokens`` tokens (inference, no autograd): one
    layer's hidden states (≈ 4·h: residual, normed input, attention and MLP outputs; replicated on
    every TP rank) and its MLP's gate, up and activation outputs (3·f, split over TP; MoE: f × (top-k
    + shared experts), plus the fused kernel's per-expert outputs, :data:`MOE_EXPERT_OUTPUT_COPIES`),
    in 16-bit: T·(8h + 6f/t) bytes. Check: Llama-3.1-8B at 29,000 tokens → 3.21 GiB; vLLM logs an
    activation peak of 2.99 GiB (17.98 − 14.99, vllm-project/vllm#10517)."""
    per_token = 8.0 * spec.hidden + 6.0 * spec.active_ffn_hidden / tp
    if spec.is_moe:
        per_token += MOE_EXPERT_OUTPUT_COPIES * (spec.experts_top_k or 1) * spec.hidden
    return tokens * per_token


def sampler_peak_bytes(spec: ModelSpec, rows: int) -> float:
    """vLLM's profiling sampler pass over ``rows`` sequences:
    :data:`SAMPLER_BYTES_PER_ROW_VOCAB` × rows × V."""
    return SAMPLER_BYTES_PER_ROW_VOCAB * rows * spec.vocab


QWEN_1M_BATCHED_TOKENS = 131_072
"""``--max-num-batched-tokens 131072`` of the vLLM recipe on Qwen's 1M-token model cards (Qwen/Qwen2.5-7B-
Instruct-1M and -14B-Instruct-1M README, "Deploy with vLLM": ``--enable-chunked-prefill
--max-num-batched-tokens 131072 --max-num-seqs 1``; "the chunk size in Chunked Prefill. A smaller value
reduces activation memory usage but may slow down inference"), beside its stated need of at least 120 GB of
VRAM in total for the 7B at 1M tokens (320 GB for the 14B)."""


def vllm_batch_defaults(gpu: GpuSpec) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) of the vLLM V1 OpenAI server on ``gpu``."""
    large = gpu.memory_gib >= 70 and not gpu.vllm_small_batch
    return (BATCHED_TOKENS_LARGE, MAX_SEQS_LARGE) if large else (BATCHED_TOKENS_SMALL, MAX_SEQS_SMALL)


def v0_batched_tokens(max_model_len: int) -> int:
    """V0's ``max_num_batched_tokens``: the whole ``max_model_len`` (at least 2,048) without chunked
    prefill, 512 with it (on by itself above 32,768 tokens)."""
    if max_model_len > V0_CHUNKED_PREFILL_ABOVE:
        return V0_CHUNKED_TOKENS
    return max(max_model_len, V0_MIN_BATCHED_TOKENS)


def vllm_profile_bytes(
    spec: ModelSpec,
    gpu: GpuSpec,
    tp: int,
    max_model_len: int | None = None,
    v0: bool = False,
    batched: int | None = None,
    encoder: bool = False,
) -> float:
    """What vLLM keeps per GPU besides weights and KV cache, as its start-up profiling run measures it.

    - V1 (the default engine since v0.8, the only one from v0.11): the peak of one forward pass of
      ``max_num_batched_tokens`` (chunked prefill always on: 2,048 for ``vllm serve``, 8,192 on cards
      of ≥ 70 GiB other than A100, :func:`vllm_batch_defaults`) and of the sampler over
      ``max_num_seqs`` rows (vllm/v1/worker/gpu_model_runner.py ``profile_run``: ``_dummy_run`` then
      ``_dummy_sampler_run``; defaults from vllm/engine/arg_utils.py ``get_batch_defaults``,
      vllm-project/vllm@99d7eb5d), plus non-torch memory (:data:`VLLM_NON_TORCH_BYTES`); independent of
      ``max_model_len``. Llama-3.1-70B W8A8 on an H100: the sampler's 28 × 1,024 × 128,256 = 3.43 GiB.
    - V0 (``v0``: the user named a release before v0.8 or ``VLLM_USE_V1=0``): a forward pass of
      ``max(max_model_len, 2048)`` tokens unless chunked prefill is on (:func:`v0_batched_tokens`), 256
      sequences, :data:`VLLM_V0_NON_TORCH_BYTES`. Llama-3.1-8B at ``max_model_len`` 29,000: 3.21 GiB of
      activations — vLLM refused to start on an RTX 3090 (23,648 tokens of cache, vllm-project/vllm#10517).

    The CUDA context and CUDA-graph pools are outside ``gpu_memory_utilization`` (V1:
    ``init_snapshot`` is taken after the context, graphs are captured after the cache is allocated;
    vllm/v1/worker/gpu_worker.py, v0.10.1.1).

    ``batched``: V1's ``max_num_batched_tokens`` as set (``--max-num-batched-tokens``, or the 131,072 of
    Qwen's 1M-token model cards' vLLM recipe, :data:`QWEN_1M_BATCHED_TOKENS`) instead of the default;
    Qwen2.5-7B-Instruct-1M at 131,072 tokens, TP 1: 131,072 × (8 × 3,584 + 6 × 18,944) B = 18.7 GB.

    ``encoder`` (vLLM itself, V1): a vision-language model's encoder runs first on the largest dummy images
    (:func:`encoder_profile`), and its outputs stay cached through the text model's pass and the sampler's:
    the peak is the larger of the encoder's and the text passes' plus those outputs (s47-verdict)."""
    if v0:
        v0_tokens = v0_batched_tokens(max_model_len or V0_MIN_BATCHED_TOKENS)
        peak = max(forward_peak_bytes(spec, v0_tokens, tp), sampler_peak_bytes(spec, MAX_SEQS_SMALL))
        return peak + VLLM_V0_NON_TORCH_BYTES
    tokens, seqs = vllm_batch_defaults(gpu)
    tokens = batched or tokens
    peak = max(forward_peak_bytes(spec, tokens, tp), sampler_peak_bytes(spec, seqs))
    if encoder and spec.vision is not None and (mm := encoder_profile(spec, gpu, tp, batched)) is not None:
        peak = max(mm.peak_bytes, peak + mm.output_bytes)  # the encoder's run, then its outputs kept
    return peak + VLLM_NON_TORCH_BYTES


QWEN_VL_MAX_PIXELS = 12_845_056
"""``max_pixels`` of the Qwen2-VL and Qwen2.5-VL processors (preprocessor_config.json of the Instruct
releases: min_pixels 3,136, max_pixels 12,845,056 = 3,584²). vLLM profiles a multimodal model with the
image of most features its processor allows (vllm/model_executor/models/qwen2_vl.py
``get_image_size_with_most_features``: ``_get_vision_info`` at 9,999,999 px a side, which smart_resize
clamps to max_pixels): 12,845,056 / 28² = 16,384 tokens, 65,536 patches of 14 px."""


@dataclass(frozen=True)
class EncoderProfile:
    """vLLM V1's start-up run of a multimodal model's encoder (:func:`encoder_profile`). Sizes in bytes."""

    items: int
    """dummy images run at once: ``max(1, encoder_budget // item_tokens)``"""
    item_tokens: int
    """LLM tokens of the largest image the processor allows"""
    patches: int
    """the encoder's patches per image: ``item_tokens`` × spatial_merge²"""
    peak_bytes: float
    """the encoder's forward peak per GPU over all the items"""
    output_bytes: float
    """the items' embeddings (16-bit, LLM hidden) kept in the encoder cache through the text model's run"""


def encoder_profile(
    spec: ModelSpec, gpu: GpuSpec, tp: int, batched: int | None = None
) -> EncoderProfile | None:
    """What vLLM V1's ``profile_run`` runs for a vision-language model before the text model's dummy pass
    (vllm/v1/worker/gpu_model_runner.py ``profile_run``: ``_get_mm_dummy_batch(modality,
    max_items_per_batch)``, the encoder's outputs kept in ``encoder_cache`` through ``_dummy_run``). The
    encoder budget is ``max(max_num_batched_tokens, tokens of the largest item)``
    (vllm/v1/core/encoder_cache_manager.py ``compute_mm_encoder_budget``) and the items run at once
    ``max(1, min(budget // item_tokens, max_num_seqs × items a prompt))`` (vllm/v1/worker/utils.py
    ``MultiModalBudget.get_max_items``; the second term is ≥ 256 at the defaults, so the first decides).
    The largest item: :data:`QWEN_VL_MAX_PIXELS` / pixels a token for a dynamic-resolution tower (Qwen-VL:
    16,384 tokens), else the tower's fixed ``tokens_per_image`` (LLaVA-1.5: 576). Its peak is the text
    model's forward formula (:func:`forward_peak_bytes`: T·(8h + 6f/t)) over the tower's patches and widths,
    plus the patches' 16-bit pixel values (3 × p² a patch; × 2 frames for Qwen-VL's Conv3d patch embedding,
    temporal_patch_size 2). Qwen2.5-VL-7B on a 16 GB card (2,048 batched tokens): one image of 16,384
    tokens, 65,536 patches × (8 × 1,280 + 6 × 3,420 + 2,352) B = 2.17 GB. None for a text model."""
    v = spec.vision
    if v is None:
        return None
    item_tokens = QWEN_VL_MAX_PIXELS // v.pixels_per_token if v.pixels_per_token else v.tokens_per_image
    if not item_tokens:
        return None
    budget = max(batched or vllm_batch_defaults(gpu)[0], item_tokens)
    items = max(1, budget // item_tokens)
    patches = item_tokens * v.spatial_merge**2
    pixel_bytes = 2 * 3 * v.patch_size**2 * (2 if v.pixels_per_token else 1)
    per_patch = 8.0 * v.hidden + 6.0 * v.ffn_hidden / tp + pixel_bytes
    return EncoderProfile(
        items, item_tokens, patches, items * patches * per_patch, 2.0 * items * item_tokens * spec.hidden
    )


def encoder_profile_params(
    spec: ModelSpec, gpu: GpuSpec, tp: int, batched: int | None
) -> tuple[Why, dict[str, object]] | None:
    """The workspace's ledger reason when vLLM V1 profiles a vision-language model's encoder
    (:func:`encoder_profile`): ``Why.vllm_workspace_vision`` with the images, their tokens and patches and
    the encoder's peak in bytes; None for a model without one."""
    mm = encoder_profile(spec, gpu, tp, batched)
    if mm is None:
        return None
    params = {"model": spec.name, "mm_items": mm.items, "mm_item_tokens": mm.item_tokens}
    return Why.vllm_workspace_vision, params | {"mm_patches": mm.patches, "encoder_bytes": mm.peak_bytes}


def either_engine_profile_bytes(spec: ModelSpec, gpu: GpuSpec, tp: int) -> float:
    """The larger of vLLM's V1 and V0 profiles (:func:`vllm_profile_bytes`, V0 at its 2,048-token minimum):
    the activations other servers (SGLang's need, TGI's warm-up prefill, lmdeploy's need) are counted as,
    unchanged by vLLM's own V1 default (trial s26 #3 sizes vLLM alone by V1)."""
    return max(vllm_profile_bytes(spec, gpu, tp), vllm_profile_bytes(spec, gpu, tp, v0=True))


@dataclass(frozen=True)
class Vllm(ServingRuntime):
    """vLLM: ``gpu_memory_utilization`` × the memory CUDA reports (default 0.9,
    :data:`estimator.defaults.GPU_MEMORY_UTILIZATION`), its profiling peak as workspace
    (:func:`vllm_profile_bytes`), the KV cache in whole blocks of :data:`VLLM_BLOCK_TOKENS`."""

    name = "vLLM"
    chunk_policy = "chunk_plus_batch"
    dp_engines_own_tp = True
    unsupported_generations = frozenset({"Kepler", "Maxwell", "Pascal"})
    """vLLM's installation docs, Requirements: "GPU: compute capability 7.0 or higher (e.g., V100, T4,
    RTX20xx, A100, L4, H100, etc.)" (docs.vllm.ai getting_started/installation/gpu, v0.7–v0.14); Pascal
    is 6.0–6.1 (P100, P40), Maxwell 5.x, Kepler 3.x (NVIDIA, CUDA GPUs compute capability table)."""
    kv_block_tokens = VLLM_BLOCK_TOKENS
    refuses_short_cache = True
    dp_replicated = "non_expert"  # estimator.dp_replicated (s44)
    engine_v0: bool = False
    """The V0 engine (the user named a vLLM release before v0.8 or ``VLLM_USE_V1=0``): its profile runs
    one whole ``max_model_len`` up to 32K (:func:`vllm_profile_bytes`); False: V1, the default."""
    batched_tokens: int | None = None
    """V1's ``max_num_batched_tokens`` as set (:func:`vllm_profile_bytes` ``batched``); None: the default."""
    recipe = "vllm"
    words = r"\bvllm\b|\buse_vllm\b"
    affix = "vllm"
    paged = spans_tp_pp = takes_share = True

    def _usable(self, gpu: GpuSpec) -> float:
        """``gpu_memory_utilization`` × the memory CUDA reports (:func:`visible_bytes`); the CUDA context
        and CUDA graphs sit outside it (:func:`vllm_profile_bytes`). It must be free at start-up (V1
        ``init_device`` raises otherwise), so on small cards the budget is at most the memory less the
        CUDA context (:data:`estimator.defaults.CUDA_CONTEXT_BYTES`)."""
        free_at_start = visible_bytes(gpu) - CUDA_CONTEXT_BYTES.value
        return min(visible_bytes(gpu) * vllm_utilization(self), free_at_start)

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        """Its profiling run's peak (:func:`vllm_profile_bytes`, V1 unless :attr:`engine_v0`; V0 at
        ``max_model_len`` = the context)."""
        return vllm_profile_bytes(
            spec, gpu, tp, load.context, self.engine_v0, self.batched_tokens, encoder=True
        )

    @property
    def workspace_why(self) -> Why:  # type: ignore[override]
        """The ledger's wording of the workspace: the default chunk's, or :attr:`batched_tokens` as set."""
        return Why.vllm_workspace_batched if self.batched_tokens else Why.vllm_workspace

    def workspace_key(self, tp: int, load: Load) -> tuple:
        """TP and the context: all :meth:`_workspace` reads of the load (the unified-memory workspace
        reads none), so loads differing only in precision, prompt or batch share one profile."""
        return (tp, load.context if self.engine_v0 else None)

    @property
    def profiles_whole_sequence(self) -> bool:  # type: ignore[override]
        """V0 only: V1 chunks every prefill (:attr:`engine_v0`)."""
        return self.engine_v0

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        if self.utilization is not None:
            return None
        if self.forks:  # a fork (Aphrodite): vLLM's value, said under the fork's name (s38-fixs2 #3)
            return Default(GPU_MEMORY_UTILIZATION.value, Why.fork_utilization)
        return GPU_MEMORY_UTILIZATION


def vllm_utilization(runtime: ServingRuntime) -> float:
    """vLLM's ``gpu_memory_utilization``: the user's, else 0.9 (:data:`GPU_MEMORY_UTILIZATION`)."""
    return runtime.utilization or GPU_MEMORY_UTILIZATION.value
