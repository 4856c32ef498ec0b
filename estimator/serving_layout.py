"""Serving layouts: how many GPUs, in which TP × PP groups and how many replicas hold the weights and
the KV cache of a load, on a runtime (:mod:`estimator.runtimes`); the KV capacity and the memory a
load needs (pure; sizes in bytes).

Split from :mod:`estimator.inference` (which re-exports these names).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from estimator.built import alternative
from estimator.catalog import GpuSpec, ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.models import Alternative, Precision
from estimator.runtimes import NO_LOAD, VLLM, Load, ServingRuntime
from estimator.runtimes.memo import MemoRuntime
from estimator.weights import kv_bytes_per_token, kv_window, weight_bytes


def usable_bytes_per_gpu(gpu: GpuSpec, runtime: ServingRuntime = VLLM) -> float:
    """The runtime's budget per card, before its own workspace (:meth:`ServingRuntime.usable_bytes`)."""
    return runtime.usable_bytes(gpu)


def workspace_bytes(
    spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: ServingRuntime = VLLM, load: Load = NO_LOAD
) -> float:
    """What the runtime keeps on each GPU besides weights and KV cache
    (:meth:`ServingRuntime.workspace_bytes`)."""
    return runtime.workspace_bytes(spec, gpu, tp, load)


def room_per_gpu(
    spec: ModelSpec, gpu: GpuSpec, tp: int, runtime: ServingRuntime = VLLM, load: Load = NO_LOAD
) -> float:
    """Bytes per GPU for weights and KV cache: the runtime's budget less its workspace, and less the weights
    a data-parallel-attention group keeps whole on each rank (:meth:`ServingRuntime.replicated_bytes`)."""
    room = runtime.usable_bytes(gpu) - runtime.workspace_bytes(spec, gpu, tp, load)
    if runtime.dp_said:
        room -= runtime.replicated_bytes(spec, tp, load, load.pp)
    return room


def _kv_replication(spec: ModelSpec, tp: int, runtime: ServingRuntime = VLLM) -> float:
    """Copies of each token's KV cache across a TP group (:meth:`ServingRuntime.kv_replication`)."""
    return runtime.kv_replication(spec, tp)


def tp_options(spec: ModelSpec, gpu: GpuSpec, runtime: ServingRuntime = VLLM) -> list[int]:
    """Tensor-parallel sizes: powers of two dividing the attention heads, within one node. A runtime that
    splits layers over the cards (llama.cpp ``--split-mode layer``, Ollama, transformers ``device_map``)
    takes any count within the node: no head divisibility, no power of two, no expert-parallel degree."""
    if runtime.splits_layers:
        return list(range(1, gpu.gpus_per_node + 1))
    per_node, heads = gpu.gpus_per_node, spec.heads  # read once, not per TP size
    out = []  # a loop: no comprehension frame (s37)
    for t in (1, 2, 4, 8, 16):
        if t <= per_node and heads % t == 0:
            out.append(t)
    return out


