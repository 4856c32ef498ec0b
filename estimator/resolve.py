"""What the request names, resolved against the catalogs: the stage, the GPU, the model's shape.

Each default is recorded in the ledger with its reason (:class:`estimator.reasons.Why`).
"""

from __future__ import annotations

from dataclasses import dataclass

from estimator import catalog, defaults
from estimator.architecture import shape_for_size, size_label
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
    if req.gpus_per_node and req.gpus_per_node != gpu.gpus_per_node:
        ledger.note(
            "machines_as_stated",
            gpus_per_node=req.gpus_per_node,
            catalog_per_node=gpu.gpus_per_node,
            gpu=gpu.name,
        )
        gpu = machines_as_stated(gpu, req.gpus_per_node)
    spec, params, active = resolve_model(req, ledger)
    if stage == Stage.inference and spec is not None and spec.chunked_layers:  # Llama 4: per runtime (s45)
        from estimator.chunked_kv import as_allocated

        spec = as_allocated(req, spec, gpu, ledger)
    if stage == Stage.inference and spec is not None and _generic(spec) and spec.heads > spec.kv_heads:
        # the generic shape's KV cache is the GQA one; an older MHA model of that size holds more
        ledger.note("generic_shape_mha", times=spec.heads // spec.kv_heads)
    return Resolved(stage, gpu, spec, params, active)


def machines_as_stated(gpu: GpuSpec, per_node: int) -> GpuSpec:
    """The card in machines of ``per_node`` GPUs as the user has them ('2机4卡': two machines of 4), in
    place of the catalog's node (8 for data-centre cards: DGX/HGX baseboards). Everything laid out per
    node follows: tensor parallelism within one machine's fast link (Megatron-LM, Narayanan et al. 2021
    §3.3: TP inside a DGX node, PP and DP across nodes; estimator.layouts), the whole-node rounding of a
    GPU count (estimator.compute.round_to_nodes) and the machines a recipe launches on."""
    return gpu.model_copy(update={"gpus_per_node": per_node})


def _generic(spec: ModelSpec) -> bool:
    """An interpolated shape for a bare size (:func:`estimator.architecture.shape_for_size`)."""
    return spec.id.startswith("dense-") and spec.id not in catalog.models()


def resolve_stage(req: SizingRequest, ledger: Ledger) -> Stage:
    """The stage asked for; else serving when a batch's time or a period's tokens are asked of a served model
    (``batch_tokens``, ``tokens_period_asked_s``: never read beside a training word; its rows are
    ``num_samples``, s45 fixread #1); else training when tokens, samples or a budget are given; else
    serving."""
    if req.stage:
        return req.stage
    batch = req.batch_tokens or req.tokens_period_asked_s
    if not batch and (req.tokens or req.budget or req.num_samples or req.hours):
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
            "gpu_memory_fraction": _share_at(spec, memory_gib),
        }
    )


def _share_at(spec: GpuSpec, memory_gib: float) -> float | None:
    """The GPU's share of a unified-memory device of ``memory_gib``: Metal's working set on Apple silicon
    (3/4 from 64 GB, 2/3 below: :func:`_apple_configuration`); the device's own share at any size
    elsewhere (s48: AMD Variable Graphics Memory's 75 % on a 64 GB Strix Halo too, not Metal's rule)."""
    if spec.vendor != "Apple":
        return spec.gpu_memory_fraction
    return 0.75 if memory_gib >= 64 else 2 / 3


