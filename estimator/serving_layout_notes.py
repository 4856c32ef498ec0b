"""Warnings about the layout a serving answer runs on: tensor parallelism over PCIe, pipeline stages
across nodes, and a tensor-parallel group wider than a node, whose all-reduces cross the network between
the nodes (s41 trial #4: timed there at the inter-node link, :func:`estimator.serving_speed.cross_node_link`).
Split out of :mod:`estimator.serving` (its 500-line cap)."""

from __future__ import annotations

from estimator.catalog import GpuSpec
from estimator.ledger import Ledger
from estimator.models import Inference, SizingRequest
from estimator.runtimes import ServingRuntime
from estimator.serving_speed import ETHERNET_GBPS, NVLINK_GBPS_FALLBACK, PCIE_GBPS_FALLBACK, cross_node_link


def layout_notes(req: SizingRequest, gpu: GpuSpec, inf: Inference, runtime: ServingRuntime, never: bool,
                 ledger: Ledger) -> None:  # fmt: skip
    """``tp_over_pcie`` for TP > 1 on a card without NVLink (llama.cpp splits layers, not tensors);
    ``pipeline_never_fits`` / ``pipeline_across_nodes`` for PP > 1; else, for a TP group wider than a node,
    ``tp_group_across_nodes`` when the layout was chosen here (SGLang's '--tp 16 --nnodes 2', s40 fixw2
    #2) and ``tp_allreduce_internode`` whatever chose it: the decode and prefill times count each layer's
    all-reduces at the inter-node link (GB/s per GPU, one way), not at the in-node one —
    ``tp_allreduce_ethernet`` where that link is Ethernet (personal cards, :data:`ETHERNET_GBPS`)."""
    if not gpu.nvlink and inf.tp > 1 and not runtime.splits_layers:
        ledger.note("tp_over_pcie", gpu=gpu.family)
    if inf.min_without_dp_attention:  # DP attention: no count holds it; the fewest are plain TP's (s43 #2)
        ledger.note("dp_attention_never_fits", gpu=gpu.family, min_gpus=inf.min_gpus)
    if inf.pp > 1:  # one layer per stage (serving_layout.pipeline_stages) and still no sequence: never fits
        ledger.note("pipeline_never_fits" if never else "pipeline_across_nodes", pp=inf.pp, tp=inf.tp)
    elif inf.tp > gpu.gpus_per_node and not runtime.splits_layers:
        nodes = -(-inf.tp // gpu.gpus_per_node)
        if req.tp is None:
            ledger.note("tp_group_across_nodes", tp=inf.tp, nodes=nodes, per_node=gpu.gpus_per_node)
        link = gpu.link_gbps or (NVLINK_GBPS_FALLBACK if gpu.nvlink else PCIE_GBPS_FALLBACK)
        gbps = min(link, cross_node_link(gpu)[0])
        if gbps <= ETHERNET_GBPS:  # personal cards: 10 GbE = 1.25 GB/s, one decimal (s41 review #6)
            eth = {"gbps": round(gbps, 1), "gbit": round(gbps * 8)}
            ledger.note("tp_allreduce_ethernet", tp=inf.tp, nodes=nodes, link=round(link), **eth)
        else:
            ledger.note("tp_allreduce_internode", tp=inf.tp, nodes=nodes, gbps=round(gbps), link=round(link))
