"""Facts about a report the sections share: GPU and model names, the stage, unified memory."""

from __future__ import annotations

from collections import Counter

from bot.render.fmt import Fmt
from estimator import catalog  # loaded with GpuSpec's module below: no start-up cost
from estimator.catalog import GpuSpec
from estimator.models import Method, SizingReport, Stage

DEFAULT_PER_NODE: int = GpuSpec.model_fields["gpus_per_node"].default
"""GPUs in a node for a report that carries no card (built by hand): the catalog schema's default (8)."""


def node_of(report: SizingReport) -> tuple[int, bool]:
    """(GPUs per node, NVLink inside the node) of the card sized (``SizingReport.gpu_spec``, as the
    estimator resolved it: no catalog lookup here); the schema's default node, with NVLink, for a
    report without one."""
    spec = report.gpu_spec
    return (spec.gpus_per_node, spec.nvlink) if spec is not None else (DEFAULT_PER_NODE, True)


def is_tpu(report: SizingReport) -> bool:
    """A Google TPU (counted in chips on hosts, linked by ICI inside a slice): its catalog vendor."""
    spec = report.gpu_spec
    return spec is not None and spec.vendor == "Google"


def count_layout(report: SizingReport) -> str:
    """The layout of exactly the user's count: TP inside a node, whole-node pipeline stages beyond."""

    count = report.request.gpu_count or 1
    per_node, _ = node_of(report)
    return f"TP={count}" if count <= per_node else f"TP={per_node} × PP={count // per_node}"


def is_unified(report: SizingReport) -> bool:
    """Apple silicon (unified memory), including a memory configuration not in the catalog."""

    spec = report.gpu_spec
    return bool(spec.gpu_memory_fraction) if spec else (report.request.gpu or "").startswith("Apple-")


def is_mac(report: SizingReport) -> bool:
    """Apple silicon only: unified memory on a Mac (MLX, Metal's working set), not the other unified-memory
    boxes (a DGX Spark's GB10 runs CUDA: llama.cpp or vLLM, no MLX; s31 trial)."""
    spec = report.gpu_spec
    return is_unified(report) and (spec.vendor == "Apple" if spec else True)


def gpu_names(report: SizingReport, card: bool = False) -> tuple[str, str, float | None]:
    """(short name for sentences, family for 'A100-hours', capacity bytes) of the report's GPU.

    A card named by its memory alone ('my 16GB GPU', '2 x 24GB') is sized on the catalog card of that memory
    most people mean (estimator.resolve, ``Why.gpu_by_memory``) but named as what was typed, 'GPU 16G' (the
    name a generic card of that memory has, estimator.resolve._generic_card): the user did not type that
    card, and the substitution line says whose speed times it (s47-verdict, issue 24 item 4). ``card``: the
    card sized itself ('RTX 4090'), for that line."""
    gpu_id = report.request.gpu
    memory = None if card else report.request.gpu_memory_gib
    for a in report.assumptions if memory else ():  # a loop, not any(): no generator call a step
        if a.field == "gpu":
            if a.why == "gpu_by_memory":
                _, family, capacity = gpu_names(report, card=True)
                return f"GPU {memory:g}G", family, capacity
            break
    try:
        spec = catalog.gpu(gpu_id) if gpu_id else None
    except KeyError:
        spec = None
    sized = report.gpu_spec
    if spec is not None and sized is not None and sized.id not in catalog.gpus():
        spec = None  # sized at a stated memory ("H800 40G"): the request names the catalog card
    if spec is None:
        name = (report.gpu_name or gpu_id or "GPU").removeprefix("NVIDIA ").removeprefix("GeForce ")
        return name, name, None
    short = spec.family
    sizes = _family_sizes(catalog.gpus())
    if sizes.get(spec.family, 0) > 1 or (spec.gpu_memory_fraction and report.request.gpu_memory_gib):
        short = f"{spec.family} {spec.memory_gib:g}G"  # a Mac's memory as stated ('M2 Ultra 192G', s24 #6)
    if sizes.get((spec.family, spec.memory_gib), 0) > 1 and "-PCIe-" in spec.id:
        short = f"{spec.family} PCIe {spec.memory_gib:g}G"  # s17: never two 'A100 80G' in one comparison
    return short, spec.family, spec.memory_bytes


_FAMILY_SIZES: list[tuple[object, dict[object, int]]] = []


def _family_sizes(gpus: dict[str, GpuSpec]) -> dict[object, int]:
    """How many catalog cards each family has (a reply names the memory when more than one), and each
    (family, memory) (a reply names a PCIe card's form when an SXM card shares both: 'A100 PCIe 80G'),
    counted once per catalog (``estimator.catalog.gpus()`` is built once; a new one is counted again)."""
    if not _FAMILY_SIZES or _FAMILY_SIZES[0][0] is not gpus:
        counts: Counter[object] = Counter(g.family for g in gpus.values())
        counts.update((g.family, g.memory_gib) for g in gpus.values())
        _FAMILY_SIZES[:] = [(gpus, dict(counts))]
    return _FAMILY_SIZES[0][1]


def model_label(report: SizingReport, lang: str = "en") -> str:
    """The model's name as the reply shows it: the catalog's, its bracketed note in ``lang``
    (:func:`bot.render.model_name_zh.localized_model_name`), else its size or the name as typed."""
    req = report.request
    if report.model_name:
        from bot.render.model_name_zh import localized_model_name

        return localized_model_name(report.model_name, lang)
    if req.params_total:
        return Fmt.params(req.params_total)
    return req.model or "LLM"


def stage_key(report: SizingReport) -> str:
    req = report.request
    if report.inference is not None or req.stage == Stage.inference:
        return "inference"
    if req.stage == Stage.finetune:
        method = (req.method or Method.full).value
        if req.reward_model:  # a reward model trained on pairs (s39 fixc)
            return f"rm_{method}"
        if req.algorithm is not None and req.algorithm.value in ("dpo", "ppo", "grpo", "rloo"):
            return f"{req.algorithm.value}_{method}"  # e.g. "dpo_full", "grpo_lora"
        return method
    if req.stage == Stage.continued_pretrain:
        return "continued_pretrain"
    return "pretrain"