def _stated_memory(spec: GpuSpec, memory_gib: float) -> GpuSpec:
    """The catalog card with the memory the user stated, when no catalog variant has it: a modified
    card ("2080 Ti 魔改 22G", sold with doubled memory chips) or a variant the catalog lacks ("A800
    40G"). Same chip, so its TFLOPS and bandwidth stay; only the memory (GiB per card) is the user's,
    taken as what the card exposes (no ECC reserve is taken off a figure the user gave)."""
    return spec.model_copy(
        update={
            "id": f"{spec.id}-{memory_gib:g}GB",
            "name": f"{spec.family} {memory_gib:g}G",  # as the reply names cards: "RTX 2080 Ti 22G"
            "memory_gib": float(memory_gib),
            "ecc_visible_mib": None,  # the user's figure is the memory sized, not the datasheet's
            "catalog_id": spec.id,  # the JSON's hardware.id (bot.contract): the card, its memory apart
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
        elif mem and abs(mem - spec.memory_gib) >= 1:  # "2080 Ti 魔改 22G", "A800 40G": sized as stated
            catalog_gib = spec.memory_gib
            spec = _stated_memory(spec, mem)
            ledger.assume(  # named as the reply names it ("H800 40G"), not by a made-up id
                "gpu", spec.name, Why.gpu_stated_memory, memory_gib=f"{mem:g}", catalog_gib=f"{catalog_gib:g}"
            )
        if req.rig_bandwidth_gbps:  # a rig's layers in turn on cards of their own bandwidth (s20 #1)
            spec = spec.model_copy(update={"memory_bandwidth_gbps": req.rig_bandwidth_gbps})
        return spec
    from estimator.mac_devices import mac_chip

    chip = mac_chip(req.gpu, req.gpu_memory_gib) if req.gpu and req.gpu_memory_gib else None
    if chip is not None and req.gpu_memory_gib:  # "128G 的 Mac Studio": a chip assumed, the memory stated
        spec = _apple_configuration(catalog.gpu(chip), req.gpu_memory_gib)
        bandwidth = f"{spec.memory_bandwidth_gbps:g}"
        ledger.assume(
            "gpu", spec.id, Why.mac_chip_assumed, device=req.gpu, chip=spec.family, bandwidth=bandwidth
        )
        return spec
    if req.gpu and req.gpu_memory_gib:  # "Titan X 12GB": that name, that memory, nothing else known
        ledger.assume("gpu", req.gpu, Why.gpu_unknown_memory, gpu=req.gpu, memory_gib=req.gpu_memory_gib)
        return _generic_card(req.gpu, req.gpu, req.gpu_memory_gib, ledger)
    from estimator.gpu_families import family_flagship

    flagship = family_flagship(req.gpu) if req.gpu else None
    if req.gpu and flagship is not None:  # '华为的卡': the family's flagship, said (trial s27b #2)
        spec = catalog.gpu(flagship)
        ledger.assume("gpu", spec.id, Why.gpu_family_flagship, gpu=req.gpu, used=spec.name)
        return spec
    if req.gpu:
        default = catalog.gpu(defaults.DEFAULT_GPU)
        ledger.note("unknown_gpu_assumed", gpu=req.gpu)
        ledger.assume("gpu", default.id, Why.gpu_unknown_default, gpu=req.gpu)
        return default
    if req.gpu_memory_gib:
        match = catalog.gpu_with_memory(req.gpu_memory_gib)
        if match is not None and match.vendor == "NVIDIA" and not match.unified_memory:
            ledger.assume("gpu", match.id, Why.gpu_by_memory)  # '24G' → RTX 4090: the card most mean
            return match
        mem = req.gpu_memory_gib  # '64GB' (only an Ascend or a Mac has it): that card, never swapped
        why = Why.gpu_generic_memory if match is None else Why.gpu_memory_only
        ledger.assume("gpu", f"GPU-{mem:g}GB", why, memory_gib=req.gpu_memory_gib)
        return _generic_card(f"GPU-{mem:g}GB", f"GPU {mem:g}G", mem, ledger)
    default = catalog.gpu(defaults.DEFAULT_GPU)
    ledger.assume("gpu", default.id, Why.default_gpu)
    return default


PERSONAL_MAX_GENERIC_GIB = 12.0
"""A card outside the catalog with at most this much memory is a personal card (GeForce, Titan, an old
workstation card): every datacenter inference card of the last decade has 16 GB or more (T4, A2, L4,
V100, A10 — gpus.toml), while GeForce cards of 6–12 GB are what people own (RTX 2060/3060/4060/4070)."""


def _generic_card(gpu_id: str, name: str, memory_gib: float, ledger: Ledger | None = None) -> GpuSpec:
    """A card known by its memory only. The default GPU's figures fill the fields the maths needs
    (layout rules, a peak that a measured throughput divides back out); ``generic`` hides every
    figure that would depend on them. A small one (:data:`PERSONAL_MAX_GENERIC_GIB`) is personal: one
    user, local runtimes and formats, one card unless more are named (stated in the ledger)."""
    base = catalog.gpu(defaults.DEFAULT_GPU)
    personal = memory_gib <= PERSONAL_MAX_GENERIC_GIB
    if personal and ledger is not None:
        ledger.assume("gpu_personal", True, Why.generic_personal, memory_gib=memory_gib)
    return base.model_copy(
        update={
            "id": gpu_id,
            "name": name,
            "family": name,
            "vendor": "",
            "memory_gib": memory_gib,
            "generic": True,
            "related": [],
            "personal": personal,
            "nvlink": False if personal else base.nvlink,
        }
    )


PERSONAL_COUNT_STAGES = (Stage.inference, Stage.finetune)
"""Questions about fitting a model (serving, fine-tuning): on a personal card they mean the card the user
owns. Pre-training and continued pre-training ask how many cards a job takes, so no count is assumed."""


def one_personal_card(req: SizingRequest, personal: bool, stage: Stage | None) -> bool:
    """Whether a ``personal`` card named without a count is one card (:func:`personal_count`; an answer that
    sized nothing reads it the same: bot.core.unsized_card): serving or fine-tuning, no count said or asked,
    no total memory, budget or deadline (then the count is the question)."""
    return (
        personal
        and req.gpu_count is None
        and not req.count_asked
        and req.total_memory_gib is None
        and req.budget is None
        and req.deadline_days is None
        and stage in PERSONAL_COUNT_STAGES
    )


def personal_count(req: SizingRequest, r: Resolved, ledger: Ledger) -> SizingRequest:
    """A personal card named without a count (:attr:`GpuSpec.personal`: GeForce, Titan, old Tesla, a Mac,
    a small card known by its memory) is one card, for serving and fine-tuning: "Can I run a 9B on my
    RTX 4060?" asks about that card. Not with a total memory, a budget or a deadline (then the count is
    the question), nor for pre-training, nor when the user asks how many cards (``count_asked``)."""
    if _launcher_capacity(req, r):  # 'vllm serve … --tp 4 …, how many concurrent?': on its 4 GPUs
        world = (req.tp or 1) * (req.pp or 1)
        ledger.assume("gpu_count", world, Why.launcher_world_size, tp=req.tp or 1, pp=req.pp or 1)
        return req.model_copy(update={"gpu_count": world})
    if r.gpu.generic and not r.gpu.personal and _no_count_asked(req) and r.stage in PERSONAL_COUNT_STAGES:
        ledger.assume("gpu_count", 1, Why.memory_one_card, memory_gib=r.gpu.memory_gib)
        return req.model_copy(update={"gpu_count": 1})  # "a card with 64GB": one card of that memory
    if not one_personal_card(req, r.gpu.personal, r.stage):
        return req
    ledger.assume("gpu_count", 1, Why.personal_one_card, gpu=r.gpu.name)
    return req.model_copy(update={"gpu_count": 1})


def _launcher_capacity(req: SizingRequest, r: Resolved) -> bool:
    """'How many at once can it handle?' of a server launched with a TP (× PP) and no GPU count
    ('vllm serve … --tensor-parallel-size 4', SGLang/lmdeploy ``--tp 4``, TGI ``--num-shard 4``): the
    launcher's world size, TP × PP (× DP: the reader counts ``--dp`` into the GPU count), is the GPUs the
    capacity is asked of — not copies of that group sized for an assumed load (s14 trial: 28 concurrent
    on 12 GPUs for a server that runs 4)."""
    return (
        r.stage == Stage.inference
        and bool(req.tp or req.pp)
        and bool(req.concurrency_asked)
        and not req.concurrency
        and _no_count_asked(req)
    )


def _no_count_asked(req: SizingRequest) -> bool:
    """No count said nor asked, and nothing that makes the count the question (a total memory, a
    budget, a deadline)."""
    return (
        req.gpu_count is None
        and not req.count_asked
        and req.total_memory_gib is None
        and req.budget is None
        and req.deadline_days is None
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
    if spec is not None and (req.release_context or 0) > (spec.native_context or spec.max_context or 0):
        spec = _release_window(spec, req.release_context or 0)
    if spec is not None and req.rope_scaling_factor:  # s47 B4: the user's YaRN factor, set in the engine
        spec = _user_scaling(spec, req.rope_scaling_factor)
    if spec is not None and spec.vision is not None:  # a VL release: its tower counted, said (s31)
        from estimator.vision import note

        note(spec, req, ledger)
    if spec is None and total is not None:
        spec = shape_for_size(active or total)
        shape = spec.id  # 'ERNIE-4.5-300B-A47B' unknown: an MoE, weights by total, the rest by active (s30)
        if active and active < total:
            shape = f"moe-{size_label(total)}-A{size_label(active)}"
        ledger.assume("architecture", shape, Why.generic_shape, heads=spec.heads, kv_heads=spec.kv_heads)
    return spec, total, active


def _release_window(spec: ModelSpec, window: int) -> ModelSpec:
    """``spec`` with the window of the long-context release the user named (``release_context``, tokens) as
    its own: ``native_context`` (what vLLM derives its limit from) and ``max_context`` at least that, no
    further RoPE scaling (the release's scaling is already in its window)."""
    top = max(spec.max_context or 0, window)
    return spec.model_copy(update={"native_context": window, "max_context": top, "rope_scaling_factor": None})


def _user_scaling(spec: ModelSpec, factor: float) -> ModelSpec:
    """``spec`` with the RoPE scaling the user sets (``rope_scaling_factor``): YaRN at ``factor`` over its
    native window (``native_context``, else ``max_context``), so a length up to native × factor gets the note
    that says how to turn it on (estimator.context_window.context_note, 'rope_scaling_needed') and passes
    vLLM's start-up check, which multiplies the derived max_model_len by the factor when rope_scaling is set
    (vllm/config ``_get_and_verify_max_len``; review s47 B4). A model that documents its own scaling keeps
    its documented factor where that is larger, and no release's unscaled config window is checked (no
    'release_config_windows' note): with rope_scaling set either release starts up to native × factor."""
    if spec.rope_scaling_factor and spec.rope_scaling_factor >= factor:
        return spec.model_copy(update={"base_config_window": None})
    return spec.model_copy(update={"rope_scaling": "yarn", "rope_scaling_factor": factor})


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
