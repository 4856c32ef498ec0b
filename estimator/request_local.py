"""Stated serving settings declared once here and mixed into :class:`estimator.request.SizingRequest` (kept
apart so the request module stays within the 500-line limit of tests/test_layout.py): part of the
weights in CPU memory (:mod:`estimator.layer_offload`), and the hours a day a deployment runs
(:mod:`estimator.serving_schedule`)."""

from typing import Literal

from pydantic import Field

from estimator.request_setting import _setting
from estimator.request_users import ServiceUsers

LLAMA_CPP = ("llama.cpp",)
"""The engine whose flags -ctv, --n-cpu-moe and -nkvo are (llama.cpp common/arg.cpp): no other engine's."""
GGUF_RUNTIMES = ("llama.cpp", "Ollama")
"""The engines that place GGUF layers on the GPU by count (-ngl; Ollama's ``num_gpu`` option)."""


class SplitKvTypes(ServiceUsers):
    """llama.cpp's K and V cache types set apart (JSON name as the field; s20 #2)."""

    kv_precision_v: Literal["fp16", "bf16", "q8_0", "q4_0"] | None = Field(
        None,
        description="the V cache's type when it differs from the K cache's (llama.cpp --cache-type-k / -ctk "
        "and --cache-type-v / -ctv set apart, each f16 unless stated: common/arg.cpp; src/llama-kv-cache.cpp "
        "makes K and V tensors each of its own type): `kv_precision` is then K's, and the cache is sized "
        "K at its bytes per value and V at its own",
        json_schema_extra=_setting("serving", json_order=74, runtimes=LLAMA_CPP),
    )
    rig_bandwidth_gbps: float | None = Field(
        None,
        gt=0,
        le=100_000,
        description="a machine of different cards whose layers llama.cpp/Ollama split by free memory: the "
        "memory bandwidth its decode runs at, GB/s — each card reads its share of the layers (its memory ÷ "
        "the sum) at its own bandwidth, in turn: 1 ÷ Σ(share ÷ bandwidth) (a 3090 + a 4060 Ti 8GB: "
        "1 ÷ (0.75 ÷ 936 + 0.25 ÷ 288) = 599 GB/s); None: one kind of card (s20 #1)",
        json_schema_extra=_setting("serving", json_order=75),
    )


