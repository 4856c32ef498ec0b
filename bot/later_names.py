"""Functions of bot modules imported on their first call (issue 23 item 7, ``sizing-bot ask`` start-up):
:class:`estimator.later.Later` stand-ins for modules at the 500-line or 80-line cap (tests/test_layout.py)
that call readers a plain question never reaches (each reader's import cost ~0.3M instructions on every
start, callgrind, session 30). Each name rebinds itself in the calling module on its first call.
"""

from __future__ import annotations

from estimator.later import LaterNames, later

BOT: dict[str, tuple[str, ...]] = {
    "bot.core.context_followup": ("asks_carried",),
    "bot.core.scaled_followup": ("scaled_followup",),
    "bot.core.start_only": ("start_only",),
    "bot.core.unused_local": ("offload_unused", "setting_text", "unused_ep", "unused_images", "unused_local"),
    "bot.parse.active_name": ("active_in_name",),
    "bot.parse.asked_precision": ("asked_format",),
    "bot.parse.brackets": ("earlier_in_brackets",),
    "bot.parse.called_card": ("called_card",),
    "bot.parse.card_slots": ("card_slots",),
    "bot.parse.card_variants": ("card_variants",),
    "bot.parse.carried_unit": ("carried_unit_total",),
    "bot.parse.configs.commented": ("prose_commented",),
    "bot.parse.configs.vocab": ("known",),
    "bot.parse.family_version": ("release_name", "size_names", "sizes_line"),
    "bot.parse.gpu_kinds": ("kinds_of_cards",),
    "bot.parse.grpo_tools": ("grpo_tool_algorithm", "vllm_rollout_codebase"),
    "bot.parse.hyper_names": ("hyper_item",),
    "bot.parse.kilo_memory": ("kilobytes_as_gib",),
    "bot.parse.later_single": ("earlier_single",),
    "bot.parse.listed_cards": ("listed_count",),
    "bot.parse.load_change": ("load_change",),
    "bot.parse.load_forms": ("load_forms",),
    "bot.parse.memory_shown": ("per_card_total",),
    "bot.parse.network_ports": ("network_ports",),
    "bot.parse.notebook_gpus": ("notebook_gpus",),
    "bot.parse.now_rate": ("rate_why",),
    "bot.parse.option_counts": ("option_counts",),
    "bot.parse.option_prices": ("option_prices",),
    "bot.parse.other_stage_rate": ("other_stage_rate",),
    "bot.parse.per_million": ("mask_per_million",),
    "bot.parse.personal_training": ("personal_card_tuning",),
    "bot.parse.port_names": ("drop_port_stems", "port_tools"),
    "bot.parse.reasoning_words": ("without_reasoning",),
    "bot.parse.role_split": ("role_split",),
    "bot.parse.rollout_share": ("rollout_share",),
    "bot.parse.rounded_context": ("rounded_beside",),
    "bot.parse.run_durations": ("past_run_duration",),
    "bot.parse.script_reads": ("script_reads",),
    "bot.parse.served_adapters": ("served_adapters",),
    "bot.parse.shared_value": ("spread_shared_value",),
    "bot.parse.shouted": ("unshouted", "with_typed_case"),
    "bot.parse.size_words": ("drop_size_word",),
    "bot.parse.slash_memory": ("slash_options",),
    "bot.parse.tool_generation": ("generating_with_tool",),
    "bot.parse.transformers_version": ("read_transformers",),
    "bot.parse.version_context": ("with_named_version",),
    "bot.render.budget_pick_text": ("budget_pick_line", "rows_within"),
    "bot.render.calendar_text": ("calendar_line",),
    "bot.render.context_rows": ("context_rows",),
    "bot.render.fp16_cards": ("fp16_mark",),
    "bot.render.per_money": ("per_money_line",),
    "bot.render.ttft_target": ("ttft_target",),
    "bot.render.serving_memory_first": ("mem_first",),
    "bot.render.steps_text": ("budget_steps",),
    "bot.parse.batch_asked": ("asks_batch",),
    "bot.parse.epochs_asked": ("asks_epochs",),
    "bot.parse.memory_asked": ("asks_memory", "asks_throughput", "asks_usable"),
    "bot.parse.withheld": ("other_model_reason", "role_reason", "unread_reason"),
    "bot.parse.x_card_name": ("x_is_name",),
    "bot.parse.configs.stack_host": ("host_beside_command",),
    "bot.render.unknown_card": ("family_head", "unknown_card_head"),
    "bot.parse.draft_model": ("spec_config_read",),
    "bot.parse.keyed_values": ("keyed",),
    "bot.parse.ram_offered": ("offered_ram",),
    "bot.parse.counted_numbers": ("card_hours", "counted_number"),
    "bot.parse.foreign_money": ("foreign_money",),
    "bot.parse.listed_outputs": ("listed_output",),
    "bot.parse.retrieval_models": ("retrieval_named",),
    "bot.render.kv_pool_text": ("engine_limit", "kv_lines"),
    "bot.parse.expert_degree": ("expert_degree",),
    "bot.parse.group_size": ("blank_group_sizes",),
    "bot.parse.keyed_twice": ("other_card_clause", "other_setups"),
    "bot.parse.machine_memory": ("machine_total",),
    "bot.parse.rope_factor": ("rope_read",),
}
"""module → the names of it the capped modules import from here (tests/test_startup_s30.py checks each is
a function of that module)."""

