"""Serving with part of the weights in CPU memory: llama.cpp's ``-ngl`` / ``--n-gpu-layers`` (Ollama
``num_gpu``, LM Studio's "GPU offload") and MoE experts kept on the CPU (``--cpu-moe``, ``--n-cpu-moe N``,
``-ot "exps=CPU"``, KTransformers). Sizes in bytes, speeds in tokens per second, bandwidths in bytes/s.

Where llama.cpp puts each tensor (ggml-org/llama.cpp ``src/llama-model.cpp``, ``load_tensors``):

- the repeating layers and the output layer are ``n_layer + 1`` slots; ``i_gpu_start = max(n_layer + 1 −
  n_gpu_layers, 0)`` and slots from ``i_gpu_start`` on go to the GPUs. So ``-ngl N`` (1 ≤ N ≤ n_layer)
  puts the output layer (output norm and ``lm_head``) and the last N − 1 repeating layers on the GPU, and
  N ≥ n_layer + 1 puts everything there (its log: "offloaded N/n_layer+1 layers to GPU"; builds before
  the slot rule, 2024, put N repeating layers there and the output layer only when N > n_layer);
- the input layer (token embeddings) always stays on the CPU ("there is very little benefit to offloading
  the input layer");
- each layer's KV cache lives on that layer's device (``src/llama-kv-cache.cpp``: one buffer per device
  of the layers it holds) unless ``--no-kv-offload``;
- ``--n-cpu-moe N`` keeps the routed experts of the first N layers in CPU memory, ``--cpu-moe`` (or
  ``-ot ".ffn_.*_exps.=CPU"``) those of every layer (tools/server README); attention, norms and shared
  experts stay where their layer is.

Decode of one sequence is memory-bound on both sides: time per token = GPU bytes read / (GPU bandwidth ×
:data:`estimator.serving_speed.DECODE_BANDWIDTH_EFFICIENCY`) + CPU bytes read / (host bandwidth ×
:data:`CPU_BANDWIDTH_EFFICIENCY`); a MoE layer reads only its top-k experts per token. Checked against
measured runs in tests/test_layer_offload.py.
"""

from typing import TYPE_CHECKING

from pydantic import Field

from estimator.catalog import GpuSpec, ModelSpec
from estimator.request import _Frozen
from estimator.units import GIB
from estimator.vision import language_params

if TYPE_CHECKING:
    from estimator.models import Inference, SizingRequest
    from estimator.serving import ServingResult

HOST_BANDWIDTH_RANGE = (51.2e9, 89.6e9)
"""Host memory bandwidth assumed when none is stated, bytes/s: dual-channel DDR4-3200 (2 channels × 8 bytes
× 3,200 MT/s = 51.2 GB/s) to dual-channel DDR5-5600 (2 × 8 × 5,600 MT/s = 89.6 GB/s), the JEDEC
transfer rates of desktop DDR4 and DDR5 (JESD79-4, JESD79-5) times the 64-bit channel width."""

HOST_BANDWIDTH_SERVER = (204.8e9, 460.8e9)
"""Host memory bandwidth assumed for a stated host memory above :data:`DESKTOP_MEMORY_MAX` (a server),
bytes/s: 8-channel DDR4-3200 (EPYC 7003, Xeon Ice Lake-SP: 8 × 8 × 3,200 MT/s = 204.8 GB/s) to
12-channel DDR5-4800 (EPYC 9004: 12 × 8 × 4,800 MT/s = 460.8 GB/s), one socket."""
DESKTOP_MEMORY_MAX = 256 * GIB
"""The most memory a desktop board takes (4 DIMMs × 64 GB DDR5): more stated is a server's."""

CPU_BANDWIDTH_EFFICIENCY = 0.65
"""Share of the host's peak memory bandwidth llama.cpp's CPU decode reaches. Measured: qwen2.5-coder 32B
Q4_K_M (≈ 19.7 GB) at 3.54 tokens/s on dual-channel DDR5-5600 (89.6 GB/s), CPU only
(ggml-org/llama.cpp#19480): ≈ 70 GB/s, 0.78; MoE experts on the CPU read smaller matrices and reach less
(Qwen3-30B-A3B ``--n-cpu-moe 36``, AlexsJones/llmfit#755). 0.65 is a stated middle value; the three
checks are in tests/test_layer_offload.py."""

