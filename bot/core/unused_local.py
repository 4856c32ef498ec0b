"""Stated settings as the reply names them (``'tp: 4'``), and the serving settings of weights in CPU memory
that a reply has nothing to act on (moved out of :mod:`bot.core.interpretation`, which is at the 500-line
limit of tests/test_layout.py)."""

from __future__ import annotations

from estimator.layer_offload import ALL_EXPERTS
from estimator.models import SizingReport, SizingRequest


def setting_text(field: str, value: object) -> str:
    """'budget: 50,000', 'tp: 4', 'lora_targets: q_proj, v_proj': a setting as the JSON names it."""
    if isinstance(value, list):
        value = ", ".join(str(getattr(v, "value", v)) for v in value)
    value = getattr(value, "value", value)
    if isinstance(value, float) and value.is_integer():
        value = f"{int(value):,}"  # 50000.0 → 50,000
    return f"{field}: {value}"


def unused_local(said: SizingRequest, report: SizingReport) -> list[tuple[str, str]]:
    """Serving settings of weights in CPU memory with nothing to act on: an offload with no llama.cpp split
    (a server holds every weight on GPUs: 'serving_offload'), the host memory when every weight is on the
    GPUs ('all_on_gpu'), experts on the CPU for a dense model ('no_experts'); estimator.layer_offload. A
    request's images whose tokens are not known: :func:`unused_request_images` (s44)."""
    split = report.inference is not None and report.inference.layer_split is not None
    out = unused_request_images(said, report) if said.images_per_request else []
    if said.chunked_hybrid_kv is not None or said.hybrid_kvcache_ratio is not None:  # s45: Llama 4's
        out += unused_chunked(said, report)
    if (
        said.offload and not split and said.gpu_layers is None and not said.cpu_moe_layers
    ):  # -ngl ≥ layers + 1
        out.append((setting_text("offload", said.offload), "serving_offload"))
    spec = report.model_spec
    layers = spec.layers if spec is not None else None
    if said.gpu_layers is not None and not split and layers and said.gpu_layers <= layers:
        # a server runtime: no split, yet the layers were said (review s14: dropped in silence); the host
        # memory belongs to that split, not to "every weight on the GPU"
        out.append((f"gpu_layers: {said.gpu_layers}", "serving_offload"))
        return out
    gpu, host = report.gpu_spec, said.host_memory_gib or 0.0
    unified = gpu is not None and gpu.unified_memory and abs(gpu.memory_gib - host) <= 1
    cpu = said.gpu is None and report.cpu is not None  # the CPU run reads both (s41 trial #7)
    if host and not split and not unified and not cpu:  # a Mac's '512GB 统一内存' is the device's (s20)
        why = "cpu_host_ram" if said.gpu is None else "all_on_gpu"  # no GPU named: a CPU-only machine
        out.append((f"host_memory: {said.host_memory_gib:g} GB", why))
    if said.host_bandwidth_gbps and not split and not cpu:
        out.append((f"host_bandwidth: {said.host_bandwidth_gbps:g} GB/s", "all_on_gpu"))
    if said.cpu_moe_layers and spec is not None and not spec.is_moe:
        flag = "--cpu-moe" if said.cpu_moe_layers >= ALL_EXPERTS else f"--n-cpu-moe {said.cpu_moe_layers}"
        out.append((flag, "no_experts"))
    return out


def offload_unused(said: SizingRequest) -> dict[str, str]:
    """The item of a stated offload an adapter run is sized without: the optimizer's alone (offload_optimizer,
    no offload_param: its states are small, s35 #4), else any offload (``offload_adapters``)."""
    if said.offload_params is False:
        return {"text": setting_text("offload_optimizer", "cpu"), "reason": "optimizer_offload_adapters"}
    return {"text": setting_text("offload", "cpu"), "reason": "offload_adapters"}