(asks_carried,) = later("bot.core.context_followup", "asks_carried")
offload_unused, setting_text, unused_ep, unused_images, unused_local = later(
    "bot.core.unused_local", "offload_unused", "setting_text", "unused_ep", "unused_images", "unused_local"
)  # settings a report did not use: bot.core.interpretation (s42-speed; s48: a stated training EP)
(scaled_followup,) = later("bot.core.scaled_followup", "scaled_followup")
(start_only,) = later("bot.core.start_only", "start_only")
(earlier_in_brackets,) = later("bot.parse.brackets", "earlier_in_brackets")
(carried_unit_total,) = later("bot.parse.carried_unit", "carried_unit_total")
(prose_commented,) = later("bot.parse.configs.commented", "prose_commented")
(known,) = later("bot.parse.configs.vocab", "known")
grpo_tool_algorithm, vllm_rollout_codebase = later(
    "bot.parse.grpo_tools", "grpo_tool_algorithm", "vllm_rollout_codebase"
)
(hyper_item,) = later("bot.parse.hyper_names", "hyper_item")
(load_forms,) = later("bot.parse.load_forms", "load_forms")
(per_card_total,) = later("bot.parse.memory_shown", "per_card_total")
(option_counts,) = later("bot.parse.option_counts", "option_counts")
(option_prices,) = later("bot.parse.option_prices", "option_prices")
(personal_card_tuning,) = later("bot.parse.personal_training", "personal_card_tuning")
(other_stage_rate,) = later("bot.parse.other_stage_rate", "other_stage_rate")
(role_split,) = later("bot.parse.role_split", "role_split")
(rollout_share,) = later("bot.parse.rollout_share", "rollout_share")
(past_run_duration,) = later("bot.parse.run_durations", "past_run_duration")
(generating_with_tool,) = later("bot.parse.tool_generation", "generating_with_tool")
unshouted, with_typed_case = later("bot.parse.shouted", "unshouted", "with_typed_case")
(drop_size_word,) = later("bot.parse.size_words", "drop_size_word")
(with_named_version,) = later("bot.parse.version_context", "with_named_version")
(context_rows,) = later("bot.render.context_rows", "context_rows")  # serving answers only (s41)

# s42-speed: readers and texts a plain question never reaches, imported on first call
(called_card,) = later("bot.parse.called_card", "called_card")
(notebook_gpus,) = later("bot.parse.notebook_gpus", "notebook_gpus")
(card_variants,) = later("bot.parse.card_variants", "card_variants")
(without_reasoning,) = later("bot.parse.reasoning_words", "without_reasoning")
(rounded_beside,) = later("bot.parse.rounded_context", "rounded_beside")
(mask_per_million,) = later("bot.parse.per_million", "mask_per_million")
(budget_steps,) = later("bot.render.steps_text", "budget_steps")
release_name, size_names, sizes_line = later(
    "bot.parse.family_version", "release_name", "size_names", "sizes_line"
)
(fp16_mark,) = later("bot.render.fp16_cards", "fp16_mark")
(mem_first,) = later("bot.render.serving_memory_first", "mem_first")
(rate_why,) = later("bot.parse.now_rate", "rate_why")
(script_reads,) = later("bot.parse.script_reads", "script_reads")
(spread_shared_value,) = later("bot.parse.shared_value", "spread_shared_value")
(read_transformers,) = later("bot.parse.transformers_version", "read_transformers")
(card_slots,) = later("bot.parse.card_slots", "card_slots")
(load_change,) = later("bot.parse.load_change", "load_change")
(kinds_of_cards,) = later("bot.parse.gpu_kinds", "kinds_of_cards")
drop_port_stems, port_tools = later("bot.parse.port_names", "drop_port_stems", "port_tools")
(slash_options,) = later("bot.parse.slash_memory", "slash_options")
(served_adapters,) = later("bot.parse.served_adapters", "served_adapters")
(network_ports,) = later("bot.parse.network_ports", "network_ports")
(asked_format,) = later("bot.parse.asked_precision", "asked_format")
(kilobytes_as_gib,) = later("bot.parse.kilo_memory", "kilobytes_as_gib")  # s49: '1056501432 kB' of RAM
(active_in_name,) = later("bot.parse.active_name", "active_in_name")
budget_pick_line, rows_within = later("bot.render.budget_pick_text", "budget_pick_line", "rows_within")
(calendar_line,) = later("bot.render.calendar_text", "calendar_line")