ALL_EXPERTS = 999
"""``cpu_moe_layers`` for every layer's experts on the CPU (``--cpu-moe``, ``-ot exps=CPU``,
KTransformers)."""


class LayerSplit(_Frozen):
    """Where a llama.cpp-style split puts the model (GPU side on all the user's GPUs together), bytes."""

    layers: int = Field(description="repeating layers of the model")
    gpu_layers_stated: int = Field(description="-ngl as stated (llama.cpp's count: the output layer is one)")
    gpu_layers: int = Field(description="repeating layers on the GPUs")
    output_on_gpu: bool = Field(description="the output layer (norm and lm_head) on the GPUs")
    kv_on_gpu: bool = True
    """each layer's KV cache on its layer's device; False: -nkvo"""
    cpu_moe_layers: int = 0
    """layers whose routed experts stay in CPU memory"""
    gpu_weights_bytes: float
    gpu_kv_bytes: float
    gpu_workspace_bytes: float = Field(description="llama.cpp's compute buffer on each GPU, all GPUs")
    gpu_bytes: float = Field(description="weights + KV cache + compute buffer on the GPUs")
    gpu_usable_bytes: float = Field(description="all the GPUs' memory but 1 GiB each (llama.cpp: no cap)")
    host_weights_bytes: float = Field(description="weights in CPU memory, token embeddings included")
    host_kv_bytes: float
    host_bytes: float
    host_memory_bytes: float | None = None
    """the host memory stated"""
    fits_gpu: bool
    fits_host: bool | None = None
    """None: no host memory stated"""
    max_gpu_layers: int | None = Field(
        description="the largest -ngl (0 … layers + 1) whose GPU side fits, experts as stated; None: not 0"
    )
    gpu_read_bytes: float = Field(description="bytes the GPUs read per decoded token")
    cpu_read_bytes: float = Field(description="bytes the CPU reads per decoded token")
    host_bandwidth_low: float = Field(description="bytes/s (stated, else dual-channel DDR4-3200)")
    host_bandwidth_high: float = Field(description="bytes/s (stated, else dual-channel DDR5-5600)")
    host_bandwidth_basis: str = "desktop"
    """where the host bandwidth comes from: 'stated' (the user's figure or RAM kind), 'desktop' (dual-channel
    DDR4-3200 to DDR5-5600, assumed), 'server' (8-channel DDR4-3200 to 12-channel DDR5-4800, one socket,
    assumed: more host memory stated than a desktop board takes) or 'ddr' (the DDR generation or channel count
    said without a rate: estimator.host_ddr) or 'unified' (unified memory: the share the GPU's working set
    leaves, at the machine's bandwidth: unified_host)"""
    tokens_per_s_low: float | None = Field(description="one sequence, at the low host bandwidth")
    tokens_per_s_high: float | None = Field(description="one sequence, at the high host bandwidth")
    max_host_bytes: float | None = None
    """bytes in CPU memory at -ngl max_gpu_layers"""
    min_cpu_moe_layers: int | None = None
    """experts on the CPU: the fewest layers' (--n-cpu-moe) whose GPU side fits at this -ngl"""
    min_cpu_moe_tokens_per_s_low: float | None = None
    """the speed at min_cpu_moe_layers"""
    min_cpu_moe_tokens_per_s_high: float | None = None
    """the speed at min_cpu_moe_layers"""
    gpu_bandwidth: float = 0.0
    """one GPU's memory bandwidth, bytes/s (catalog)"""
    max_tokens_per_s_low: float | None = None
    """the same at -ngl max_gpu_layers"""
    max_tokens_per_s_high: float | None = None
    """the same at -ngl max_gpu_layers"""
    max_gpu_read_bytes: float | None = None
    """bytes the GPUs read per decoded token at -ngl max_gpu_layers (the decode line of a split that does
    not fit gives the fitting one's, whose speed the headline states: s34 #1)"""
    max_cpu_read_bytes: float | None = None
    """bytes the CPU reads per decoded token at -ngl max_gpu_layers"""
    cost_per_million_tokens_low: float | None = None
    """the split's own price per million output tokens (one sequence at tokens_per_s_high, the low price per
    GPU-hour), in inference.cost_per_million_tokens' currency: with a split, that field and
    priced_tokens_per_s are every layer on the GPUs'; these apply to the setting stated"""
    cost_per_million_tokens_high: float | None = None
    """the same at tokens_per_s_low and the high price per GPU-hour"""
    gpu_layers_chosen: bool = False
    """True: no -ngl was said; the weights do not fit the user's cards and host memory (or a partial offload)
    was said, so the split is the largest -ngl that fits (:func:`auto_split`)"""
    all_gpus_tokens_per_s: float | None = None
    """with gpu_layers_chosen: one sequence's decode speed with every layer on inference.min_gpus cards (the
    alternative: more cards)"""
    experts_cpu_layers: int | None = None
    """with experts_cpu_gpu_bytes: the fewest layers whose experts stay in CPU memory (--n-cpu-moe N) for
    the rest to fit; None: it does not fit even with every layer's (--cpu-moe)"""
    experts_cpu_gpu_bytes: float | None = None
    """with gpu_layers_chosen on a MoE model: the GPU side with every layer on the GPU but the routed experts
    in CPU memory (--cpu-moe, -ot ".ffn_.*_exps.=CPU": :mod:`estimator.moe_offload`), bytes"""
    experts_cpu_tokens_per_s_low: float | None = None
    """one sequence's decode speed in that layout, at the low host bandwidth"""
    experts_cpu_tokens_per_s_high: float | None = None
    """the same at the high host bandwidth"""