def unused_images(said: SizingRequest, report: SizingReport) -> list[tuple[str, str]]:
    """The images stated beside a fine-tune that does not count them (s40 fixt #1, #2): a model with no
    vision tower whose tokens follow the resolution ('image_not_vl'), or a count of images per sample with
    no resolution ('image_no_resolution'); estimator.image_tokens counts them otherwise."""
    spec = report.model_spec
    reads = spec is not None and spec.vision is not None and bool(spec.vision.pixels_per_token)
    fixed = spec is not None and spec.vision is not None and bool(spec.vision.tokens_per_image)  # LLaVA
    out: list[tuple[str, str]] = []
    if said.image_pixels and not reads:
        out.append((f"image_resolution: {said.image_pixels[0]}x{said.image_pixels[1]}", "image_not_vl"))
    stated = bool(said.tokens_per_image)  # the user's tokens an image: counted (s46 review B7)
    if stated and said.image_pixels and reads:  # the processor's count from the resolution wins
        out.append((str(said.tokens_per_image), "image_tokens_processor"))
    if said.images_per_sample and not said.image_pixels and not fixed and not stated:  # fixed: s43 #2
        why = "image_no_resolution" if spec is not None and spec.vision is not None else "image_not_vl"
        out.append((f"images_per_sample: {said.images_per_sample}", why))
    return out


def unused_request_images(said: SizingRequest, report: SizingReport) -> list[tuple[str, str]]:
    """A served request's images the answer does not count (s44): a Qwen2-VL/Qwen2.5-VL release with no
    resolution ('image_no_resolution'), any other model whose tokens per image are not known
    ('image_request_uncounted'); estimator.image_tokens.with_request_images counts them otherwise."""
    if not said.images_per_request:
        return []
    from estimator.image_tokens import tokens_per_image

    spec = report.model_spec
    if tokens_per_image(spec, said.image_pixels) is not None:
        return []
    dynamic = spec is not None and spec.vision is not None and bool(spec.vision.pixels_per_token)
    why = "image_no_resolution" if dynamic else "image_request_uncounted"
    return [(f"images_per_request: {said.images_per_request}", why)]


def unused_chunked(said: SizingRequest, report: SizingReport) -> list[tuple[str, str]]:
    """vLLM's ``VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE`` or SGLang's ``--hybrid-kvcache-ratio``
    said for a model without chunked local attention (only Llama 4's ``attention_chunk_size`` layers are
    sized by them, :mod:`estimator.chunked_kv`): named as not used ('no_chunked_attention')."""
    spec = report.model_spec
    if spec is not None and spec.attention_chunk_size and spec.chunked_layers:
        return []
    out = []
    if said.chunked_hybrid_kv is not None:
        out.append((setting_text("chunked_hybrid_kv", said.chunked_hybrid_kv), "no_chunked_attention"))
    if said.hybrid_kvcache_ratio is not None:
        out.append((setting_text("hybrid_kvcache_ratio", said.hybrid_kvcache_ratio), "no_chunked_attention"))
    return out


def unused_ep(said: SizingRequest, report: SizingReport) -> list[tuple[str, str]]:
    """A stated training expert-parallel degree the plan does not run, with why (s48): the reason of
    :func:`estimator.expert_parallel.stated_ep` ('ep_not_dividing', 'ep_over_gpus', 'ep_no_experts': a dense
    model), ``ep_dp`` (EP does not divide the plan's data-parallel degree), else
    ``expert_parallel_training`` (a MoE job without the full-training plan's expert parallelism:
    LoRA, a stated ZeRO stage or offload, where ZeRO-3/FSDP shards the experts); [] when the plan's EP is the
    stated one."""
    from estimator.expert_parallel import stated_ep

    ep, memory, spec = said.expert_parallel, report.memory, report.model_spec
    plan = memory.plan if memory is not None else None
    if not ep or (plan is not None and plan.ep == ep):
        return []
    experts = (spec.experts or 0) if spec is not None else 0
    _, why = stated_ep(ep, experts, said.gpu_count)
    if why is None and plan is not None and plan.dp % ep:
        why = "ep_dp"  # the user's GPUs split so that EP does not divide DP
    return [(setting_text("expert_parallel", ep), why or "expert_parallel_training")]
