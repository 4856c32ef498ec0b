"""What the request names, resolved against the catalogs: the stage, the GPU, the model's shape.

Each default is recorded in the ledger with its reason (:class:`estimator.reasons.Why`).
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator import catalog, defaults
from estimator.architecture import shape_for_size
from estimator.catalog import GpuSpec, ModelSpec
from estimator.ledger import Ledger
from estimator.models import SizingRequest, Stage
from estimator.reasons import Why


@dataclass(frozen=True)
class Resolved:
    """The request's stage, GPU and model shape (``spec``/``params`` may be None: no model named)."""

    stage: Stage
    gpu: GpuSpec
    spec: ModelSpec | None
    params: float | None
    active: float | None


def resolve(req: SizingRequest, ledger: Ledger) -> Resolved:
    stage = resolve_stage(req, ledger)
    gpu = resolve_gpu(req, ledger)
    spec, params, active = resolve_model(req, ledger)
    return Resolved(stage, gpu, spec, params, active)


def resolve_stage(req: SizingRequest, ledger: Ledger) -> Stage:
    """The stage asked for; else training when tokens, samples or a budget are given; else serving."""
    if req.stage:
        return req.stage
    if req.tokens or req.budget or req.num_samples or req.hours:
        return Stage(ledger.assume("stage", Stage.pretrain.value, Why.stage_training))
    return Stage(ledger.assume("stage", Stage.inference.value, Why.stage_serving))


def _apple_configuration(spec: GpuSpec, memory_gib: float) -> GpuSpec:
    """The chip with the memory the user named ('M2 Ultra 64G'): Metal's default working set is 3/4
    of 64 GB and up, 2/3 below (llama.cpp logs: 21,845 MB of 32 GB, 73,728 MB of 96 GB;
    ggml-org/llama.cpp#2011, #3213); bandwidth and compute of the top configuration."""
    return spec.model_copy(
        update={
            "id": f"{spec.id.rsplit('-', 1)[0]}-{memory_gib:g}GB",
            "name": f"{spec.family} {memory_gib:g}G",  # as the reply names cards: "M2 Ultra 64G"
            "memory_gib": float(memory_gib),
            "gpu_memory_fraction": 0.75 if memory_gib >= 64 else 2 / 3,
        }
    )


def resolve_gpu(req: SizingRequest, ledger: Ledger) -> GpuSpec:
    """The catalog GPU asked for; a card named but not in the catalog, kept under its name with its
    stated memory; a catalog card of the stated memory ('24G的卡'); else the default.

    A card known only by its memory is :attr:`GpuSpec.generic`: memory answers only, no time, speed or
    price (docs/design.md §8: nothing the user named is replaced silently)."""
    if req.gpu and req.gpu in catalog.gpus():
        spec = catalog.gpu(req.gpu)
        mem = req.gpu_memory_gib
        if spec.unified_memory and mem and abs(mem - spec.memory_gib) >= 1:
            spec = _apple_configuration(spec, mem)
            ledger.assume("gpu", spec.id, Why.apple_config)
        return spec
    if req.gpu and req.gpu_memory_gib:  # "Titan X 12GB": that name, that memory, nothing else known
        ledger.assume("gpu", req.gpu, Why.gpu_unknown_memory, gpu=req.gpu, memory_gib=req.gpu_memory_gib)
        return _generic_card(req.gpu, req.gpu, req.gpu_memory_gib)
    if req.gpu:
        default = catalog.gpu(defaults.DEFAULT_GPU)
        ledger.note("unknown_gpu_assumed", gpu=req.gpu)
        ledger.assume("gpu", default.id, Why.gpu_unknown_default, gpu=req.gpu)
        return default
    if req.gpu_memory_gib:
        match = catalog.gpu_with_memory(req.gpu_memory_gib)
        if match is not None:
            ledger.assume("gpu", match.id, Why.gpu_by_memory)
            return match
        mem = req.gpu_memory_gib
        generic = _generic_card(f"GPU-{mem:g}GB", f"GPU {mem:g}G", mem)
        ledger.assume("gpu", generic.id, Why.gpu_generic_memory, memory_gib=req.gpu_memory_gib)
        return generic
    default = catalog.gpu(defaults.DEFAULT_GPU)
    ledger.assume("gpu", default.id, Why.default_gpu)
    return default


def _generic_card(gpu_id: str, name: str, memory_gib: float) -> GpuSpec:
    """A card known by its memory only. The default GPU's figures fill the fields the maths needs
    (layout rules, a peak that a measured throughput divides back out); ``generic`` hides every
    figure that would depend on them."""
    base = catalog.gpu(defaults.DEFAULT_GPU)
    return base.model_copy(
        update={
            "id": gpu_id,
            "name": name,
            "family": name,
            "vendor": "",
            "memory_gib": memory_gib,
            "generic": True,
            "related": [],
            "personal": False,
        }
    )


def resolve_model(req: SizingRequest, ledger: Ledger) -> tuple[ModelSpec | None, float | None, float | None]:
    """Catalog spec (or an interpolated shape), total and active params. Params may stay None.

    A config.json the user gave (``req.architecture``) is the model: its counts come from its
    architecture (:mod:`estimator.hf_config`), whatever size or name the message also had."""
    if req.architecture is not None:
        return _config_model(req.architecture, ledger)
    spec = catalog.models().get(req.model) if req.model else None
    total = req.params_total or (spec.params_total if spec else None)
    active = req.params_active or (spec.params_active if spec else None)
    if spec is not None and total and abs(total - spec.params_total) <= 0.2 * spec.params_total:
        # "Qwen2.5-7B" names a size; the release has 7.61B: size with the exact count
        if total != spec.params_total:
            ledger.assume(
                "params_total", spec.params_total, Why.release_count, model=spec.name, citation=spec.source
            )
        total, active = spec.params_total, spec.params_active or active
    if spec is None and total is not None:
        spec = shape_for_size(active or total)
        ledger.assume("architecture", spec.id, Why.generic_shape)
    return spec, total, active


def _config_model(spec: ModelSpec, ledger: Ledger) -> tuple[ModelSpec, float, float | None]:
    """The architecture of the user's config.json, stated in the ledger with the fields it was read from."""
    shape = {
        "layers": spec.layers,
        "hidden": spec.hidden,
        "heads": spec.heads,
        "kv_heads": spec.kv_heads,
        "params_total": spec.params_total,
    }
    if spec.is_moe:
        shape |= {
            "experts": spec.experts,
            "experts_top_k": spec.experts_top_k,
            "params_active": spec.params_active,
        }
        ledger.assume("architecture", spec.name, Why.config_architecture_moe, citation=spec.source, **shape)
    else:
        ledger.assume("architecture", spec.name, Why.config_architecture, citation=spec.source, **shape)
    return spec, spec.params_total, spec.params_active
