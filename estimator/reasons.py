"""Why a value in the assumption ledger is what it is: stable keys, no language.

Every :class:`~estimator.models.Assumption` names one of these keys (plus parameters, and a
citation kept as written). The bot owns the wording: ``bot/render/ledger_texts.py`` has one
translatable sentence per key, and a test checks that every key here has one. The sources behind
each default are in the docstrings of :mod:`estimator.defaults` and of the modules that use a key.
"""

from __future__ import annotations

from enum import StrEnum


class Why(StrEnum):
    """Keys of the ledger's explanations (and of a few values that are words, not numbers)."""

    # defaults (estimator.defaults)
    deadline_default = "deadline_default"
    seq_len_pretrain = "seq_len_pretrain"
    seq_len_finetune = "seq_len_finetune"
    micro_batch = "micro_batch"
    global_batch_pretrain = "global_batch_pretrain"
    global_batch_finetune = "global_batch_finetune"
    tokens_per_sample = "tokens_per_sample"
    samples_at_seq_len = "samples_at_seq_len"
    seq_from_samples = "seq_from_samples"
    epochs_finetune = "epochs_finetune"
    lora_rank = "lora_rank"
    lora_targets = "lora_targets"
    freeze_layers = "freeze_layers"
    prefix_tokens = "prefix_tokens"
    serve_context = "serve_context"
    serve_concurrency = "serve_concurrency"
    serve_concurrency_personal = "serve_concurrency_personal"
    vllm_utilization = "vllm_utilization"
    cuda_context = "cuda_context"
    fragmentation = "fragmentation"
    chinchilla = "chinchilla"
    default_gpu = "default_gpu"
    # resolution of the request
    stage_training = "stage_training"
    stage_serving = "stage_serving"
    method_full = "method_full"
    flops_per_param_token = "flops_per_param_token"
    compute_optimal_size = "compute_optimal_size"
    budget_max_params = "budget_max_params"
    release_count = "release_count"
    generic_shape = "generic_shape"
    config_architecture = "config_architecture"
    config_architecture_moe = "config_architecture_moe"
    gpu_by_memory = "gpu_by_memory"
    gpu_generic_memory = "gpu_generic_memory"
    generic_personal = "generic_personal"
    personal_one_card = "personal_one_card"
    apple_config = "apple_config"
    price_catalog = "price_catalog"
    optimizer = "optimizer"
    quantized_base = "quantized_base"
    flops_freeze = "flops_freeze"
    recompute_flash = "recompute_flash"
    measured_throughput = "measured_throughput"
    known_duration_one_gpu = "known_duration_one_gpu"
    known_duration_serving_gpus = "known_duration_serving_gpus"
    largest_one_gpu = "largest_one_gpu"
    concurrency_asked = "concurrency_asked"
    tokens_chinchilla_assumed = "tokens_chinchilla_assumed"
    largest_generic_shape = "largest_generic_shape"
    gpu_unknown_memory = "gpu_unknown_memory"
    gpu_unknown_default = "gpu_unknown_default"
    runtime_overhead = "runtime_overhead"
    # MFU (estimator.efficiency)
    mfu_a100 = "mfu_a100"
    mfu_a100_small = "mfu_a100_small"
    mfu_h100 = "mfu_h100"
    mfu_v100 = "mfu_v100"
    mfu_uncalibrated = "mfu_uncalibrated"
    mfu_moe = "mfu_moe"
    mfu_calibrated = "mfu_calibrated"
    mfu_interval = "mfu_interval"
    mfu_interval_wider = "mfu_interval_wider"
    mfu_fp8 = "mfu_fp8"
    fp8_training = "fp8_training"
    # serving (estimator.serving)
    release_precision = "release_precision"
    reasoning_context = "reasoning_context"
    local_format = "local_format"
    total_memory_as_sold = "total_memory_as_sold"
    unified_memory = "unified_memory"
    local_no_cap = "local_no_cap"
    vllm_workspace = "vllm_workspace"
    local_workspace = "local_workspace"
    sglang_mem_fraction = "sglang_mem_fraction"
    sglang_workspace = "sglang_workspace"
    transformers_no_cap = "transformers_no_cap"
    transformers_workspace = "transformers_workspace"
    mla_dp_attention = "mla_dp_attention"
    # filled before estimating (bot.core.pipeline)
    chat_settings = "chat_settings"
    presales_prices = "presales_prices"
    presales_monthly = "presales_monthly"
    presales_exchange = "presales_exchange"
    presales_gpu = "presales_gpu"
    presales_gpu_none_fits = "presales_gpu_none_fits"
    presales_gpu_instead = "presales_gpu_instead"
    language_currency = "language_currency"


class Word(StrEnum):
    """Values of the ledger that are words (shown translated): optimizers, layouts, overheads."""

    adamw = "adamw"
    adamw_adapters = "adamw_adapters"
    adamw_pure_bf16 = "adamw_pure_bf16"
    adamw_fp32_trainable = "adamw_fp32_trainable"
    bitsandbytes = "bitsandbytes"
    hqq = "hqq"
    paged_adamw8bit_adapters = "paged_adamw8bit_adapters"
    dp_attention = "dp_attention"
    context_and_fragmentation = "context_and_fragmentation"
