"""What every serving runtime shares: the card's visible memory, the load a workspace depends on, and
:class:`ServingRuntime`, the class each engine (:mod:`estimator.runtimes.vllm`, ``sglang``,
``transformers``, ``llama_cpp``) subclasses with its own budget, workspace, KV layout and wording.

Memory per GPU = the runtime's budget (:meth:`ServingRuntime.usable_bytes`) − what it keeps besides the
weights and the KV cache (:meth:`ServingRuntime.workspace_bytes`); the rest holds the KV cache. Sizes in
bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES, Default
from estimator.models import Precision
from estimator.reasons import Why
from estimator.units import GIB as GIB  # re-exported: tests and older imports read it here

CUDA_VISIBLE_FRACTION = 0.99
"""Share of a discrete card's memory that CUDA reports as its total (``cudaMemGetInfo``, the
``total_gpu_memory`` vLLM and SGLang size from): the driver keeps the rest. vLLM start-up logs print
79.22 GiB for an 80 GB H100 (vllm-project/vllm PR #10511, PR #12126) and 23.58 GiB for a 24 GB RTX
3090 (vllm-project/vllm#10517); PyTorch reports 79.25 GiB for an 80 GB A100
(levihsu/OOTDiffusion#235): 0.990, 0.983, 0.991 of the nominal capacity."""

PROMPT_SHARE = 0.75
"""When only a total context is given, the prompt is taken as 3/4 of it. Stated default: chat and
RAG traffic is prompt-heavy (e.g. the corpus's "prompts ~2k tokens and replies ~500": 80 %)."""

LOCAL_UBATCH_TOKENS = 512
"""llama.cpp's default physical batch (``-ub``/``--ubatch-size`` 512): the tokens one compute step holds."""


def visible_bytes(gpu: GpuSpec) -> float:
    """Memory CUDA reports as the card's total (:data:`CUDA_VISIBLE_FRACTION`); a card with ECC on by
    default (L40S, L4, A10 …): its nvidia-smi memory.total (``GpuSpec.ecc_visible_mib``); unified
    memory: the GPU's working set (Metal's recommended maximum)."""
    if gpu.gpu_memory_fraction or gpu.ecc_visible_mib:  # ECC on: nvidia-smi's memory.total itself
        return gpu.addressable_bytes
    return gpu.memory_bytes * CUDA_VISIBLE_FRACTION


def local_workspace_bytes(spec: ModelSpec, tp: int) -> float:
    """llama.cpp's compute buffer for one ``n_ubatch`` of 512 tokens (:data:`LOCAL_UBATCH_TOKENS`: one
    layer's hidden states and MLP outputs, T·(4h + 3f/t)·2 bytes) and one sequence's fp32 logits (V·4);
    also what any runtime keeps on unified memory (Apple silicon)."""
    ffn = spec.active_ffn_hidden
    return LOCAL_UBATCH_TOKENS * (4 * spec.hidden + 3 * ffn / tp) * 2.0 + spec.vocab * 4.0


class Load(NamedTuple):
    """What the workspace of a runtime depends on besides the model and the card."""

    context: int | None = None
    """Tokens per sequence: vLLM's ``max_model_len`` (its V0 profile runs a whole one)."""
    prompt_tokens: int | None = None
    """Prompt tokens per sequence (transformers' prefill); None: :data:`PROMPT_SHARE` of the context."""
    batch: int = 1
    """Sequences in one ``generate`` call (transformers)."""
    precision: Precision | None = None
    """Weight format (transformers dequantizes quantized matrices)."""
    pp: int = 1
    """Pipeline stages of one replica: SGLang's default reserve grows with TP × PP
    (:func:`estimator.runtimes.sglang.sglang_fraction`)."""

    def with_pp(self, pp: int) -> Load:
        """This load on ``pp`` pipeline stages: itself when it already has them (the serving layout
        search asks per candidate; ``_replace`` costs ~1 µs a call, the positional copy a third)."""
        return self if self.pp == pp else Load(*self[:-1], pp)


NO_LOAD = Load()
"""No load stated: vLLM's V0 profile at its 2,048-token minimum, one prompt of the default share."""


@dataclass(frozen=True)
class ServingRuntime:
    """A serving engine and the share of each card it is given (``utilization``: vLLM
    ``gpu_memory_utilization`` or SGLang ``mem_fraction_static`` as the user stated it; None: the
    engine's default). Subclasses set the class attributes and override :meth:`_usable` and
    :meth:`_workspace`; every other module asks the runtime object, never its name."""

    utilization: float | None = None
    mla_tp_copies: bool = False
    """MLA under a TP the user stated without DP attention: every rank keeps the whole latent cache
    (:meth:`kv_replication`); False: the DP-attention layout the answer recommends (its recipes say so)."""
    dp_said: int = 0
    """DP attention as the user stated it (SGLang ``--enable-dp-attention``, vLLM DP + EP), as the GPUs each
    rank splits its attention over (1: each GPU its own sequences; s45: SGLang TP ÷ DP, vLLM's per-rank TP,
    :func:`estimator.serving_group.attention_tp`): each rank also keeps the weights of :attr:`dp_replicated`
    whole over that many GPUs (:meth:`replicated_bytes`, s44); 0 (or False): not stated, not counted."""

    name: ClassVar[str]
    """The engine's name as :class:`estimator.models.Runtime` spells it (``Inference.runtime``)."""
    local: ClassVar[bool] = False
    """llama.cpp and the runtimes built on it (Ollama, LM Studio) and MLX."""
    chunk_policy: ClassVar[str] = "full"
    """What a chunked-local-attention layer (Llama 4) keeps a sequence (:mod:`estimator.chunked_kv`):
    "full" the whole context (transformers, TGI, lmdeploy, Ollama: no per-chunk KV); "chunk_plus_batch" one
    chunk + ``max_num_batched_tokens`` (vLLM's ``ChunkedLocalAttentionSpec``, by release or env var);
    "hybrid_ratio" SGLang's ``--hybrid-kvcache-ratio`` mix; "chunk_plus_ubatch" one chunk + ``n_ubatch``
    (llama.cpp's ``llama_kv_cache_iswa``)."""
    dp_engines_own_tp: ClassVar[bool] = False
    """Each data-parallel rank is an engine of its own TP and the experts span DP × TP (vLLM
    ``--data-parallel-size N --enable-expert-parallel``: docs/serving/data_parallel_deployment.md); False:
    the DP attention ranks split the engine's one TP (SGLang ``attn_tp_size = tp_size // dp_size``)."""
    splits_layers: ClassVar[bool] = False
    """Several cards take turns on the layers (llama.cpp ``-sm layer``, transformers
    ``device_map="auto"``) instead of splitting each layer's tensors (vLLM/SGLang tensor parallelism):
    each layer's KV is kept once, and one card's bandwidth sets the decode pace."""
    tp_across_nodes: ClassVar[bool] = False
    """One copy over several machines is one TP group across them (SGLang's multi-node recipe,
    ``--tp 16 --nnodes 2`` for DeepSeek-V3 on two H20 × 8 nodes: sgl-project/sglang
    benchmark/deepseek_v3/README.md), not TP within a machine × pipeline stages (vLLM's)."""
    kv_block_tokens: ClassVar[int] = 1
    """The KV cache is allocated in whole blocks of this many tokens (1: token by token)."""
    prefills_batch: ClassVar[bool] = False
    """Prefills the whole batch in one forward pass (transformers ``generate``): its workspace grows with
    the batch; servers schedule prefills in chunks of their own."""
    unsupported_generations: ClassVar[frozenset[str]] = frozenset()
    """GPU architectures (``GpuSpec.generation``) the engine does not run on (vLLM: below compute
    capability 7.0)."""
    refuses_short_cache: ClassVar[bool] = False
    """Refuses to start when one ``max_model_len`` sequence does not fit its KV cache (vLLM)."""
    profiles_whole_sequence: ClassVar[bool] = False
    """Its V0 engine profiles one whole ``max_model_len`` sequence up to 32K (no chunked prefill): the
    start-up log can hold fewer sequences than a chunked-prefill start-up (vLLM)."""
    dp_replicated: ClassVar[str | None] = None
    """What each rank of a data-parallel-attention group keeps whole (:mod:`estimator.dp_replicated`:
    'attention' for SGLang, 'non_expert' for vLLM); None: an engine the layout does not model it for."""
    workspace_why: ClassVar[Why]
    """The ledger's wording key for :meth:`workspace_bytes` (:class:`estimator.reasons.Why`)."""
    kv_type_flags: ClassVar[bool] = False
    """Its KV cache type is set by ``-ctk``/``-ctv`` (q8_0, q4_0), not an fp8 cache (s39 fixm #3)."""
    recipe: ClassVar[str | None] = None
    """The launch recipe of this engine (``bot.recipes`` tool name); None: it has none of its own."""
    recipes: ClassVar[tuple[str, ...]] = ("vllm", "sglang")
    """Recipes offered when this runtime's memory model applied: servers, or local runtimes."""
    offloads_by_itself: ClassVar[bool] = False
    """Places as many layers on the GPU as fit and keeps the rest in CPU memory without being told (Ollama's
    ``num_gpu`` default: llm/memory.go ``EstimateGPULayers``); llama.cpp needs ``-ngl``."""
    forks: ClassVar[str | None] = None
    """The engine this one is a fork of and sizes as (Aphrodite: vLLM): its ledger lines name this engine
    and that one (:attr:`fork_params`); None: an engine of its own."""
    fork_params: ClassVar[dict[str, str]] = {}
    """The names a fork's ledger lines say (``runtime``: this engine, ``upstream``: the one it forks; a
    class attribute, no call on each sizing); empty for an engine of its own."""
    words: ClassVar[str | None] = None
    """How people write the engine's name, a regex source on the lower-cased text (the parser's runtime
    table :data:`bot.parse.method_words.RUNTIMES` is built from it); None: never named by the user."""
    affix: ClassVar[str | None] = None
    """The name as it is written inside class and helper names ('LocalVLLM', 'LMDeployPipeline'; the
    parser's ``_affixed`` forms); None: not read so."""
    context_key: ClassVar[str] = "--max-model-len"
    """Its setting for the context it reserves (:mod:`bot.core.runtime_keys`)."""
    memory_key: ClassVar[str] = "--gpu-memory-utilization"
    """Its setting for the memory it takes (:mod:`bot.core.runtime_keys`)."""
    paged: ClassVar[bool] = False
    """A server with a paged KV cache and continuous batching (the advice line's 'paged' variant)."""
    spans_tp_pp: ClassVar[bool] = False
    """Reads TP / PP flags: one model copy spans exactly TP × PP GPUs (:mod:`bot.parse.engine_world`)."""
    takes_share: ClassVar[bool] = False
    """Built with the user's memory share and MLA layout (:func:`estimator.runtimes.runtime_for`); False:
    its default instance."""
    default_context: ClassVar[int | None] = None
    """The context the engine gives a sequence when none is set (Ollama's ``num_ctx``); None: the
    engine takes the model's own (vLLM's ``max_model_len``) and the question's context applies."""

    def usable_bytes(self, gpu: GpuSpec) -> float:
        """The runtime's budget per card, before its own workspace (:meth:`workspace_bytes`). Unified
        memory, whatever the runtime: the working set less 1 GiB of context and buffers."""
        if gpu.gpu_memory_fraction:
            return gpu.addressable_bytes - CUDA_CONTEXT_BYTES.value
        return self._usable(gpu)

    def share_bytes(self, usable: float, workspace: float) -> float:
        """Bytes per GPU the engine's memory fraction hands it — what a reply calls 'usable per GPU' —
        from :meth:`usable_bytes` and :meth:`workspace_bytes`: vLLM's ``gpu_memory_utilization`` ×
        the memory is its budget itself (activations included). SGLang overrides it (trial s10 C1)."""
        return usable

    def workspace_bytes(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """What the runtime keeps on each GPU besides weights and KV cache (unified memory: llama.cpp's
        compute buffer, :func:`local_workspace_bytes`)."""
        if gpu.gpu_memory_fraction:
            return local_workspace_bytes(spec, tp)
        return self._workspace(spec, gpu, tp, load)

    def room(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load, pp: int) -> float:
        """Bytes per GPU for weights and KV cache of ``load`` on ``pp`` stages of TP ``tp``: the budget
        (:meth:`usable_bytes`) less the workspace (:meth:`workspace_bytes`)."""
        room = self.usable_bytes(gpu) - self.workspace_bytes(spec, gpu, tp, load.with_pp(pp))
        if self.dp_said:
            room -= self.replicated_bytes(spec, tp, load, pp)
        return room

    def replicated_bytes(self, spec: ModelSpec, tp: int, load: Load = NO_LOAD, pp: int = 1) -> float:
        """Bytes per GPU of the weights a data-parallel-attention group keeps whole on each rank, above
        their 1/``tp`` share (:func:`estimator.dp_replicated.replicated_per_gpu`): any model under DP
        attention the user stated (:attr:`dp_said`) on an engine with :attr:`dp_replicated`, over a group of
        more than one GPU; else 0. Not MLA's alone (s45 fixserve #2): vLLM's DP ranks keep their weights
        whatever the attention ("model weights are replicated across separate instances/GPUs … This will
        work with both dense and MoE models", docs/serving/data_parallel_deployment.md), SGLang's
        ``compute_dp_attention_world_info`` sets ``attn_tp_size`` for every model it runs with it."""
        if not self.dp_said or self.dp_replicated is None or tp <= 1:
            return 0.0
        from estimator.dp_replicated import replicated_per_gpu

        return replicated_per_gpu(spec, load.precision, self.dp_replicated, (tp, pp), int(self.dp_said))

    def workspace_key(self, tp: int, load: Load) -> tuple:
        """What :meth:`workspace_bytes` reads besides the model and the card, as a cache key
        (:class:`estimator.runtimes.memo.MemoRuntime`): TP and the whole load unless the runtime reads
        less of it."""
        return (tp, load)

    def needed_workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """The workspace a load needs as ``nvidia-smi`` would show it without pre-allocation
        (:func:`estimator.serving_layout.required_bytes`): :meth:`workspace_bytes` unless the runtime
        reserves a share rather than a need."""
        return self.workspace_bytes(spec, gpu, tp, load)

    def kv_replication(self, spec: ModelSpec, tp: int) -> float:
        """Copies of each token's KV cache across a TP group.

        GQA/MHA: with TP above the KV-head count each GPU keeps a copy of its KV head (vLLM replicates).
        MLA (DeepSeek-V2/V3/R1, Kimi-K2): the latent (kv_lora_rank + qk_rope_head_dim per token and
        layer) has one head, so tensor parallelism cannot split it: under a plain ``--tp N`` every rank
        holds the whole latent (SGLang ``MLATokenToKVPool``, python/sglang/srt/mem_cache/memory_pool.py:
        a buffer of (size, 1, kv_lora_rank + qk_rope_head_dim) per layer on each rank; vLLM's MLA backend,
        vllm/attention/backends/mla/common.py: blocks of [block, 1, kv_lora_rank + rope]) — ``tp`` copies,
        when the user stated that TP (:attr:`mla_tp_copies`). DeepSeek-style serving runs attention
        data-parallel across the group (SGLang ``--enable-dp-attention``, vLLM data- and expert-parallel
        deployment; DeepSeek-V3 report §3.4), so each sequence's latent lives on one GPU: no copies —
        the layout the answer recommends. Runtimes that split the layers over the cards (llama.cpp,
        transformers) keep each layer's KV once. DP attention stated (:attr:`dp_said`, s45): each rank
        keeps its own sequences' KV over its attention TP — MLA's latent copied on each of its GPUs
        (``dp_said`` copies), GQA's heads split over them (copies only above the KV-head count)."""
        if self.dp_said and self.dp_replicated is not None:  # DP attention (s45): a rank's own sequences
            return float(self.dp_said) if spec.kv_lora_rank else max(1.0, self.dp_said / spec.kv_heads)
        if spec.kv_lora_rank and not self.splits_layers:
            return float(tp) if self.mla_tp_copies else 1.0
        if self.splits_layers:
            return 1.0
        return max(1.0, tp / spec.kv_heads)

    def whole_blocks(self, tokens: int) -> int:
        """``tokens`` of KV cache rounded down to whole blocks (:attr:`kv_block_tokens`)."""
        if self.kv_block_tokens == 1:
            return tokens
        return tokens // self.kv_block_tokens * self.kv_block_tokens

    def utilization_assumed(self, gpu: GpuSpec, tp: int, spec: ModelSpec, pp: int = 1) -> Default | None:
        """The share of the card the runtime takes when the user stated none, with its reason, for the
        ledger, for a replica of TP × PP GPUs; None when the user's stated share is used."""
        return None

    def reserve_short(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load = NO_LOAD) -> float:
        """Bytes per GPU by which the runtime's activations exceed a reserve it keeps as a share of the
        memory (lmdeploy); 0 or less: enough. Runtimes that size their workspace from a need: 0."""
        return 0.0

    def _usable(self, gpu: GpuSpec) -> float:
        raise NotImplementedError

    def _workspace(self, spec: ModelSpec, gpu: GpuSpec, tp: int, load: Load) -> float:
        raise NotImplementedError