class _Shape:
    """Per-layer bytes of ``spec`` at ``bpp`` bytes per parameter (averaged over the layers)."""

    def __init__(self, spec: ModelSpec, params: float, bpp: float, kv_sequence: float) -> None:
        self.layers = spec.layers
        self.embed = spec.vocab * spec.hidden * bpp  # token embeddings: always on the CPU
        self.output = spec.vocab * spec.hidden * bpp  # lm_head (llama.cpp duplicates tied embeddings)
        ffn_mats = 3 if spec.gated_ffn else 2
        one_expert = ffn_mats * spec.hidden * spec.expert_ffn_hidden * bpp
        moe = spec.moe_layers / spec.layers if spec.layers else 0.0
        self.experts = (spec.experts or 0) * one_expert * moe  # routed experts per layer (average)
        self.experts_active = (spec.experts_top_k or 0) * one_expert * moe
        tied = 0.0 if spec.tied_embeddings else self.output
        lm = language_params(spec, params) or 0.0  # a VL tower is no layer's share: on the GPU, not read
        self.tower = (params - lm) * bpp  # llama.cpp's mmproj on the GPU (its default, --mmproj-offload)
        body = max(0.0, lm * bpp - self.embed - tied)
        self.rest = max(0.0, body / spec.layers - self.experts) if spec.layers else 0.0
        self.kv = kv_sequence / spec.layers if spec.layers else 0.0
        self.kv_on_gpu = (
            True  # each layer's KV on its layer's device; False: --no-kv-offload (all on the CPU)
        )


def _placement(layers: int, ngl: int) -> tuple[int, bool]:
    """(repeating layers on the GPU, output layer on the GPU) for ``-ngl ngl`` (module docstring)."""
    if ngl >= layers + 1:
        return layers, True
    if ngl <= 0:
        return 0, False
    return ngl - 1, True