class LocalServingSettings(SplitKvTypes):
    """llama.cpp-style placement of the layers, and the host's memory (JSON names as the fields)."""

    gpu_layers: int | None = Field(
        None,
        ge=0,
        le=100_000,
        description="layers on the GPU as llama.cpp counts them (-ngl / --n-gpu-layers, Ollama num_gpu, LM "
        "Studio 'GPU offload'; the output layer is one of them): the rest stay in CPU memory; layers + 1 "
        "or more (99, 999): all",
        json_schema_extra=_setting("serving", json_order=62, stated=(0, 100_000), runtimes=GGUF_RUNTIMES),
    )
    cpu_moe_layers: int | None = Field(
        None,
        ge=1,
        le=999,
        description="MoE layers whose routed experts stay in CPU memory (llama.cpp --n-cpu-moe N); "
        "999: every layer's (--cpu-moe, -ot 'exps=CPU', KTransformers)",
        json_schema_extra=_setting("serving", json_order=63, stated=(1, 999), runtimes=LLAMA_CPP),
    )
    host_memory_gib: float | None = Field(
        None,
        gt=0,
        le=1e6,
        description="the host's (CPU) memory as stated ('64GB RAM', '内存 128G'), GiB: what holds the layers "
        "kept in CPU memory; in training with CPU offload, compared with the host RAM the offloaded "
        "optimizer states need per node (bot.render.host_ram)",
        json_schema_extra=_setting(json_order=64, stated=(1, 1e6)),
    )
    host_bandwidth_gbps: float | None = Field(
        None,
        gt=0,
        le=10_000,
        description="the host memory's bandwidth, GB/s: as stated ('memory bandwidth 80 GB/s'), or channels "
        "× 8 bytes × the transfer rate of a DDR kind said ('DDR5-6000' dual channel: 96 GB/s; two channels "
        "unless a count is said)",
        json_schema_extra=_setting("serving", json_order=65, stated=(1, 10_000)),
    )
    kv_offload: bool | None = Field(
        None,
        description="llama.cpp's KV offload: False for --no-kv-offload / -nkvo (every layer's KV cache in "
        "CPU memory); None or True: each layer's KV on that layer's device (src/llama-kv-cache.cpp)",
        json_schema_extra=_setting("serving", json_order=66, runtimes=LLAMA_CPP),
    )
    flash_attention: bool | None = Field(
        None,
        description="llama.cpp's flash attention as stated: False for -fa off / --flash-attn off / -fa 0 "
        "(llama-cpp-python flash_attn=False) or 'without flash attention' beside llama.cpp: each device's "
        "compute buffer then holds one layer's fp32 KQ scores, n_ctx × n_ubatch × n_head × 4 bytes "
        "(estimator.runtimes.llama_cpp.kq_score_bytes); None or True: flash attention, no KQ matrix",
        json_schema_extra=_setting("serving", json_order=86, echo="serving_suffix", runtimes=LLAMA_CPP),
    )
    bits_per_weight: float | None = Field(
        None,
        ge=1.0,
        le=16.0,
        description="EXL2/EXL3 bits per weight as stated ('4.65bpw', 'exl2 6.0 bpw': ExLlamaV2 convert.py "
        "-b, the target average over the quantized layers; doc/convert.md): the weights are sized at it, "
        "the output head at its own bits (estimator.exl2_weights); None: a weight format or the release",
        json_schema_extra=_setting("serving", json_order=90),
    )
    host_channels: int | None = Field(
        None,
        ge=1,
        le=24,
        description="the host memory's channels as said ('dual channel', '双通道', '8-channel'): what "
        "`host_bandwidth_gbps` was read with (channels × 8 bytes × the DDR transfer rate), or the range of "
        "a DDR kind said without a rate (estimator.host_ddr); None when no count was said (two assumed)",
        json_schema_extra=_setting("serving", json_order=69, stated=(1, 24)),
    )
    host_ddr: int | None = Field(
        None,
        ge=4,
        le=5,
        description="the host memory's DDR generation said without its rate ('DDR5 双通道', 'DDR4 RAM'): "
        "4 or 5; the host bandwidth is then its common rates × the channels (estimator.host_ddr)",
        json_schema_extra=_setting("serving", json_order=72, stated=(4, 5)),
    )
    excluded_bits: int | None = Field(
        None,
        ge=2,
        le=8,
        description="a weight bit width said not to be used ('without 8-bit quantization', "
        "'不用 8bit 量化'): a local machine's fallback format skips it (Q8_0 is 8-bit, Q4_K_M 4-bit: "
        "estimator.serving); "
        "None when no width was excluded",
        json_schema_extra=_setting("serving", json_order=100),
    )


class ServingSchedule:  # a plain mixin of SizingRequest (request_setting.drop_mixin_defaults)
    """The hours a day a serving deployment runs (JSON name as the field)."""

    hours_per_day: float | None = Field(
        None,
        gt=0,
        le=24,
        description="hours a day the serving GPUs are rented ('8 hours a day', '每天只用 8 小时'): the month "
        "costs hours_per_day ÷ 24 of the around-the-clock month (estimator.serving_schedule); a training "
        "run's duration is no schedule (named as not used there)",
        json_schema_extra=_setting("serving", json_order=68, stated=(0.5, 24)),
    )
    hours_per_day_compared: float | None = Field(
        None,
        gt=0,
        le=24,
        description="a second daily schedule the month is also priced at, weighed against hours_per_day "
        "('24/7 … vs renting hourly only 10 hours a day' → 10 beside 24; '每天只用 8 小时 … 包月又是多少' → "
        "24, a month rented whole, beside 8): the reply gives both months' costs at the same price per "
        "GPU-hour (bot.parse.daily_hours, bot.render.schedule_both; trial s43 q11_en, q32_zh)",
        json_schema_extra=_setting("serving", json_order=114),
    )


