"""Why a value in the assumption ledger is what it is: stable keys, no language.

Every :class:`~estimator.models.Assumption` names one of these keys (plus parameters, and a
citation kept as written). The bot owns the wording: ``bot/render/ledger_texts.py`` has one
translatable sentence per key, and a test checks that every key here has one. The sources behind
each default are in the docstrings of :mod:`estimator.defaults` and of the modules that use a key.
"""

from __future__ import annotations

from estimator.keys import Keys


class Why(Keys):
    """Keys of the ledger's explanations (and of a few values that are words, not numbers)."""

    # defaults (estimator.defaults)
    deadline_default = "deadline_default"
    seq_len_pretrain = "seq_len_pretrain"
    seq_len_finetune = "seq_len_finetune"
    seq_len_model_context = "seq_len_model_context"
    micro_batch = "micro_batch"
    global_batch_pretrain = "global_batch_pretrain"
    global_batch_finetune = "global_batch_finetune"
    global_batch_finetune_long = "global_batch_finetune_long"
    tokens_per_sample = "tokens_per_sample"
    samples_at_seq_len = "samples_at_seq_len"
    samples_packed = "samples_packed"
    samples_packed_average = "samples_packed_average"
    seq_from_samples = "seq_from_samples"
    seq_packed_default = "seq_packed_default"
    seq_pairs_at_sample_tokens = "seq_pairs_at_sample_tokens"
    seq_at_sample_tokens = "seq_at_sample_tokens"
    seq_max_for_samples = "seq_max_for_samples"
    tokens_per_sample_time = "tokens_per_sample_time"
    seq_max_for_pairs = "seq_max_for_pairs"
    tokens_per_pair_time = "tokens_per_pair_time"
    rollout_engine_share = "rollout_engine_share"
    verl_rollout_share = "verl_rollout_share"
    trl_colocate_share = "trl_colocate_share"
    epochs_finetune = "epochs_finetune"
    lora_rank = "lora_rank"
    lora_targets = "lora_targets"
    freeze_layers = "freeze_layers"
    prefix_tokens = "prefix_tokens"
    serve_context = "serve_context"
    serve_concurrency = "serve_concurrency"
    users_active_share = "users_active_share"
    serve_concurrency_personal = "serve_concurrency_personal"
    serve_concurrency_long_context = "serve_concurrency_long_context"
    vllm_utilization = "vllm_utilization"
    fork_utilization = "fork_utilization"
    own_cards_context = "own_cards_context"
    fork_workspace = "fork_workspace"
    cuda_context = "cuda_context"
    fragmentation = "fragmentation"
    chinchilla = "chinchilla"
    default_gpu = "default_gpu"
    # resolution of the request
    stage_training = "stage_training"
    stage_serving = "stage_serving"
    method_full = "method_full"
    unsloth_default = "unsloth_default"
    flops_per_param_token = "flops_per_param_token"
    compute_optimal_size = "compute_optimal_size"
    budget_max_params = "budget_max_params"
    compute_budget_optimal = "compute_budget_optimal"
    compute_budget_tokens = "compute_budget_tokens"
    release_count = "release_count"
    generic_shape = "generic_shape"
    config_architecture = "config_architecture"
    vision_tower_served = "vision_tower_served"  # estimator.vision: a VL release's tower in its weights
    vision_tower_images = "vision_tower_images"  # s44: served with the requests' images counted
    vision_tower_frozen = "vision_tower_frozen"  # estimator.vision: frozen in fine-tuning (tools' defaults)
    image_tokens = "image_tokens"  # estimator.image_tokens: a VL sample's visual tokens from its resolution
    image_tokens_stated = "image_tokens_stated"  # the user's own tokens an image (s46 review B7)
    image_tokens_fixed = "image_tokens_fixed"  # LLaVA-1.5: 576 visual tokens an image, one resolution (s43)
    image_tokens_request = "image_tokens_request"  # s44: a served request's images in its prompt
    config_architecture_moe = "config_architecture_moe"
    gpu_by_memory = "gpu_by_memory"
    gpu_generic_memory = "gpu_generic_memory"
    generic_personal = "generic_personal"
    personal_one_card = "personal_one_card"
    memory_one_card = "memory_one_card"
    launcher_world_size = "launcher_world_size"
    gpu_memory_only = "gpu_memory_only"
    apple_config = "apple_config"
    mac_chip_assumed = "mac_chip_assumed"
    price_catalog = "price_catalog"
    optimizer = "optimizer"
    quantized_base = "quantized_base"
    flops_freeze = "flops_freeze"
    flops_no_reference = "flops_no_reference"
    flops_no_reference_ppo = "flops_no_reference_ppo"
    rl_completion_default = "rl_completion_default"
    rollout_batch_without_gpus = "rollout_batch_without_gpus"
    trainer_generation_batch = "trainer_generation_batch"
    rl_tool_global_batch = "rl_tool_global_batch"
    trainer_generation_context = "trainer_generation_context"
    trl_rl_seq_len = "trl_rl_seq_len"
    verl_rl_seq_len = "verl_rl_seq_len"
    rl_prompt_default = "rl_prompt_default"
    openrlhf_prompt_default = "openrlhf_prompt_default"
    openrlhf_completion_default = "openrlhf_completion_default"
    verl_prompt_default = "verl_prompt_default"
    verl_completion_default = "verl_completion_default"
    swift_completion_default = "swift_completion_default"
    recompute_flash = "recompute_flash"
    measured_throughput = "measured_throughput"
    known_duration_one_gpu = "known_duration_one_gpu"
    known_duration_serving_gpus = "known_duration_serving_gpus"
    largest_one_gpu = "largest_one_gpu"
    concurrency_asked = "concurrency_asked"
    most_held = "most_held"
    context_asked = "context_asked"
    throughput_target = "throughput_target"
    tokens_chinchilla_assumed = "tokens_chinchilla_assumed"
    largest_generic_shape = "largest_generic_shape"
    largest_trained_shape = "largest_trained_shape"
    gpu_unknown_memory = "gpu_unknown_memory"
    gpu_stated_memory = "gpu_stated_memory"
    gpu_unknown_default = "gpu_unknown_default"
    gpu_family_flagship = "gpu_family_flagship"
    runtime_overhead = "runtime_overhead"
    runtime_overhead_tpu = "runtime_overhead_tpu"
    # MFU (estimator.efficiency)
    mfu_a100 = "mfu_a100"
    mfu_a100_small = "mfu_a100_small"
    mfu_h100 = "mfu_h100"
    mfu_v100 = "mfu_v100"
    mfu_uncalibrated = "mfu_uncalibrated"
    mfu_cdna3 = "mfu_cdna3"  # MI300X at the H100's per-GPU throughput (estimator.efficiency, s42)
    mfu_moe = "mfu_moe"
    mfu_fine_moe = "mfu_fine_moe"
    mfu_small = "mfu_small"
    mfu_calibrated = "mfu_calibrated"
    mfu_interval = "mfu_interval"
    mfu_interval_tuned = "mfu_interval_tuned"
    mfu_interval_tuned_small = "mfu_interval_tuned_small"
    mfu_scale_out = "mfu_scale_out"
    mfu_scale_out_memory = "mfu_scale_out_memory"
    zero3_comm = "zero3_comm"
    recompute_time = "recompute_time"
    offload_time = "offload_time"
    host_ram_buffer = "host_ram_buffer"  # DeepSpeed's estimator: B/param × additional_buffer_factor (s40)
    recompute_time_fewest = "recompute_time_fewest"
    recompute_time_below = "recompute_time_below"
    recompute_time_shown = "recompute_time_shown"  # the recommended count shown recomputes too (s42)
    recompute_time_stated = "recompute_time_stated"
    recompute_time_every = "recompute_time_every"
    hours_per_day_stated = "hours_per_day_stated"
    verl_train_batch_default = "verl_train_batch_default"
    tool_default_zero = "tool_default_zero"
    tool_no_sharding = "tool_no_sharding"
    tool_default_recompute = "tool_default_recompute"
    tool_recompute_off = "tool_recompute_off"
    mfu_interval_wider = "mfu_interval_wider"
    mfu_fp8 = "mfu_fp8"
    mfu_qlora = "mfu_qlora"
    mfu_eager_moe = "mfu_eager_moe"
    mfu_quantized_base_unmodelled = "mfu_quantized_base_unmodelled"
    fp8_training = "fp8_training"
    int8_training = "int8_training"
    # serving (estimator.serving)
    release_precision = "release_precision"
    release_fp8_as_bf16 = "release_fp8_as_bf16"
    fp16_no_bf16 = "fp16_no_bf16"
    reasoning_context = "reasoning_context"
    runtime_default_context = "runtime_default_context"
    serve_context_model_window = "serve_context_model_window"  # the default capped at the window (s49)
    local_format = "local_format"
    fp8_on_count = "fp8_on_count"
    ollama_default_tag = "ollama_default_tag"
    ollama_slots = "ollama_slots"  # concurrency > 1 on Ollama: OLLAMA_NUM_PARALLEL slots (s40 fixs #2)
    ollama_num_parallel = "ollama_num_parallel"  # one sequence: Ollama's OLLAMA_NUM_PARALLEL default 1
    host_experts_q4 = "host_experts_q4"
    total_memory_as_sold = "total_memory_as_sold"
    unified_memory = "unified_memory"  # Apple silicon: Metal's recommendedMaxWorkingSetSize
    unified_memory_amd = "unified_memory_amd"  # Strix Halo: AMD Variable Graphics Memory's share (s48)
    unified_memory_nvidia = "unified_memory_nvidia"  # DGX Spark, Jetson: CUDA on shared memory (s48)
    local_no_cap = "local_no_cap"
    vllm_workspace = "vllm_workspace"
    vllm_workspace_batched = "vllm_workspace_batched"  # max_num_batched_tokens set (s46 trial #8)
    vllm_workspace_vision = "vllm_workspace_vision"  # s47: V1 profiles a VL model's encoder too
    prefill_fitted = "prefill_fitted"
    prefill_tp = "prefill_tp"
    prefill_power_capped = "prefill_power_capped"
    local_workspace = "local_workspace"
    sglang_mem_fraction = "sglang_mem_fraction"
    sglang_workspace = "sglang_workspace"
    lmdeploy_workspace = "lmdeploy_workspace"
    tgi_workspace = "tgi_workspace"
    exllama_workspace = "exllama_workspace"
    transformers_no_cap = "transformers_no_cap"
    transformers_workspace = "transformers_workspace"
    mla_dp_attention = "mla_dp_attention"
    mla_tp_copies = "mla_tp_copies"
    mla_sglang_default = "mla_sglang_default"
    mla_vllm_default = "mla_vllm_default"
    dsa_indexer_cache = "dsa_indexer_cache"
    # filled before estimating (bot.core.pipeline)
    chat_settings = "chat_settings"
    presales_prices = "presales_prices"
    presales_monthly = "presales_monthly"
    presales_exchange = "presales_exchange"
    presales_gpu = "presales_gpu"
    presales_gpu_none_fits = "presales_gpu_none_fits"
    presales_gpu_instead = "presales_gpu_instead"
    language_currency = "language_currency"
    previous_answer_load = "previous_answer_load"  # a follow-up that changes only the card (bot.core)
    budget_pick = "budget_pick"  # the weights a budget per period picks (bot.core.budget_lead, s30)
    request_volume_daily = "request_volume_daily"  # Little's law on a daily volume (estimator.request_volume)
    request_volume_hourly = "request_volume_hourly"
    token_volume_daily = "token_volume_daily"  # a day's tokens as the busiest hour's throughput (s44)
    token_volume_hourly = "token_volume_hourly"
    volume_concurrency = "volume_concurrency"
    rate_concurrency = "rate_concurrency"  # Little's law on the layout sized (estimator.rate_load, s43)
    tokens_per_request_default = "tokens_per_request_default"
    previous_answer_weights = "previous_answer_weights"  # a context-only follow-up (bot.core.carried_load)
    compared_load = "compared_load"  # every option of a comparison at one load (bot.core.compared_load)
    budget_finetune_data = "budget_finetune_data"  # a fine-tuning budget, no data (bot.core.budget_finetune)


class Word(Keys):
    """Values of the ledger that are words (shown translated): optimizers, layouts, overheads."""

    adamw = "adamw"
    adamw_adapters = "adamw_adapters"
    adamw_pure_bf16 = "adamw_pure_bf16"
    adamw_fp32_trainable = "adamw_fp32_trainable"
    bitsandbytes = "bitsandbytes"
    hqq = "hqq"
    paged_adamw8bit_adapters = "paged_adamw8bit_adapters"
    dp_attention = "dp_attention"
    tp_copies = "tp_copies"
    context_and_fragmentation = "context_and_fragmentation"