def _sides(sh: _Shape, ngl: int, cpu_moe: int) -> tuple[float, float, float, float, float, float]:
    """(GPU weights, GPU KV, host weights, host KV, GPU bytes read, CPU bytes read) per token."""
    on_gpu, out_gpu = _placement(sh.layers, ngl)
    first_gpu = sh.layers - on_gpu  # layers first_gpu … layers − 1 are on the GPU
    experts_cpu = max(0, min(cpu_moe, sh.layers) - first_gpu)  # GPU layers among the first cpu_moe
    gpu_w = on_gpu * (sh.rest + sh.experts) - experts_cpu * sh.experts + (sh.output if out_gpu else 0.0)
    gpu_w += sh.tower  # a VL tower (mmproj): held, not read per token
    host_w = sh.embed + first_gpu * (sh.rest + sh.experts) + experts_cpu * sh.experts
    host_w += 0.0 if out_gpu else sh.output
    gpu_kv, host_kv = (on_gpu * sh.kv, first_gpu * sh.kv) if sh.kv_on_gpu else (0.0, sh.layers * sh.kv)
    active = sh.rest + sh.experts_active if sh.experts else sh.rest
    gpu_read = on_gpu * active - experts_cpu * sh.experts_active + (sh.output if out_gpu else 0.0) + gpu_kv
    cpu_read = first_gpu * active + experts_cpu * sh.experts_active + (0.0 if out_gpu else sh.output)
    return gpu_w, gpu_kv, host_w, host_kv, gpu_read, cpu_read + host_kv


def _seconds(gpu_read: float, cpu_read: float, gpu_bw: float, host_bw: float) -> float | None:
    """Seconds per decoded token (module docstring); None without a GPU bandwidth where one is read."""
    from estimator.serving_speed import DECODE_BANDWIDTH_EFFICIENCY

    if gpu_read > 0 and gpu_bw <= 0:
        return None
    t = gpu_read / (gpu_bw * DECODE_BANDWIDTH_EFFICIENCY) if gpu_read > 0 else 0.0
    return t + cpu_read / (host_bw * CPU_BANDWIDTH_EFFICIENCY)