class AttentionLayout:  # a plain mixin of SizingRequest (request_setting.drop_mixin_defaults)
    """How a server lays out MLA attention (JSON name as the field): :mod:`estimator.mla_layout`."""

    dp_attention: bool | None = Field(
        None,
        description="data-parallel attention said (SGLang --enable-dp-attention): each GPU keeps its own "
        "sequences' MLA latent cache; None with a TP stated for an MLA model: every TP rank keeps the "
        "whole latent (SGLang MLATokenToKVPool, vLLM's MLA backend)",
        json_schema_extra=_setting("serving", json_order=73),
    )
    attention_tp: int | None = Field(
        None,
        description="the GPUs each data-parallel-attention rank splits its attention over, beside "
        "dp_attention: SGLang TP ÷ --dp with --enable-dp-attention (python/sglang/srt/layers/dp_attention.py "
        "compute_dp_attention_world_info: attn_tp_size = tp_size // dp_size), vLLM's --tensor-parallel-size "
        "of each --data-parallel-size rank with --enable-expert-parallel (docs/serving/"
        "data_parallel_deployment.md: each DP engine owns TP workers); None: 1, each GPU its own sequences",
        json_schema_extra=_setting("serving", json_order=121, stated=(1, 64), runtimes=("SGLang", "vLLM")),
    )
    enforce_eager: bool | None = Field(
        None,
        description="vLLM's --enforce-eager / enforce_eager=True as stated: no CUDA graphs are captured, so "
        "nothing of theirs sits outside gpu_memory_utilization "
        "(estimator.serving_verdict.cuda_graphs_outside); "
        "None or False: vLLM captures them (its default)",
        json_schema_extra=_setting("serving", json_order=92, runtimes=("vLLM",)),
    )
    vllm_version: str | None = Field(
        None,
        description="vLLM's release as stated ('vLLM 0.6.4', 'vllm==0.5.3', 'vllm-openai:v0.8.5'), "
        "major.minor[.patch]: before v0.21 its CUDA graphs are captured outside gpu_memory_utilization "
        "(estimator.serving_verdict.cuda_graphs_outside); None: either side of v0.21, so the check "
        "applies too (s37); v0.21 or later counts them inside it",
        json_schema_extra=_setting("serving", json_order=98, runtimes=("vLLM",)),
    )
    lmdeploy_version: str | None = Field(
        None,
        description="lmdeploy's release as stated ('lmdeploy v0.2.0', 'lmdeploy==0.2.1'), "
        "major.minor[.patch]: before v0.2.2 TurboMind's cache_max_entry_count (default 0.5) is a share of "
        "the card's total memory, allocated at start-up (estimator.lmdeploy_release); None or v0.2.2 and "
        "later: a share of the memory free after the weights load (default 0.8)",
        json_schema_extra=_setting("serving", json_order=108, runtimes=("lmdeploy",)),
    )
    tgi_version: str | None = Field(
        None,
        description="TGI's release as stated ('TGI 1.3.3', 'text-generation-inference:1.3.3', 'TGI v1.4'), "
        "major.minor[.patch]: v0.9.4 to v1.4.0 give the KV blocks all the memory free at the warm-up's "
        "peak, none kept back, so a fit there is borderline (estimator.tgi_release); None or another "
        "release: the current TGI_WIGGLE_ROOM rule",
        json_schema_extra=_setting("serving", json_order=111, runtimes=("TGI",)),
    )
    chunked_hybrid_kv: bool | None = Field(
        None,
        description="VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE as set in the question or a pasted "
        "command (1: Llama 4's chunked layers keep one attention_chunk_size of KV, 0: every layer the whole "
        "context; estimator.chunked_kv); None: the stated release's default (False until v0.12, True from "
        "v0.16), or True with no release stated",
        json_schema_extra=_setting("serving", json_order=123, runtimes=("vLLM",)),
    )
    hybrid_kvcache_ratio: float | None = Field(
        None,
        ge=0,
        le=1,
        description="SGLang's --hybrid-kvcache-ratio as stated (a bare flag: 0.5): the local pool of "
        "Llama 4's chunked layers is (1 − r) + r × chunk ÷ context_length of the global one "
        "(estimator.chunked_kv); "
        "None: SGLang sizes every layer for the whole context",
        json_schema_extra=_setting("serving", json_order=124, runtimes=("SGLang",)),
    )
    max_num_batched_tokens: int | None = Field(
        None,
        ge=1,
        le=10_000_000,
        description="vLLM's max_num_batched_tokens (--max-num-batched-tokens): the tokens of one "
        "forward pass, the prefill chunk its start-up profile runs (estimator.runtimes.vllm."
        "vllm_profile_bytes); set as stated, or 131,072 for a Qwen 1M-token release at a context past "
        "131,072 (the vLLM recipe of its model card); None: vLLM's default (2,048, or 8,192 on cards of "
        "70 GB or more other than A100)",
        json_schema_extra=_setting("serving", json_order=126, stated=(1, 10_000_000), runtimes=("vLLM",)),
    )
