"""Keyed wording of the training plan: recompute modes, why a layout was chosen (one sentence per layout
shape, docs/design.md §3.5), offload and expert parallelism. msgids (English) marked with N_ for
extraction; translated at render time. Moved out of :mod:`bot.render.wording` (session 17, no behaviour
change)."""

from __future__ import annotations

from bot.render.i18n import N_

RECOMPUTE: dict[str, str] = {
    "none": N_("no recompute"),
    "selective": N_("selective recompute"),
    "full": N_("full recompute"),
}
FULL_RECOMPUTE_COST = N_("≈ 1/3 more compute to save memory")
"""Full recompute in a headline, said as what it costs: the forward pass runs twice, so training
compute grows from 6·N·D to 8·N·D, one third more (Chen et al. 2016; Korthikanti et al. 2022 §4)."""
ADAPTER_RECOMPUTE_COST = N_("≈ 1/2 more compute to save memory")
"""The same for LoRA / QLoRA: a frozen base has no weight gradients (4·N·D), so the second forward pass
(2·N·D) is half as much again — the (k + 2) / k = 1.5 the time charges (estimator.training_plan
.recompute_time; s35 fixb #2: the LoRA row said 1/3)."""

PLAN_REASONS: dict[str, str] = {
    # one sentence per layout shape, from the design's rules (§3.5) and estimator.memory.plan_preference
    "single": N_("it fits on one GPU, no parallelism needed"),
    "ddp": N_("each GPU holds all model states: plain data parallelism, the least communication"),
    "ddp_adapter_pcie": N_(
        "plain data parallelism: each GPU keeps the whole frozen base and only the adapters' gradients are "
        "all-reduced; ZeRO-3 would all-gather the whole base over PCIe (no NVLink) before every forward and "
        "backward pass"
    ),
    "zero": N_(
        "the model states fit with ZeRO-%(zero)s over data parallelism (DP %(dp)s): the least communication"
    ),
    "zero3": N_(
        "ZeRO-3/FSDP shards weights, gradients and optimizer states over all GPUs: the simple alternative "
        "to TP + PP"
    ),
    "zero3_no_nvlink": N_(
        "no NVLink, so ZeRO-3/FSDP shards weights, gradients and optimizer states instead of tensor "
        "parallelism"
    ),
    "tp": N_("TP %(tp)s splits every layer over the fast links inside one node (NVLink/HCCS)"),
    "tp_dp": N_("TP %(tp)s inside each node (NVLink/HCCS), data parallelism (ZeRO-%(zero)s) across the rest"),
    "tp_no_nvlink": N_(
        "no NVLink, so ZeRO comes before TP; TP %(tp)s is still needed to split the activations"
    ),
    "tp_no_nvlink_over": N_(
        "no NVLink, so ZeRO comes before TP; TP %(tp)s is still needed: the %(part)s alone (%(size)s) are "
        "more than one GPU's %(usable)s"
    ),
    "tp_no_nvlink_part": N_(
        "no NVLink, so ZeRO comes before TP; TP %(tp)s is still needed to split the %(part)s, the largest "
        "part of the memory"
    ),
    "tp_no_nvlink_unsharded": N_(
        "no NVLink, so ZeRO comes before TP; TP %(tp)s is still needed to split the %(part)s, which ZeRO-3 "
        "does not shard"
    ),
    "pp": N_(
        "PP %(pp)s splits the layers into pipeline stages, which exchange little data and work across nodes"
    ),
    "tp_pp": N_("TP %(tp)s stays inside a node (NVLink/HCCS); PP %(pp)s splits the layers across nodes"),
    "tp_pp_one_node": N_(
        "TP %(tp)s × PP %(pp)s, all inside one node (NVLink/HCCS): TP splits every layer, PP splits the "
        "layers into pipeline stages"
    ),
    "pp_one_node": N_("PP %(pp)s splits the layers into pipeline stages inside one node (NVLink/HCCS)"),
    "tp_pp_nodes_no_nvlink": N_(
        "TP %(tp)s inside each machine (over PCIe: no NVLink), PP %(pp)s splits the layers across machines"
    ),
    "pp_no_nvlink": N_(
        "no NVLink, so PP %(pp)s splits the layers into pipeline stages, which pass little data over PCIe"
    ),
    "tp_pp_no_nvlink": N_(
        "no NVLink, so PP %(pp)s splits the layers into stages that pass little data over PCIe; TP %(tp)s "
        "still splits each layer to fit"
    ),
    "offload": N_("optimizer states are offloaded to CPU memory: fewer GPUs, slower steps"),
    "offload_params": N_(
        "FSDP offloads the parameters to CPU memory (your CPU offload): each GPU holds only the layer being "
        "computed, the sharded base and the adapters' states stay in host RAM; slower steps"
    ),
}
CPU_OFFLOAD = N_("CPU offload")
FULL_RECOMPUTE_REASON = N_("; full recompute, because the activations do not fit otherwise")
STATED_RECOMPUTE_REASON = N_("; full recompute, as you chose")
EP_REASON = N_(
    "; EP %(ep)s splits every MoE layer's experts, with their gradients and optimizer states, over %(ep)s "
    "GPUs, and an all-to-all sends each token to its experts and back (twice per MoE layer forward, "
    "twice backward) instead of ZeRO-3 gathering every expert's weights"
)
EP_ACROSS_NODES_REASON = N_(
    "; the all-to-all crosses nodes (InfiniBand): overlap it with computation, as DeepSeek-V3 did "
    "(§3.2: about 1:1 computation to communication)"
)
