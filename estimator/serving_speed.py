"""Serving speed and cost: decode tokens per second (roofline), prefill time, the price per million
tokens and per month (pure; speeds in tokens per second, times in seconds, prices per GPU-hour).

Split from :mod:`estimator.inference` (which re-exports these names).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from estimator import attention
from estimator.built import price_band, speed
from estimator.catalog import GpuSpec, ModelSpec
from estimator.models import Currency, DecodeSpeed, Precision, PriceBand


@dataclass(frozen=True)
class ServingEfficiency:
    """The serving engine's efficiencies (fractions 0–1): ``decode_mfu`` of the compute-bound decode
    step at large batch, ``bandwidth`` of the peak memory bandwidth a memory-bound decode step reaches,
    ``prefill_mfu`` of prefill. Passed to :func:`decode_speed` and :func:`prefill_seconds` (default
    :data:`FITTED`); :mod:`estimator.validation_serving` fits them by passing candidates."""

    decode_mfu: float
    bandwidth: float
    prefill_mfu: float


FITTED = ServingEfficiency(decode_mfu=0.675, bandwidth=0.50, prefill_mfu=0.675)
"""Fitted on MLPerf Inference v4.1 closed (Llama 2 70B and Mixtral 8x7B, Offline and Server) on the 62
rows of the fit submitters only (:mod:`estimator.validation_serving`: grid search minimising the mean
squared log ratio predicted/measured, prefill MFU tied to decode MFU). Fit rows within ×1.3: 79 %
(median error ×1.11); leave-one-submitter-out 73 % (×1.11); held-apart submitters (Dell, Lenovo,
ASUSTeK, GigaComputing, Juniper Networks; 32 rows, never fitted on): 84 % (×1.21). The previous stated
defaults (MFU 0.5, bandwidth 0.7; Pope et al. 2022 §4) gave 66 % on the same held-apart rows.
``sizing-bot validate`` recomputes every figure; ``tests/test_serving_fit.py`` checks them."""

DECODE_BANDWIDTH_EFFICIENCY = FITTED.bandwidth
"""Fraction of peak memory bandwidth a decode step reaches (:data:`FITTED`). Single-stream decode
benchmarks measure 60–80 % (vLLM, TensorRT-LLM); at MLPerf's batches the KV-cache reads, paging and
scheduling bring the whole step to 50 %."""

SINGLE_STREAM_BANDWIDTH = 0.64
"""Fraction of peak memory bandwidth one sequence's decode step reaches (batch 1: no other sequence's KV
reads, no batch scheduling): the median over the dense working rows of ``data/measured/decode_speeds.json``
(:mod:`estimator.decode_check`; each row's measured speed × 0.5 / the estimate at :data:`FITTED`:
lmdeploy Llama-2-7B on an A10 0.84, transformers 0.67, Llama-3.3-70B NVFP4 on a DGX Spark 0.65, vLLM
Llama-3.1-70B TP 2 on A100 PCIe 0.64, vLLM Qwen3-14B on an A100 0.60; median 0.64 with the two rows of
old engines below). Single-stream checks: vLLM Qwen3-4B on one RTX 4090 decodes at 95.3 tokens/s,
8.0 GB a token = 0.76 (tenstorrent/tt-inference-server#394); llama.cpp Qwen2.5-7B Q8_0 on an M2 Ultra as
fast as 76 tokens/s (ggml-org/llama.cpp PR #15616) = 0.76. Dense models only: the rows measured dense
GEMVs; a MoE's grouped expert kernels over scattered slices keep :data:`FITTED`'s share (vLLM Mixtral on
8 × T4 logged 6 tokens/s, vllm-project/vllm#2048). MLPerf's batches reach :data:`FITTED`'s 0.5
(s38 trial: Qwen2.5-7B bf16 on a 4090 was given 33 tokens/s, Llama-3.1-8B on an A100 41)."""

DECODE_MFU = FITTED.decode_mfu
"""MFU of a compute-bound decode step at large batch (:data:`FITTED`; Pope et al. 2022 reach 33–76 %
on TPU v4, §4)."""

PREFILL_MFU = FITTED.prefill_mfu
"""MFU of prefill (compute-bound GEMMs; :data:`FITTED`, tied to the decode MFU)."""

ALLREDUCE_LATENCY_S = 10e-6
"""Fixed cost of one small all-reduce inside a node, seconds: NCCL's ring/tree all-reduce of a few
KB over NVLink or PCIe takes ≈ 5–20 µs (nccl-tests ``all_reduce_perf`` at 8 B–64 KB on DGX H100 and
PCIe boxes); 10 µs is a stated middle value."""

LINK_EFFICIENCY = 0.7
"""Share of the link's one-way bandwidth an all-reduce of decode activations reaches (NCCL bus
bandwidth ≈ 70–80 % of the link at MB-sized messages, nccl-tests ``busbw``). Stated default."""

PCIE_GBPS_FALLBACK = 32.0
"""One-way GB/s assumed for a card whose catalog entry names no ``link_gbps`` and no NVLink: PCIe Gen4
x16 (64 GB/s bidirectional, PCI-SIG 4.0 spec)."""

NVLINK_GBPS_FALLBACK = 300.0
"""One-way GB/s assumed for an NVLink/Infinity Fabric card with no ``link_gbps``: NVLink 3 (A100
datasheet: 600 GB/s bidirectional)."""


SUSTAINED_TFLOPS_16BIT: dict[str, tuple[float, str]] = {
    "L4": (59.4, "zzc0721/torch-performance-test-data#120 (BF16 8192²: 59.40 TFLOPS)"),
    "T4": (24.0, "forums.developer.nvidia.com t/264462 (cuBLAS FP16 4096²: ≈ 24 TFLOPS, 70 W)"),
}
"""Dense 16-bit TFLOPS a power-limited card sustains in a large matmul, with its source, by catalog id.
L4: torch BF16 matmuls logged at 54.91 (4096²), 59.40 (8192²) and 56.90 TFLOPS (10240²) (zzc0721/
torch-performance-test-data issue #120, 2026-01-12); T4: cuBLAS FP16 4096² ≈ 24 TFLOPS, "arising due to
power capping ... about 70W" (NVIDIA developer forum 'About GPU peak performance', t/264462). Their
datasheets quote the tensor peak at the boost clock (121 and 65 TFLOPS),
which a continuous GEMM does not hold under the board's power limit (the T4 thread: "expected behavior
for approximately continuous matrix multiply operations"). Cards without a logged figure keep the
datasheet peak (the A10, 150 W: no sustained GEMM figure found; the A10G's 69.5 TFLOPS BF16 logged in
zzc0721/torch-performance-test-data#126 is its catalog peak, 70)."""


def power_capped_mfu(gpu: GpuSpec, mfu: float) -> float:
    """``mfu`` capped at the share of the datasheet's 16-bit peak the card sustains in a large matmul
    (:data:`SUSTAINED_TFLOPS_16BIT`): no engine's GEMMs run faster than a bare cuBLAS GEMM. L4:
    min(0.675, 59.4 / 121 = 0.491); other cards ``mfu`` unchanged."""
    sustained = SUSTAINED_TFLOPS_16BIT.get(gpu.id)
    if sustained is None or not gpu.peak_flops_16bit:
        return mfu
    return min(mfu, sustained[0] * 1e12 / gpu.peak_flops_16bit)


INTERSTAGE_GBPS = 50.0
"""One-way GB/s between two pipeline stages on different nodes: one 400 Gb/s InfiniBand NDR /
ConnectX-7 port per GPU (NVIDIA DGX H100 user guide: 8 × 400 Gb/s compute ports per node)."""

INTERSTAGE_LATENCY_S = 20e-6
"""Fixed cost of one point-to-point send between nodes, seconds (NCCL send/recv over InfiniBand
≈ 10–30 µs at small messages, nccl-tests ``sendrecv_perf``); a stated middle value."""


ETHERNET_GBPS = 1.25
"""One-way GB/s between two pipeline stages on nodes of personal cards (GeForce, a Mac …: no InfiniBand
or RoCE adapter): 10 Gb Ethernet, NCCL's socket transport (s37 fixb #2). vLLM's docs on multi-node
serving: TP = the GPUs of a node, PP = the nodes, and TP across nodes only with a fast network such as
InfiniBand — so the hops between nodes are the pipeline's, on this link."""

ETHERNET_LATENCY_S = 50e-6
"""Fixed cost of one point-to-point send between nodes over Ethernet, seconds: TCP's one-way latency on
10 GbE (≈ 20–50 µs through the kernel stack) with NCCL's socket proxy; a stated value, 2.5× the
InfiniBand one (:data:`INTERSTAGE_LATENCY_S`)."""


def interstage_seconds(spec: ModelSpec, pp: int, batch: int, ethernet: bool = False) -> float:
    """Pipeline hops of one decode step, seconds: each token's activations, batch × hidden × 2 bytes
    (16-bit), cross the pp − 1 stage boundaries one after another (vLLM pipeline parallelism sends the
    hidden states stage to stage): (pp − 1) × (:data:`INTERSTAGE_LATENCY_S` + bytes / (
    :data:`INTERSTAGE_GBPS` × :data:`LINK_EFFICIENCY`)). 0 for PP 1. Llama 3.1 405B, batch 200, PP 2:
    20 µs + 6.55 MB / 35 GB/s = 0.21 ms. Nodes of personal cards (``ethernet``) hop over
    :data:`ETHERNET_GBPS` at :data:`ETHERNET_LATENCY_S` (s37 fixb #2)."""
    if pp <= 1:
        return 0.0
    volume = batch * spec.hidden * 2.0
    if ethernet:
        return (pp - 1) * (ETHERNET_LATENCY_S + volume / (ETHERNET_GBPS * 1e9 * LINK_EFFICIENCY))
    return (pp - 1) * (INTERSTAGE_LATENCY_S + volume / (INTERSTAGE_GBPS * 1e9 * LINK_EFFICIENCY))


LAYER_LATENCY_S = 40e-6
"""Fixed time of one decoder layer in a decode step, seconds, whatever the bytes it reads: its
kernels' launch and tail (a layer runs ≈ 10–20 kernels: norms, QKV, rotary, attention, output, MLP;
≈ 2–5 µs each under CUDA graphs, more in eager mode) — what a bandwidth-only step leaves out. Fitted
with :data:`MOE_LAYER_LATENCY_S` on the working two thirds of ``data/measured/decode_speeds.json``
(:mod:`estimator.decode_check`)."""

MOE_LAYER_LATENCY_S = 350e-6
"""Extra fixed time of one MoE layer in a decode step, seconds: the router GEMM, top-k, the token
sort/align before the grouped GEMMs, the expert dispatch and combine (EP all-to-all or TP reduce) and
the small grouped GEMMs over the chosen experts' slices, which run far below the card's bandwidth at a
batch of a few tokens. Fitted with :data:`LAYER_LATENCY_S` (same rows)."""


LLAMA_CPP_MOE_LAYER_S = 70e-6
"""Extra fixed time of one MoE layer in a llama.cpp decode step on a CUDA card, seconds. At one token
llama.cpp's MoE block (``build_moe_ffn``, src/llama-graph.cpp) runs about 17 small kernels more than a
dense layer — the router matmul, soft-max, top-k argsort, get_rows of the weights, their sum and
division, one ``mul_mat_id`` each for gate, up and down (each reads only the chosen experts' rows), the
GLU, the weighting and 7 adds that sum the 8 experts — replayed from one CUDA graph at ≈ 4 µs a kernel
(launch and tail): ≈ 70 µs. Logged: Qwen3-30B-A3B Q4_K_M (48 MoE layers) decodes at 196 tokens/s on one
RTX 4090 (runaihome.com, 'Qwen3-30B-A3B Local AI Guide: 196 tok/s on One RTX 4090', 2026) and 166.9 on a
3090 Ti (smeltcore.com recipe 'Qwen3-30B-A3B on RTX 3090 Ti', 2026-06-27): 5.1 and 6.0 ms a token,
48 × (40 + 70) µs = 5.3 ms between them, where the server engines' :data:`MOE_LAYER_LATENCY_S` (fitted on
DeepSeek-R1 over 8–16 GPUs, whose MoE layers also dispatch across cards) gave 18.7 ms, 53 tokens/s
(s38 trial)."""

METAL_MOE_LAYER_S = 230e-6
"""Extra fixed time of one MoE layer in a llama.cpp decode step on Apple silicon (Metal), seconds: the
same kernels as :data:`LLAMA_CPP_MOE_LAYER_S`, encoded into Metal command buffers (no CUDA graphs).
Logged: Qwen3-30B-A3B Q8_0 decodes at 76.31 tokens/s on an M2 Ultra (``llama-bench`` tg128,
ggml-org/llama.cpp PR #15616, G. Gerganov, 2025-08-27), 13.1 ms a token, while its 3.5 GB of active
weights read in ≈ 5.8 ms at the 76 % of 800 GB/s that a dense 7B Q8_0 reaches on the same machine (the PR:
"equally fast" as Qwen2.5-Coder-7B): 13.1 ms / 48 layers − 40 µs ≈ 230 µs."""


SERVER_MOE_ONE_GPU_S = 160e-6
"""Extra fixed time of one MoE layer in a server engine's decode step when the whole model is on one GPU
(no expert dispatch or reduce across cards), seconds: the router, top-k, the sort/align and the small
grouped GEMMs only. Logged: vLLM Qwen3-30B-A3B bf16 on one A100 80GB decodes one sequence at a TPOT of
9.6 ms (103.9 tokens/s, ISL 128 OSL 128, concurrency 1: tenstorrent/tt-inference-server#340, the GPU
reference sweep; the row ``tt340-qwen3-30b-a3b-a100`` of data/measured/decode_speeds.json), where its
3.3 B active bf16 weights read in ≈ 6.5 ms at the MoE bandwidth share: the floor sets the step, so
9.6 ms / 48 layers − 40 µs = 160 µs. :data:`MOE_LAYER_LATENCY_S` (350 µs) was fitted on DeepSeek-R1 over
8–16 GPUs, whose MoE layers also dispatch across cards: it gave this single-GPU run 48 × 390 µs = 18.7 ms,
53 tokens/s, half the measured speed (s39 trial #4). Cross-check: SGLang Qwen3-30B-A3B on one H20 at
137 tokens/s (vllm-project/vllm-ascend#4656), 7.3 ms a token, against this floor's 48 × 200 µs = 9.6 ms
(104 tokens/s: 0.76 of it, inside DECODE_SPREAD); vLLM 0.8.5's AWQ MoE path on a 4090 was reported at
"30-odd" tokens/s (vllm-project/vllm#17951, an early release's kernels, left as an outlier)."""


def step_floor_parts(local: bool, unified: bool, one_gpu: bool = False) -> tuple[float, float]:
    """(fixed time of every layer, extra fixed time of every MoE layer), seconds, for the engine that
    decodes: llama.cpp and the runtimes built on it (``local``) on a CUDA card
    (:data:`LLAMA_CPP_MOE_LAYER_S`) or on unified memory, Metal (:data:`METAL_MOE_LAYER_S`); the server
    engines (vLLM, SGLang …) :data:`MOE_LAYER_LATENCY_S` across GPUs, :data:`SERVER_MOE_ONE_GPU_S` with the
    model on ``one_gpu``. Every layer :data:`LAYER_LATENCY_S`."""
    if local:
        return LAYER_LATENCY_S, METAL_MOE_LAYER_S if unified else LLAMA_CPP_MOE_LAYER_S
    return LAYER_LATENCY_S, SERVER_MOE_ONE_GPU_S if one_gpu else MOE_LAYER_LATENCY_S


DECODE_SPREAD = 1.32
"""How far a logged run's decode speed lies from the estimate, as a factor: exp of the median
|log(predicted / measured)| over the working rows of ``data/measured/decode_speeds.json`` (15 rows,
each with its GitHub thread; the held-out third left out), 1.32 since s41 fixserve timed a TP group
wider than a node at the inter-node link (:func:`cross_node_link`: the three DeepSeek-R1 runs on 2 × 8
H100 moved 0.965 / 2.196 / 1.391 → 0.915 / 2.082 / 1.319, the last the median row); 1.39 at s36 fixd's
constants (:func:`estimator.decode_check.summary`, second value; ``tests/test_s36_fixg.py`` recomputes
it). Half the logged runs decoded inside per_sequence ÷ 1.32 … × 1.32: the band the reply gives
(``DecodeSpeed.per_sequence_low`` / ``per_sequence_high``) and its price per million tokens."""


def fixed_seconds(
    spec: ModelSpec, parts: tuple[float, float] = (LAYER_LATENCY_S, MOE_LAYER_LATENCY_S)
) -> float:
    """The step's fixed latency: every layer ``parts[0]`` (:data:`LAYER_LATENCY_S`), every MoE layer (all
    but the ``dense_layers`` first of a model with experts) ``parts[1]`` more (the engine's:
    :func:`step_floor_parts`; default the server engines' :data:`MOE_LAYER_LATENCY_S`)."""
    moe_layers = spec.layers - (spec.dense_layers or 0) if spec.experts else 0
    return spec.layers * parts[0] + moe_layers * parts[1]


HOURS_PER_MONTH = 730.0
"""Average hours in a month (8,760 / 12)."""


FP4_FORMATS = frozenset({Precision.mxfp4, Precision.nvfp4})
"""4-bit floating-point weights (MXFP4, NVFP4): the card's FP4 tensor peak where it has one (Blackwell)."""


def compute_peak(gpu: GpuSpec, precision: Precision | None) -> float:
    """Dense tensor peak in FLOP/s that the weights' ``precision`` runs at on ``gpu``: FP8 weights use
    the FP8 peak on cards with FP8 tensor cores (Hopper, Ada, Blackwell, MI300X: W8A8 as TensorRT-LLM
    and vLLM run them); FP4 formats the FP4 peak where the card has one (B200/GB200), else 16-bit
    (W4A16: vLLM's Marlin MXFP4 kernels on Hopper); everything else (and cards without the format,
    which dequantize to 16-bit: W8A16 on A100) the 16-bit peak. Peaks from the catalog's datasheets."""
    base = gpu.peak_flops_16bit
    if precision in FP4_FORMATS and gpu.peak_tflops_fp4:
        return gpu.peak_tflops_fp4 * 1e12
    if precision is Precision.fp8 and gpu.peak_tflops_fp8:
        return gpu.peak_tflops_fp8 * 1e12
    return base


def allreduce_seconds(spec: ModelSpec, gpu: GpuSpec, tp: int, batch: int) -> float:
    """Tensor-parallel communication of one decode step, seconds (Megatron-LM, Shoeybi et al. 2019
    §3: two all-reduces per layer, after attention and after the MLP). Each all-reduces the batch's
    activations, batch × hidden × 2 bytes (16-bit); a ring all-reduce moves 2·(TP−1)/TP of it through
    each GPU's link: per all-reduce :data:`ALLREDUCE_LATENCY_S` + 2·(TP−1)/TP · bytes / (link ×
    :data:`LINK_EFFICIENCY`). 0 for TP 1. Llama-2-70B, batch 256 on 8 × L40S (PCIe Gen4, 32 GB/s):
    160 × (10 µs + 1.75 × 4.19 MB / 22.4 GB/s) = 54 ms per step. The link: one way per GPU, the
    catalog's ``link_gbps`` (NVLink/Infinity Fabric, else PCIe), else :data:`NVLINK_GBPS_FALLBACK` or
    :data:`PCIE_GBPS_FALLBACK` (inline: prefill calls this once a layout, s39). A TP group wider than a
    node (SGLang ``--tp 16 --nnodes 2``) all-reduces across nodes: the ring crosses the inter-node
    network, so its link is :func:`cross_node_link` (s41 trial #4)."""
    if tp <= 1:
        return 0.0
    volume = 2.0 * (tp - 1) / tp * batch * spec.hidden * 2.0
    link = (gpu.link_gbps or (NVLINK_GBPS_FALLBACK if gpu.nvlink else PCIE_GBPS_FALLBACK)) * 1e9
    latency = ALLREDUCE_LATENCY_S
    if tp > gpu.gpus_per_node:
        gbps, latency = cross_node_link(gpu)
        link = min(link, gbps * 1e9)
    return 2 * spec.layers * (latency + volume / (link * LINK_EFFICIENCY))


def cross_node_link(gpu: GpuSpec) -> tuple[float, float]:
    """(one-way GB/s per GPU, seconds per all-reduce) of a tensor-parallel ring that spans nodes: the
    NCCL ring leaves each node through its NICs, one a GPU, so its bus bandwidth is the NIC's, not
    NVLink's (nccl-tests ``all_reduce_perf`` busbw on 2 × DGX H100 ≈ the 400 Gb/s port per GPU), and each
    all-reduce pays an inter-node hop. Datacenter cards: :func:`estimator.scale_floor.nic_gbps` (HDR
    200 Gb/s on Ampere, NDR 400 Gb/s on Hopper and newer, the DGX user guides) and
    :data:`INTERSTAGE_LATENCY_S`; personal cards: 10 Gb Ethernet (:data:`ETHERNET_GBPS`,
    :data:`ETHERNET_LATENCY_S`). SGLang's multi-node docs run TP 16 over two 8-GPU nodes this way
    (``--tp 16 --nnodes 2 --dist-init-addr``)."""
    from estimator.scale_floor import nic_gbps  # inline: only a TP group wider than a node pays it

    gbps = nic_gbps(gpu)
    return gbps, ETHERNET_LATENCY_S if gbps <= ETHERNET_GBPS else INTERSTAGE_LATENCY_S


def experts_read(spec: ModelSpec, params: float, active: float, batch: int, pp: int = 1) -> float:
    """Parameters a decode round reads of a MoE of ``params`` total and ``active`` per token, at ``batch``
    sequences over ``pp`` pipeline stages (:func:`decode_speed`'s docstring gives the touch formula). Each
    stage routes the tokens of its own micro-batch, B ÷ ``pp`` (vLLM runs ``pp`` micro-batches at once: V1's
    ``EngineCore`` keeps a ``batch_queue`` of ``max_concurrent_batches`` scheduled batches, which the
    multiprocess executor sets to ``pipeline_parallel_size`` — vllm/v1/engine/core.py,
    vllm/v1/executor/multiproc_executor.py, v0.9–v0.11; V0 ran one virtual engine per stage), and
    reads the experts they touch once per micro-batch, so a round reads total − (total − active) ×
    (1 − k/E)^(B/pp − 1); without expert counts min(total, B/pp · active). s46 fixrev #6: before, the whole
    batch's touch, as if one stage saw every sequence at once (s45 review #8)."""
    k, e = spec.experts_top_k or 0, spec.experts or 0
    q = 1.0 - k / e if 0 < k < e else 0.0  # an expert no token of the micro-batch routes to: q^(B/pp)
    micro = max(1.0, batch / max(1, pp))
    return params - (params - active) * q ** (micro - 1) if q else min(params, micro * active)


def decode_speed(
    spec: ModelSpec,
    params: float,
    active: float,
    gpu: GpuSpec,
    tp: int,
    bpp: float,
    kv_seq: float,
    batch: int,
    precision: Precision | None = None,
    *,
    comm: bool = False,
    eff: ServingEfficiency = FITTED,
    pp: int = 1,
    fixed: bool | tuple[float, float] = False,
) -> DecodeSpeed | None:
    """Tokens/s of decoding ``batch`` sequences on a TP group × ``pp`` pipeline stages.

    A token passes the pipeline stages one after another, so a step's time is that of one TP group
    reading all the weights: (weights read + the batch's KV cache) / (TP × bandwidth × ``eff.bandwidth``;
    one sequence at :data:`FITTED`: :data:`SINGLE_STREAM_BANDWIDTH`),
    or 2·N_active·batch FLOPs at ``eff.decode_mfu`` of TP × the dense peak — whichever is slower
    (roofline; Pope et al. 2022; efficiencies :data:`FITTED`). MoE reads only the experts the batch
    touches: with each token routed to k of E experts independently, an expert is read unless all B
    tokens pass it by, probability (1 − k/E)^B, so the routed weights read are R·(1 − (1 − k/E)^B), and with
    R = (total − active) ÷ (1 − k/E) (active = shared + R·k/E) the step reads total − (total − active) ×
    (1 − k/E)^(B−1): ``active`` at one token, all at a large batch (s45 fixserve #5; before, min(1,
    B·active/total): Qwen3-30B-A3B at 9 sequences read 97 % of its weights for the 47 % its 9 × 8 routes
    of 128 experts touch). Without its expert counts a model keeps min(total, B·active). With ``pp``
    micro-batches in flight (vLLM runs ``pipeline_parallel_size`` batches at once to fill the pipeline:
    vllm-project/vllm vllm/config/vllm.py
    ``max_concurrent_batches``, "PP requires PP-size concurrent batches", and the V1 engine core's batch
    queue, vllm/v1/engine/core.py ``step_with_batch_queue``), each stage reads its weights once per
    micro-batch, so a round (every sequence one token) still reads all the weights on one TP group's
    bandwidth, but each stage reads the KV cache of its own layers only, for the batch ÷ ``pp`` in its
    micro-batch, while the other stages read theirs: the KV term is ÷ ``pp``, as for ``pp`` replicas of
    the TP group (trial s28 H5: 70B TP 8 × PP 3 at 500 sequences was timed at 4,164 tokens/s, a third of
    three TP-8 copies on the same 24 GPUs). The compute spreads over the stages working at once
    (÷ ``pp``), and the hops between stages add their time (:func:`interstage_seconds`); a MoE stage
    reads the experts of its micro-batch (:func:`experts_read`).
    Aggregate = batch / step.
    The compute peak is the weights' ``precision``'s own (:func:`compute_peak`); ``comm`` adds the
    tensor-parallel all-reduces of the step (:func:`allreduce_seconds`), which do not overlap it;
    ``fixed`` sets a floor under the step (True: the server engines' parts; a pair: the engine's own,
    :func:`step_floor_parts`): the layers' fixed latencies (:func:`fixed_seconds`: launches,
    MoE routing and dispatch), which set the pace where they exceed the weight reads (a large MoE at a
    batch of a few tokens) and hide under them otherwise (the MLPerf-fitted bandwidth already holds
    a large batch's overheads).
    A VL release's tower is not read at decode (no images are read: estimator.vision.language_params).
    """
    one = batch == 1 and eff is FITTED and not spec.experts  # one sequence of a dense model
    share = SINGLE_STREAM_BANDWIDTH if one else eff.bandwidth
    bw = (gpu.memory_bandwidth_gbps or 0) * 1e9 * share * tp
    if bw <= 0:
        return None
    if spec.vision is not None:  # a VL tower is loaded, not read per token (vision.language_params, inline)
        params -= spec.vision.params
    active = min(active, params)
    read = experts_read(spec, params, active, batch, pp) if active < params else params  # a MoE's (s45)
    t_mem = (read * bpp + kv_seq * batch / max(1, pp)) / bw  # a stage reads its layers' KV
    t_compute = 2.0 * active * batch / (compute_peak(gpu, precision) * eff.decode_mfu * tp * max(1, pp))
    floor = 0.0  # a step is never shorter than its kernels' fixed times (fixed_seconds, inline: no call)
    if fixed:
        layer_s, moe_s = fixed if isinstance(fixed, tuple) else (LAYER_LATENCY_S, MOE_LAYER_LATENCY_S)
        moe = spec.layers - (spec.dense_layers or 0) if spec.experts else 0
        floor = spec.layers * layer_s + moe * moe_s
    step = max(t_mem, t_compute, floor) + (allreduce_seconds(spec, gpu, tp, batch) if comm else 0.0)
    step += interstage_seconds(spec, pp, batch, gpu.personal) if pp > 1 else 0.0
    return speed(  # DecodeSpeed(...), built without validating again
        per_sequence=1.0 / step,
        aggregate=batch / step,
        batch=batch,
        bound="memory" if t_mem >= t_compute else "compute",
        low=1.0 / (step * DECODE_SPREAD),
        high=DECODE_SPREAD / step,
        floor_ms=floor * 1000.0 if floor > t_mem and floor > t_compute else None,
    )


def prefill_seconds(
    active: float,
    prompt_tokens: int,
    gpu: GpuSpec,
    gpus: int,
    spec: ModelSpec | None = None,
    precision: Precision | None = None,
    eff: ServingEfficiency = FITTED,
    allreduce: float | None = None,
) -> float:
    """Prefill of one prompt ≈ time to first token: (2·N_active + the causal attention of one forward
    pass per token at this prompt length, :func:`estimator.attention.flops_per_token` with one pass)
    × tokens / (peak × ``eff.prefill_mfu`` × GPUs; :data:`FITTED`, capped on a power-limited card at
    its sustained matmul rate: :func:`power_capped_mfu`), plus the tensor-parallel all-reduces, which
    do not overlap the matmuls (vLLM and SGLang run them between a layer's GEMMs): two a layer of
    prompt × hidden × 2 bytes (:func:`allreduce_seconds` with the prompt as the batch; Megatron-LM,
    Shoeybi et al. 2019 §3; ``allreduce`` when the caller has them, 0 without a shape). On TP 8 they
    are a third of a 4K prompt's prefill of Llama-3-70B on H100 (s39 fixs #1: the MFU it implied was
    the fitted 67.5 % whatever the TP). The MLPerf throughput model (:mod:`estimator.validation_serving`)
    passes ``allreduce=0``: it was fitted without them, and with them its refit moves (0.700 / 0.60; fit
    rows within ×1.3 79 → 74 %, held-apart 84 → 88 %, PCIe systems under-predicted ×0.6–0.8).
    The attention term matters at long prompts: at 96K tokens it is several times the weight matmuls
    of a 37B-active MoE (Kaplan et al. 2020 Table 1, forward row). The weight matmuls run at the
    weights' ``precision``'s peak (:func:`compute_peak`: FP8 only for FP8 weights); the attention
    matmuls at the 16-bit peak whatever the weights — Q·Kᵀ and P·V multiply activations and the KV
    cache, bf16 by default in vLLM and SGLang (FlashAttention-2/3 and FlashMLA prefill kernels; FP8
    attention needs an FP8 KV cache, Shah et al. 2024 "FlashAttention-3" §3.3). Timing them at the FP8
    peak halved DeepSeek-V3's time to first token at 128K (trial report s10 A6)."""
    linear = 2.0 * active * prompt_tokens / compute_peak(gpu, precision)
    attn = comm = 0.0
    if spec is not None:
        per_token = attention.flops_per_token(attention.shape_of(spec), prompt_tokens, passes=1.0)
        attn = per_token * prompt_tokens / gpu.peak_flops_16bit
        comm = allreduce_seconds(spec, gpu, gpus, prompt_tokens) if allreduce is None else allreduce
    mfu, sustained = eff.prefill_mfu, SUSTAINED_TFLOPS_16BIT.get(gpu.id)  # power_capped_mfu, inline
    if sustained is not None:
        mfu = min(mfu, sustained[0] * 1e12 / gpu.peak_flops_16bit)
    return (linear + attn) / (mfu * gpus) + comm


def priced_speed(
    speed: DecodeSpeed | None, priced: int, decode: Callable[[int], DecodeSpeed | None]
) -> DecodeSpeed | None:
    """The decode speed the price per million tokens is computed at: ``speed`` when it is already at
    ``priced`` sequences, else ``decode(priced)`` — the GPUs at the load they hold. A GPU is rented by the
    hour whatever its load, so the price per token falls as the batch grows (decode reads the weights
    once per step for the whole batch: Pope et al. 2022); quoting it at a light assumed load overstates
    it several times."""
    if speed is None or speed.batch == priced:
        return speed
    return decode(priced)


def serving_cost(
    gpus: int, speed: DecodeSpeed | None, price: tuple[float, float, Currency] | None
) -> tuple[PriceBand | None, PriceBand | None]:
    """(per million output tokens at full load, per month) for ``gpus`` rented at ``price`` per GPU-hour:
    month = GPUs × 730 h × price; per million = GPUs × price / (aggregate tokens/s × 3600) × 10⁶."""
    if not price:
        return None, None
    low, high, cur = price
    month = price_band(low=gpus * HOURS_PER_MONTH * low, high=gpus * HOURS_PER_MONTH * high, currency=cur)
    if not speed:
        return None, month
    tokens_per_hour = speed.aggregate * 3600.0
    per_million = price_band(
        low=gpus * low / tokens_per_hour * 1e6, high=gpus * high / tokens_per_hour * 1e6, currency=cur
    )
    return per_million, month
