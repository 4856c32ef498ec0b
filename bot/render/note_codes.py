"""The codes of the notes (warnings) the reply words: one member per code the estimator and the
pipeline put on a report (``Note.code``, a string in the JSON contract) and the renderer has a sentence
for (:data:`bot.render.wording.NOTE_MESSAGES`, keyed by these members).

A ``StrEnum``: a member equals its string, so ``note.code == NoteCode.tiny_job`` and lookups by the
plain string a report carries work unchanged. ``tests/test_note_codes.py`` checks the two directions:
every code the estimator writes literally has a member, and every member has a sentence.
"""

from __future__ import annotations

from enum import StrEnum


class NoteCode(StrEnum):
    """A note the reply words (in the order of :data:`bot.render.wording.NOTE_MESSAGES`)."""

    global_batch_adjusted = "global_batch_adjusted"
    below_chinchilla = "below_chinchilla"
    tiny_job = "tiny_job"
    huge_job = "huge_job"
    mfu_outside_band = "mfu_outside_band"
    gpu_no_bf16 = "gpu_no_bf16"
    consumer_no_nvlink = "consumer_no_nvlink"
    memory_tight = "memory_tight"
    does_not_fit_requested = "does_not_fit_requested"
    deadline_missed = "deadline_missed"
    deadline_missed_hours = "deadline_missed_hours"
    budget_max_params = "budget_max_params"
    total_memory_yes = "total_memory_yes"
    total_memory_borderline = "total_memory_borderline"
    total_memory_no = "total_memory_no"
    no_fit = "no_fit"
    no_fit_stated = "no_fit_stated"
    moe_active_params = "moe_active_params"
    samples_to_tokens = "samples_to_tokens"
    pairs_to_tokens = "pairs_to_tokens"
    tp_across_nodes = "tp_across_nodes"
    unknown_gpu_assumed = "unknown_gpu_assumed"
    personal_beyond_one_machine = "personal_beyond_one_machine"
    generic_shape_mha = "generic_shape_mha"
    generic_gpu_no_time = "generic_gpu_no_time"
    known_duration = "known_duration"
    recompute_chosen = "recompute_chosen"
    vllm_refuses = "vllm_refuses"
    vllm_starts_at_max_utilization = "vllm_starts_at_max_utilization"
    implied_mfu = "implied_mfu"
    duration_impossible = "duration_impossible"
    measured_above_peak = "measured_above_peak"
    pipeline_across_nodes = "pipeline_across_nodes"
    beyond_context_window = "beyond_context_window"
    stated_layout_too_small = "stated_layout_too_small"
    stated_layout_needs_more = "stated_layout_needs_more"
    engine_reserve_short = "engine_reserve_short"
    max_model_len_from_model = "max_model_len_from_model"
    tokens_assumed_chinchilla = "tokens_assumed_chinchilla"
    duration_needs_data = "duration_needs_data"
    over_budget = "over_budget"
    within_budget = "within_budget"
    budget_borderline = "budget_borderline"
    budget_no_price = "budget_no_price"
    serving_within_budget = "serving_within_budget"
    serving_over_budget = "serving_over_budget"
    serving_budget_borderline = "serving_budget_borderline"
    serving_budget_months = "serving_budget_months"
    serving_budget_no_price = "serving_budget_no_price"
    concurrency_limited_assumed = "concurrency_limited_assumed"
    tp_over_pcie = "tp_over_pcie"
    concurrency_limited = "concurrency_limited"
    no_price = "no_price"
    throughput_short = "throughput_short"
    throughput_copies = "throughput_copies"
    pp_bubble = "pp_bubble"
    fp8_not_supported = "fp8_not_supported"
    fp8_serving_16bit = "fp8_serving_16bit"
    fp8_weights_unsupported = "fp8_weights_unsupported"
    measured_mfu_unusual = "measured_mfu_unusual"
    fp8_no_faster = "fp8_no_faster"
    int8_not_supported = "int8_not_supported"