def layer_split(
    spec: ModelSpec,
    gpu: GpuSpec,
    inf: "Inference",
    ngl: int,
    cpu_moe: int = 0,
    *,
    gpus: int = 1,
    host_memory: float | None = None,
    host_bandwidth: float | None = None,
    kv_on_gpu: bool = True,
    host_band: tuple[float, float] | None = None,
) -> LayerSplit:
    """The split of ``spec`` served as ``inf`` sized it (weights' bytes per parameter, one sequence's KV;
    usable memory and compute buffer per GPU: llama.cpp's, :mod:`estimator.runtimes.llama_cpp`) with
    ``-ngl ngl`` and the routed experts of the first ``cpu_moe`` layers on the CPU, on ``gpus`` cards of
    ``gpu`` (llama.cpp ``-sm layer``: the layers shared out, the cards taking turns, so one card's
    bandwidth sets the pace). ``host_memory`` and ``host_bandwidth`` in bytes and bytes/s when stated;
    ``kv_on_gpu`` False: ``--no-kv-offload``, every layer's KV cache in CPU memory; ``host_band``: the
    bandwidth range of the RAM kind or channels said (estimator.host_ddr), bytes/s."""
    from estimator.runtimes import runtime_named

    sh = _Shape(spec, inf.weights_bytes / inf.bytes_per_param, inf.bytes_per_param, inf.kv_bytes_per_sequence)
    sh.kv_on_gpu = kv_on_gpu
    local = runtime_named("llama.cpp")  # KTransformers and the rest: llama.cpp's budget and compute buffer
    usable = (
        inf.usable_bytes_per_gpu if runtime_named(inf.runtime).local else local.usable_bytes(gpu)
    ) * gpus
    workspace = local.workspace_bytes(spec, gpu, 1) * gpus

    def gpu_need(n: int, moe: int = cpu_moe) -> float:
        gpu_w, gpu_kv, *_ = _sides(sh, n, moe)
        return gpu_w + gpu_kv + (workspace if gpu_w > 0 else 0.0)

    gpu_w, gpu_kv, host_w, host_kv, gpu_read, cpu_read = _sides(sh, ngl, cpu_moe)
    need = gpu_w + gpu_kv + (workspace if gpu_w > 0 else 0.0)
    fitting = [n for n in range(sh.layers + 2) if gpu_need(n) <= usable]
    server = host_memory is not None and host_memory > DESKTOP_MEMORY_MAX
    default = HOST_BANDWIDTH_SERVER if server else HOST_BANDWIDTH_RANGE
    low, high = (host_bandwidth,) * 2 if host_bandwidth else host_band or default
    bw = 0.0 if gpu.generic else (gpu.memory_bandwidth_gbps or 0.0) * 1e9  # s19: never another card's

    def speeds(n: int, moe: int = cpu_moe) -> tuple[float | None, float | None]:
        *_, g_read, c_read = _sides(sh, n, moe)
        slow, fast = _seconds(g_read, c_read, bw, low), _seconds(g_read, c_read, bw, high)
        return (1.0 / slow if slow else None), (1.0 / fast if fast else None)

    tps, best = speeds(ngl), speeds(max(fitting)) if fitting else (None, None)
    top = _sides(sh, max(fitting), cpu_moe) if fitting else None  # the largest -ngl that fits
    moe_fit = next((m for m in range(sh.layers + 1) if gpu_need(ngl, m) <= usable), None) if cpu_moe else None
    moe_tps = speeds(ngl, moe_fit) if moe_fit is not None else (None, None)
    on_gpu, out_gpu = _placement(sh.layers, ngl)
    return LayerSplit(
        layers=sh.layers, gpu_layers_stated=ngl, gpu_layers=on_gpu, output_on_gpu=out_gpu,
        kv_on_gpu=kv_on_gpu,
        cpu_moe_layers=min(cpu_moe, sh.layers) if sh.experts else 0,
        gpu_weights_bytes=gpu_w, gpu_kv_bytes=gpu_kv, gpu_workspace_bytes=workspace if gpu_w > 0 else 0.0,
        gpu_bytes=need, gpu_usable_bytes=usable,
        host_weights_bytes=host_w, host_kv_bytes=host_kv, host_bytes=host_w + host_kv,
        host_memory_bytes=host_memory, fits_gpu=need <= usable,
        fits_host=None if host_memory is None else host_w + host_kv <= host_memory,
        max_gpu_layers=max(fitting) if fitting else None,
        gpu_read_bytes=gpu_read, cpu_read_bytes=cpu_read, host_bandwidth_low=low, host_bandwidth_high=high,
        host_bandwidth_basis="unified" if gpu.unified_memory else _basis(host_bandwidth, host_band, server),
        tokens_per_s_low=tps[0], tokens_per_s_high=tps[1], max_tokens_per_s_low=best[0],
        max_tokens_per_s_high=best[1], gpu_bandwidth=bw,
        max_host_bytes=sum(top[2:4]) if top else None,
        max_gpu_read_bytes=top[4] if top else None, max_cpu_read_bytes=top[5] if top else None,
        min_cpu_moe_layers=moe_fit if sh.experts else None, min_cpu_moe_tokens_per_s_low=moe_tps[0],
        min_cpu_moe_tokens_per_s_high=moe_tps[1],
    )  # fmt: skip


def _basis(stated: float | None, band: tuple[float, float] | None, server: bool) -> str:
    """``LayerSplit.host_bandwidth_basis``: where the host bandwidth came from."""
    return "stated" if stated else "ddr" if band else "server" if server else "desktop"