# s43-speed: more readers a plain question never calls (cue-gated at their call sites), on first call
(asks_batch,) = later("bot.parse.batch_asked", "asks_batch")
(asks_epochs,) = later("bot.parse.epochs_asked", "asks_epochs")  # s43 fixjob: '能跑几轮' with a budget
asks_memory, asks_throughput, asks_usable = later(
    "bot.parse.memory_asked", "asks_memory", "asks_throughput", "asks_usable"
)
other_model_reason, role_reason, unread_reason = later(
    "bot.parse.withheld", "other_model_reason", "role_reason", "unread_reason"
)
(x_is_name,) = later("bot.parse.x_card_name", "x_is_name")
(host_beside_command,) = later("bot.parse.configs.stack_host", "host_beside_command")
family_head, unknown_card_head = later("bot.render.unknown_card", "family_head", "unknown_card_head")
# s44 merge: three readers gated at their calls ('speculative-config', an unread number, '够')
(spec_config_read,) = later("bot.parse.draft_model", "spec_config_read")
(keyed,) = later("bot.parse.keyed_values", "keyed")
(per_money_line,) = later("bot.render.per_money", "per_money_line")  # s46 #11: tokens per $1 asked
(ttft_target,) = later("bot.render.ttft_target", "ttft_target")  # a first-token target named
(offered_ram,) = later("bot.parse.ram_offered", "offered_ram")
(link_asked,) = later("bot.parse.link_compare", "link_asked")  # s49: 'does NVLink matter' (side_phrases)

LATE = LaterNames(
    {
        "bot.parse.configs.limits": (
            "CTX_SIZE_RE",
            "kv_error",
            "LIMIT_AFTER_RE",
            "LIMIT_RE",
            "limit_value",
            "quant_flag",
            "typed_key",
        ),
        "bot.parse.param_offload": ("PARAM_OFFLOAD_RE",),
        "bot.parse.gpu_cores": ("gpu_cores",),  # s50 leftovers #6 (bot.parse.count_forms)
        "bot.parse.rl_words": (
            "COMPLETION_AFTER_RE",
            "COMPLETION_RE",
            "QUANT_GROUP_RE",
            "RL_GENERATION_GROUPS",
            "group_span",
            "RL_GENERATIONS_RE",
        ),
        "bot.parse.vendor_counts": ("VENDOR_COUNT_RE", "count_and_unit"),
        "bot.render.local_layout": ("GGUF_NAMES", "local_layout"),
    }
)
"""Names (functions, patterns, tables) of modules a plain question never reaches, read as ``LATE.name`` by
the capped modules that use them (prose_vocab, count_forms, serving_text): each module is imported on the
first read of one of its names, which then stays on the object. A pattern read this way is the module's
compiled pattern as first read (the presence gates bound on a second message, bot.parse.module_gates, are
speed only: every answer is the pattern's)."""

# s46 merge: readers and a serving text the plain question never reaches, on first call (`ask` start-up)
card_hours, counted_number = later("bot.parse.counted_numbers", "card_hours", "counted_number")
(foreign_money,) = later("bot.parse.foreign_money", "foreign_money")
(listed_output,) = later("bot.parse.listed_outputs", "listed_output")
(retrieval_named,) = later("bot.parse.retrieval_models", "retrieval_named")
engine_limit, kv_lines = later("bot.render.kv_pool_text", "engine_limit", "kv_lines")

# s47 merge: the session's readers a plain question never reaches, imported on first call
(expert_degree,) = later("bot.parse.expert_degree", "expert_degree")
other_card_clause, other_setups = later("bot.parse.keyed_twice", "other_card_clause", "other_setups")
(machine_total,) = later("bot.parse.machine_memory", "machine_total")
(rope_read,) = later("bot.parse.rope_factor", "rope_read")
(blank_group_sizes,) = later("bot.parse.group_size", "blank_group_sizes")
(earlier_single,) = later("bot.parse.later_single", "earlier_single")  # s50: '单张 … 后来 8 张卡'
(listed_count,) = later("bot.parse.listed_cards", "listed_count")  # s50: 'A、B 和 C 三块卡'