def kv_capacity_tokens(
    spec: ModelSpec,
    gpu: GpuSpec,
    weights: float,
    tp: int,
    pp: int = 1,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
    kv_bytes: float = 2.0,
) -> int:
    """Tokens of KV cache one copy of the model (TP × PP GPUs) holds: the room the weights leave
    (:func:`room_per_gpu`) over the bytes per token (:func:`kv_bytes_per_token`, × the TP copies of
    :func:`_kv_replication`). vLLM allocates whole blocks of 16 tokens and logs this at start-up ("GPU
    KV cache size: N tokens"; V0: "# GPU blocks: N" × 16); SGLang logs "KV Cache is allocated.
    #tokens". 0 when the weights leave no room.

    Sliding-window layers next to full-attention ones (gpt-oss: 18 of 36 at window 128, config
    ``layer_types``; Gemma 2/3): vLLM's hybrid KV cache manager sizes them by the window, not the context
    (vllm/v1/kv_cache_interface.py ``SlidingWindowSpec.max_memory_usage_bytes``, summed per layer by
    vllm/v1/core/kv_cache_utils.py ``check_enough_kv_cache_memory``): one sequence's windows come off
    the room and the rest counts in tokens of the full-attention layers — the longest ``max_model_len``
    that starts (gpt-oss-120b, 1 × H100, 0.92: ≈ 195K tokens, so 131,072 starts as its vLLM recipe
    does)."""
    room = room_per_gpu(spec, gpu, tp, runtime, load.with_pp(pp)) * tp * pp - weights
    per_token = kv_bytes_per_token(spec, kv_bytes) * runtime.kv_replication(spec, tp)
    if spec.state_layers:  # linear-attention layers: one sequence's fixed states off the room (state_layers)
        from estimator.state_layers import state_bytes_per_sequence

        room -= state_bytes_per_sequence(spec)  # split over TP by heads, never replicated
    windowed, window = kv_window(spec)  # s45: Llama 4's chunked layers at what the runtime keeps
    layers = spec.layers - (spec.state_layers or 0)  # kv_layers: a hybrid's state layers hold no KV
    if 0 < windowed < layers:  # hybrid: the windowed layers hold one window per sequence
        per_layer = per_token / layers
        room -= per_layer * windowed * (window or 0)
        per_token = per_layer * (layers - windowed)
    if room <= 0 or per_token <= 0:
        return 0
    return runtime.whole_blocks(int(room // per_token))


def layout_for(
    need_weights: float,
    need_kv: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
) -> tuple[int, int]:
    """(tp, pp) of the fewest GPUs holding the weights plus ``need_kv``.

    TP first, within one node; pipeline stages across nodes only when one node cannot hold it.
    """
    options = tp_options(spec, gpu, runtime)
    for t in options:
        repl = runtime.kv_replication(spec, t)
        if need_weights / t + need_kv * repl / t <= room_per_gpu(spec, gpu, t, runtime, load):
            return t, 1
    t = options[-1]
    total = need_weights + need_kv * runtime.kv_replication(spec, t)
    return t, pipeline_stages(total, spec, gpu, t, runtime, load) or spec.layers


def pipeline_stages(
    total: float, spec: ModelSpec, gpu: GpuSpec, t: int, runtime: ServingRuntime = VLLM, load: Load = NO_LOAD
) -> int | None:
    """Pipeline stages of TP ``t`` (whole nodes) whose room holds ``total`` bytes: the fixed point of
    pp = ⌈total / room per stage at pp⌉, from 2 up. The room per stage shrinks as PP grows (SGLang's
    reserve is per TP × PP: estimator.runtimes.sglang), so the count is iterated until it holds, at most
    one layer per stage (``spec.layers``). None when no pipeline up to that holds it (the room runs out
    first): :func:`layout_for` then gives the layer count, which holds no sequence, and the answer says
    so (``pipeline_never_fits``)."""
    pp = 2
    while True:  # pp grows strictly and stops at the layer count: it ends
        per_stage = room_per_gpu(spec, gpu, t, runtime, load.with_pp(pp)) * t
        need = max(2, math.ceil(total / per_stage)) if per_stage > 0 else math.inf
        if need <= pp:
            return pp
        if pp >= spec.layers:
            return None
        pp = int(min(need, spec.layers))


class Layout(NamedTuple):
    """A serving layout: ``replicas`` copies of the model, each on TP × PP GPUs."""

    tp: int
    pp: int
    replicas: int

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.replicas


def sequences_per_replica(
    weights: float,
    kv_seq: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    tp: int,
    pp: int,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
) -> int:
    """Sequences of ``kv_seq`` bytes that fit next to one copy of the weights on TP × PP GPUs (the room:
    :func:`room_per_gpu` of the load on PP stages, :meth:`ServingRuntime.room`)."""
    # a MemoRuntime's kept room and copies read in place (s40, s47: no frame a candidate group; its room
    # kept across answers, estimator.search_keep.kept_runtime); else the runtime's
    memo = runtime.__class__ is MemoRuntime and spec is runtime.spec
    at = runtime._room_at if memo and gpu is runtime.gpu else None  # type: ignore[attr-defined]
    kept = at.get((pp, tp, load)) if at is not None else None
    room = (runtime.room(spec, gpu, tp, load, pp) if kept is None else kept) * tp * pp - weights
    if room <= 0 or kv_seq <= 0:
        return 0
    copies = runtime._replication.get(tp) if memo else None  # type: ignore[attr-defined]
    return int(room // (kv_seq * (runtime.kv_replication(spec, tp) if copies is None else copies)))


def serving_layout(
    weights: float,
    kv_seq: float,
    concurrency: int,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
) -> Layout:
    """Fewest GPUs for ``concurrency`` sequences (design §3.5): TP within a node, data-parallel replicas
    (vLLM/SGLang scale out with replicas), or pipeline stages across nodes when they hold the weights, or
    the load, on fewer GPUs than copies would (each copy repeats the weights: DeepSeek-R1 for 100 users at
    32K on H20 is one TP 8 × PP 2 copy on 16 GPUs, not 25 TP-8 copies). A stage never makes a token
    faster (:func:`estimator.serving_speed.decode_speed` charges its hops), so ties go to no pipeline,
    then to the larger TP group."""
    options = _serving_options(weights, kv_seq, concurrency, spec, gpu, runtime, load)
    if options:
        return Layout(*_pcie_choice(options, gpu, runtime)[1])
    tp, pp = layout_for(weights, kv_seq * concurrency, spec, gpu, runtime, load)
    return Layout(tp, pp, 1)


def _serving_options(
    weights: float,
    kv_seq: float,
    concurrency: int,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: ServingRuntime,
    load: Load,
) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """((GPUs, PP, −TP), (TP, PP, replicas)) of each TP × PP group that holds a sequence: the layouts
    :func:`serving_layout` chooses among (fewest GPUs; no pipeline; larger TP)."""
    options: list[tuple[tuple[int, int, int], tuple[int, int, int]]] = []
    for t, pp in _groups(spec, gpu, None, runtime):
        per = sequences_per_replica(weights, kv_seq, spec, gpu, t, pp, runtime, load)
        if per < 1:
            continue
        replicas = math.ceil(concurrency / per)
        options.append(((t * pp * replicas, pp, -t), (t, pp, replicas)))
    return options


PCIE_TIE = 1.25
"""On cards without NVLink, the smallest TP group whose plan takes at most this many times the fewest GPUs
is chosen (:func:`_pcie_choice`). vLLM's docs ("Parallelism and scaling": "if the model fits on a single
GPU, distributed inference is probably unnecessary"; vllm-project/vllm#294, a maintainer: "for small
models, you should just use one GPU … start multiple vLLM replicas"): each TP step's all-reduces cross
PCIe, which the fewest-GPU count does not charge beyond its ``tp_over_pcie`` note. Beyond a near tie the
larger group's KV room wins (20 req/s of Llama-3.1-8B on L4: 102 copies of one card against 32 at TP 8)
and the note says TP crosses PCIe (s20 #5)."""


def _pcie_choice(
    options: list[tuple[tuple[int, int, int], tuple[int, int, int]]], gpu: GpuSpec, runtime: ServingRuntime
) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The option of :func:`serving_layout`: the fewest GPUs, or on cards without NVLink the smallest
    TP × PP group within :data:`PCIE_TIE` of them."""
    best = min(options)
    if gpu.nvlink or runtime.splits_layers:
        return best
    near = [o for o in options if o[0][0] <= best[0][0] * PCIE_TIE]
    return min(near, key=lambda o: (o[1][0] * o[1][1], o[0]))


MAX_SERVING_PP = 4
"""Pipeline stages considered for one serving copy (whole nodes each): DeepSeek-V3/R1 in BF16 or at
long context is served as TP 8 × PP 2–4 across nodes (vLLM docs, "Distributed inference and serving":
"tensor parallel size … the number of GPUs in each node, and pipeline parallel size … the number of
nodes"); more stages only add latency."""


def _groups(
    spec: ModelSpec, gpu: GpuSpec, gpus: int | None = None, runtime: ServingRuntime = VLLM
) -> list[tuple[int, int]]:
    """(tp, pp) groups for one serving copy: every TP size within a node, then the full node's TP with
    2 … :data:`MAX_SERVING_PP` pipeline stages across nodes — a single copy over several nodes holds
    more KV cache than replicas that each repeat the weights. On a runtime that also runs one TP group
    across machines (:attr:`ServingRuntime.tp_across_nodes`, SGLang's ``--tp 16 --nnodes 2``) that group
    is a candidate too, beside the pipeline, where its size divides the attention heads: the callers'
    rule picks (fewest GPUs, then no pipeline). Only groups within ``gpus`` if given."""
    options = tp_options(spec, gpu, runtime)
    groups = [(t, 1) for t in options]
    full = options[-1]
    if full == gpu.gpus_per_node:
        across = runtime.tp_across_nodes  # SGLang: '--tp 16 --nnodes 2' beside TP 8 x PP 2 (s40 fixw2 #2)
        for pp in range(2, MAX_SERVING_PP + 1):
            if across and spec.heads % (full * pp) == 0:
                groups.append((full * pp, 1))
            groups.append((full, pp))
    return [(t, pp) for t, pp in groups if gpus is None or t * pp <= gpus]


MOST_SEQUENCES = 10**12
"""A load no layout holds: :func:`layout_on` then picks the layout holding the most sequences."""


def layout_on(
    gpus: int,
    weights: float,
    kv_seq: float,
    spec: ModelSpec,
    gpu: GpuSpec,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
    concurrency: int = 1,
) -> Layout:
    """How to use the user's ``gpus``. Among the layouts that hold ``concurrency`` sequences: no pipeline
    first, then the most replicas (throughput), then the most sequences. When none holds it: the layout
    holding the most sequences — fewer, larger groups (a pipeline across nodes included) waste less
    memory on copies of the weights. A pipeline across nodes when no group holds the weights. A runtime
    that splits layers (llama.cpp, Ollama, ExLlama, transformers) runs one process with one copy of the
    weights, its layers split over the cards (llama.cpp ``--split-mode layer``, the default, over every
    visible GPU: common/arg.cpp; Ollama schedules one model instance over the GPUs it needs:
    server/sched.go): never replicas (s51 trial #1: '两张3090用Ollama' sized 2 copies)."""
    best: tuple[tuple, Layout] | None = None
    one_copy = runtime.splits_layers
    for t, pp in _groups(spec, gpu, gpus, runtime):
        layout = Layout(t, pp, 1 if one_copy else gpus // (t * pp))
        seqs = layout.replicas * sequences_per_replica(weights, kv_seq, spec, gpu, t, pp, runtime, load)
        if seqs < 1:
            continue
        holds = seqs >= concurrency
        key = (holds, -pp, layout.replicas, seqs) if holds else (holds, seqs, layout.replicas)
        if best is None or key > best[0]:
            best = (key, layout)
    if best is not None:
        return best[1]
    tp, pp = layout_for(weights, kv_seq, spec, gpu, runtime, load)
    return Layout(tp, pp, 1 if one_copy else max(1, gpus // (tp * pp)))


def group_on(gpus: int, spec: ModelSpec, gpu: GpuSpec) -> tuple[int, int]:
    """(tp, pp) one copy of the model would use on exactly ``gpus`` cards, whether or not it fits: the
    largest TP group within them (a whole node's TP with pipeline stages across whole nodes)."""
    options = [t for t in tp_options(spec, gpu) if t <= gpus] or [1]
    t = options[-1]
    pp = gpus // t if gpus > gpu.gpus_per_node and t == max(tp_options(spec, gpu)) else 1
    return t, max(1, pp)


def max_sequences(
    spec: ModelSpec,
    gpu: GpuSpec,
    layout: Layout,
    weights: float,
    kv_seq: float,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
) -> int:
    """Sequences of one length whose KV fits next to the weights in every replica of ``layout``."""
    per = sequences_per_replica(weights, kv_seq, spec, gpu, layout.tp, layout.pp, runtime, load)
    return layout.replicas * per


def required_bytes(
    spec: ModelSpec,
    gpu: GpuSpec,
    layout: Layout,
    weights: float,
    kv_total: float,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
) -> float:
    """Memory the stated load needs on all GPUs of ``layout``, as ``nvidia-smi`` would show it without
    pre-allocation: a copy of the weights per replica, the KV cache of the load (× the TP copies of
    :func:`_kv_replication`), and on every GPU the runtime's workspace (:func:`workspace_bytes`) and
    the CUDA context (:data:`estimator.defaults.CUDA_CONTEXT_BYTES`); SGLang's workspace counted as
    the activations of vLLM's profile (:meth:`ServingRuntime.needed_workspace`), not its reserve. vLLM
    and SGLang reserve more (their whole KV pool) at start-up."""
    per_gpu = runtime.needed_workspace(spec, gpu, layout.tp, load) + CUDA_CONTEXT_BYTES.value
    if runtime.dp_said:  # DP attention: the weights each rank keeps whole (s44)
        per_gpu += runtime.replicated_bytes(spec, layout.tp, load, layout.pp)
    return (
        weights * layout.replicas + kv_total * runtime.kv_replication(spec, layout.tp) + per_gpu * layout.gpus
    )


def bytes_per_gpu_on(
    spec: ModelSpec,
    gpu: GpuSpec,
    use: Layout,
    shape: tuple[int, int],
    weights: float,
    kv_total: float,
    runtime: ServingRuntime = VLLM,
    load: Load = NO_LOAD,
    required: float | None = None,
) -> float:
    """Memory (bytes) each GPU of the user's layout needs for the stated load, as ``nvidia-smi`` would show
    it without pre-allocation: :func:`required_bytes` over the GPUs of ``use`` (``required`` when the caller
    has it: no second profile) when ``shape`` (the user's TP × PP, :func:`group_on`) is its own, else over
    one copy on ``shape`` (the user's GPUs that do not hold the load: what each of them would need; trial
    s25 #2, '每张卡显存占多少')."""
    if (use.tp, use.pp) == shape:
        whole = (
            required
            if required is not None
            else required_bytes(spec, gpu, use, weights, kv_total, runtime, load)
        )
        return whole / use.gpus
    layout = Layout(shape[0], shape[1], 1)
    return required_bytes(spec, gpu, layout, weights, kv_total, runtime, load) / layout.gpus


def lighter_weights(
    spec: ModelSpec,
    params: float,
    weights: float,
    kv_seq: float,
    concurrency: int,
    gpu: GpuSpec,
    rt: ServingRuntime,
    load: Load = NO_LOAD,
) -> list[Alternative]:
    """The fewest GPUs for the same load with FP8 and INT4 weights, where they are lighter
    (int8 weighs as much as fp8): the fewest of :func:`_serving_options`, never the PCIe preference for
    smaller TP groups that :func:`serving_layout` applies (trial s25 #6: INT4 Qwen3-32B '5' on L40S, five
    single-card copies, where bf16 ran on the user's 4; every count is TP × PP × replicas, TP dividing the
    heads (:func:`tp_options`))."""
    out = []
    for p in (Precision.fp8, Precision.int4):
        w = weight_bytes(spec, params, p)
        if w < weights:
            lighter = load._replace(precision=p)
            t, pp_ = layout_for(w, kv_seq, spec, gpu, rt, lighter._replace(batch=1))
            options = _serving_options(w, kv_seq, concurrency, spec, gpu, rt, lighter)
            if options:
                most = min(options)[0][0]
            else:  # no group holds a sequence: one copy laid out for the whole load, as serving_layout
                most = math.prod(layout_for(w, kv_seq * concurrency, spec, gpu, rt, lighter))
            fewest = max(t * pp_, most)
            out.append(alternative(str(p), fewest))  # Alternative(change=…, min_gpus=…); StrEnum: C
    return out


def most_that_fit(upper: int, held: Callable[[int], int]) -> int:
    """The most sequences, at most ``upper``, that fit with their own load: the largest n with
    ``held(n)`` ≥ n (bisection; 0 when not one). Where the workspace grows with the batch
    (transformers prefills every prompt at once), sizing at the sequences the first pass found
    leaves room for fewer."""
    lo, hi = 0, upper
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if held(mid) >= mid:
            lo = mid
        else:
            hi = mid - 1
    return lo