def split_for(req: "SizingRequest", spec: ModelSpec, gpu: GpuSpec, inf: "Inference") -> LayerSplit | None:
    """The split of the user's request (``gpu_layers``, ``cpu_moe_layers``, ``host_memory_gib``), or
    None when every weight is on the GPUs (no -ngl below layers + 1 and no experts on the CPU) or the
    runtime is not llama.cpp-style (vLLM, SGLang … hold every weight on GPUs)."""
    from estimator.runtimes import runtime_named

    ngl = req.gpu_layers
    cpu_moe = req.cpu_moe_layers if spec.is_moe else None
    kv_cpu = req.kv_offload is False
    if ngl is None and not cpu_moe and not kv_cpu:
        return auto_split(req, spec, gpu, inf)
    if inf.runtime and not runtime_named(inf.runtime).local and not cpu_moe and not kv_cpu:
        return None  # a server named: -ngl is llama.cpp's
    ngl = spec.layers + 1 if ngl is None or ngl < 0 else ngl
    if ngl >= spec.layers + 1 and not cpu_moe and not kv_cpu:
        return None
    host = req.host_memory_gib * GIB if req.host_memory_gib else None
    bandwidth = req.host_bandwidth_gbps * 1e9 if req.host_bandwidth_gbps else None
    if gpu.unified_memory:
        host, bandwidth = unified_host(gpu, req.gpu_count or 1)
    from estimator.host_ddr import ddr_band

    return layer_split(
        spec,
        gpu,
        inf,
        ngl,
        cpu_moe or 0,
        gpus=req.gpu_count or 1,
        host_memory=host,
        host_bandwidth=bandwidth,
        kv_on_gpu=not kv_cpu,
        host_band=ddr_band(req.host_ddr, req.host_channels),  # 'DDR5 双通道': its JEDEC rates (s17 #6)
    )


def unified_host(gpu: GpuSpec, machines: int) -> tuple[float, float]:
    """(bytes, bytes/s) the CPU side of a split has on unified memory (Apple silicon, trial s21 #1): one
    pool, so only what the GPU's working set leaves — memory × (1 − ``gpu_memory_fraction``) per machine
    (Metal's ``recommendedMaxWorkingSetSize``, which llama.cpp's Metal backend logs and budgets with,
    ggml-org/llama.cpp ``ggml/src/ggml-metal/ggml-metal.m``; ``sudo sysctl iogpu.wired_limit_mb`` moves
    the line) — read at the machine's own memory bandwidth (catalog), not a DDR desktop's. The OS and
    other apps live in that same share, so this is an upper bound."""
    rest = gpu.memory_bytes * (1.0 - (gpu.gpu_memory_fraction or 1.0)) * machines
    return rest, (gpu.memory_bandwidth_gbps or 0.0) * 1e9


def auto_split(req: "SizingRequest", spec: ModelSpec, gpu: GpuSpec, inf: "Inference") -> LayerSplit | None:
    """A partial offload sized though no ``-ngl`` was said (fresh-user trial s19, issue 24 item 1): a local
    runtime (llama.cpp, Ollama, LM Studio) on the user's cards (their count, else one), host memory or a
    partial offload said, or the cards counted (a rig: "a 4090 and a 3090", s20 #1, the RAM it needs then
    said), or Ollama, which splits the layers by itself (``num_gpu``, trial s26 #19), and weights that do not
    fit those cards. The split is the largest ``-ngl`` whose
    GPU side fits (llama.cpp fills layers from the output end, module docstring), the rest in the RAM said
    (``fits_host`` checks it); None when every weight fits, for a server runtime, or when nothing was said
    of the host; None on unified memory (Apple silicon, trial s21 #1): the layers beyond the GPU's working
    set have no separate RAM to go to, so the fit is weights + KV cache + buffers within the working set
    (the normal serving fit, raised with ``sudo sysctl iogpu.wired_limit_mb``)."""
    from estimator.runtimes import runtime_named

    rig = req.gpu_count is not None and req.gpu_count_max is None  # the user's own cards, counted (s20 #1)
    own = req.gpu_count is not None and not req.count_asked  # their cards, not 'how many do I need'
    by_itself = own and bool(inf.runtime) and runtime_named(inf.runtime).offloads_by_itself  # Ollama, s26 #19
    said = req.host_memory_gib is not None or req.offload is True or rig or by_itself
    if not said or not inf.runtime or not runtime_named(inf.runtime).local or gpu.unified_memory:
        return None  # unified memory: one pool, no separate RAM to spill to (:func:`unified_host`)
    every = _user_split(req, spec, gpu, inf, spec.layers + 1)
    short = by_itself and inf.min_gpus > (req.gpu_count or 1)  # Ollama where the all-GPU sizing says no
    if (every.fits_gpu and not short) or every.max_gpu_layers is None:
        return None
    if every.fits_gpu:  # every layer on the GPU with the token embeddings in RAM, as llama.cpp keeps them
        return every.model_copy(update={"gpu_layers_chosen": True})
    chosen = _user_split(req, spec, gpu, inf, every.max_gpu_layers)
    return chosen.model_copy(update={"gpu_layers_chosen": True})


def _user_split(
    req: "SizingRequest", spec: ModelSpec, gpu: GpuSpec, inf: "Inference", ngl: int
) -> LayerSplit:
    """:func:`layer_split` at ``-ngl ngl`` with the user's cards, host memory and bandwidth (no experts on
    the CPU, the KV cache with its layers)."""
    from estimator.host_ddr import ddr_band

    return layer_split(
        spec,
        gpu,
        inf,
        ngl,
        gpus=req.gpu_count or 1,
        host_memory=req.host_memory_gib * GIB if req.host_memory_gib else None,
        host_bandwidth=req.host_bandwidth_gbps * 1e9 if req.host_bandwidth_gbps else None,
        host_band=ddr_band(req.host_ddr, req.host_channels),
    )


def with_layer_split(
    req: "SizingRequest", spec: ModelSpec, gpu: GpuSpec, served: "ServingResult"
) -> "ServingResult":
    """``served`` with the user's split (:func:`split_for`) on its inference, the verdict its own ('yes'
    when the GPU side fits and the host memory, when stated, holds the rest; else 'no'; reason
    'gpu_layers') and the decode speed that of one sequence at the low host bandwidth; unchanged when
    every weight is on the GPUs. 'borderline' (s21) when the GPU side fills more than
    :data:`estimator.plan.HEADROOM` (90 %) of the usable memory, as on every other path (an -ngl chosen
    as the most layers that fit usually does: 68.2 of 69 GiB, 98.8 %, said "fits" before)."""
    from estimator.models import DecodeSpeed
    from estimator.plan import HEADROOM

    split = split_for(req, spec, gpu, served.inference)
    if split is None:
        return served
    if split.gpu_layers_chosen and (speed := served.inference.decode_tokens_per_s) is not None:
        split = split.model_copy(update={"all_gpus_tokens_per_s": speed.per_sequence})
    if split.gpu_layers_chosen and spec.is_moe:  # s32: the experts-on-CPU layout beside it
        from estimator.moe_offload import with_experts_on_cpu

        split = with_experts_on_cpu(req, spec, gpu, served.inference, split)
    update: dict[str, object] = {"layer_split": _priced(split, served.inference)}
    if split.tokens_per_s_low:
        low = split.tokens_per_s_low
        update["decode_tokens_per_s"] = DecodeSpeed(per_sequence=low, aggregate=low, batch=1, bound="memory")
    served.inference = served.inference.model_copy(update=update)
    fits = split.fits_gpu and split.fits_host is not False
    tight = split.gpu_bytes > HEADROOM * split.gpu_usable_bytes  # the one threshold (estimator.plan)
    served.feasible = ("borderline" if tight else "yes") if fits else "no"
    served.feasible_reason = "gpu_layers"
    return served


def _priced(split: LayerSplit, inf: "Inference") -> LayerSplit:
    """``split`` with its own price per million output tokens: the price per GPU-hour (the month's cost
    ÷ its GPU-hours) ÷ (its one sequence's tokens/s × 3,600) × 10⁶, the high price at the low speed.
    Unchanged without a monthly cost or a speed."""
    from estimator.serving_speed import HOURS_PER_MONTH

    month, low, high = inf.cost_per_month, split.tokens_per_s_low, split.tokens_per_s_high
    if month is None or not low or not high:
        return split
    hours = max(1, inf.serving_gpus) * (inf.gpu_hours_per_month or HOURS_PER_MONTH)
    per_token = 1e6 / 3600.0
    return split.model_copy(
        update={
            "cost_per_million_tokens_low": month.low / hours / high * per_token,
            "cost_per_million_tokens_high": month.high / hours / low * per_token,
        }
    )
