"""Issue 23 item 7, ``sizing-bot ask`` start-up (session 30): the modules a plain question runs no
function of (61 of them: parse readers for cues the question lacks, follow-up and serving helpers,
launcher-config readers, render texts of other answers) are imported where they are called, or through
:class:`estimator.later.Later` / :class:`estimator.later.LaterNames` from the modules at the line caps,
and still answer the questions that need them."""

from __future__ import annotations

import importlib
import inspect
import types

import pytest

from bot import later_names
from estimator import later
from tests.startup_probe import ask_loaded

DEFERRED = (
    "bot.parse.expert_degree", "bot.parse.group_size", "bot.parse.keyed_twice", "bot.parse.machine_memory",
    "bot.parse.rope_factor", "bot.parse.architectures", "bot.parse.software_versions",
    "bot.parse.configs.limits", "bot.parse.param_offload", "bot.parse.rl_words", "bot.parse.vendor_counts",
    "bot.render.local_layout", "bot.parse.machines_asked", "estimator.eager_unstated",
    "bot.core.context_followup", "bot.core.followup_cost", "bot.core.scaled_followup",
    "bot.core.start_only", "bot.parse.accelerator_family", "bot.parse.bare_length", "bot.parse.brackets",
    "bot.parse.card_memory", "bot.parse.carried_unit", "bot.parse.configs.abbrev",
    "bot.parse.configs.accelerate_flags", "bot.parse.configs.commented", "bot.parse.configs.device_lists",
    "bot.parse.configs.ggml_kv", "bot.parse.configs.positional", "bot.parse.configs.prose_change",
    "bot.parse.configs.script_tool", "bot.parse.configs.serve_gpus", "bot.parse.configs.vocab",
    "bot.parse.configs.xinference", "bot.parse.grpo_tools", "bot.parse.laptop_note", "bot.parse.load_forms",
    "bot.parse.memory_shown", "bot.parse.option_counts", "bot.parse.option_prices",
    "bot.parse.other_stage_rate", "bot.parse.param_logs", "bot.parse.power_price",
    "bot.parse.respective_prices", "bot.parse.rig_unknown", "bot.parse.role_split",
    "bot.parse.rollout_share", "bot.parse.run_durations", "bot.parse.scaled_run", "bot.parse.teacher_model",
    "bot.parse.tool_slots", "bot.parse.version_context", "bot.parse.works_fine", "bot.recipes.flags",
    "bot.parse.pip_extras", "bot.parse.asked_single", "bot.parse.later_single",
    "bot.parse.listed_cards",
    "bot.render.budget_run_text", "bot.render.laptop_text", "bot.render.rate_text",
    "bot.render.second_stage", "estimator.adapter_states", "estimator.gpu_families", "estimator.host_ddr",
    "estimator.mac_devices", "estimator.methods", "estimator.recompute_default", "estimator.mla_layout",
    "estimator.offload_time",
    "estimator.pcie_layout", "estimator.serving_budget", "estimator.serving_capacity",
    "estimator.serving_schedule", "estimator.throughput_target",
    # s43-speed: through later() stand-ins (bot.later_names, estimator.later.later in the callers)
    "bot.parse.batch_asked", "bot.parse.memory_asked", "bot.parse.withheld", "bot.parse.x_card_name",
    "bot.parse.configs.stack_host", "bot.render.unknown_card", "estimator.attention_scores",
    "estimator.late_gradients", "estimator.sample_padding",
    # s44 merge: this session's readers a plain question never reaches
    "bot.parse.draft_model", "bot.parse.keyed_values", "bot.parse.ram_offered", "bot.parse.cloud_providers",
    # s45-speed: whole-message readers whose gates bot.parse declares
    "bot.parse.stage_rigs", "bot.parse.eval_cards", "bot.parse.echoed_values", "bot.parse.sample_range",
    "bot.parse.other_card_job", "bot.parse.gpu_cores",  # s50 leftovers #3, #6
    "bot.parse.cores_memory",  # s51 leftovers #1
    # s46 merge: this session's readers and a serving text, through bot.later_names
    "bot.parse.counted_numbers", "bot.parse.foreign_money", "bot.parse.listed_outputs",
    "bot.parse.retrieval_models", "bot.render.kv_pool_text",
    # s48-startup: readers and helpers a plain question never calls, through later() beside their callers
    "bot.parse.configs.demo_datasets", "bot.parse.load_range", "bot.parse.others_run",
    "bot.parse.sci_numbers", "bot.parse.slot_words", "bot.render.fp8_swap", "bot.render.sized_split",
    "estimator.kv_types", "estimator.least_memory", "estimator.load_cost", "estimator.serving_group",
    "estimator.trainer_decode", "shlex",
    # s48 merge: the not-used reasons' words, imported where an item is worded (bot.render.understood)
    "bot.render.ignored_texts", "bot.render.cluster_rate_texts", "bot.render.read_texts",
    "bot.render.seq_typed_text", "bot.render.serve_flag_texts", "bot.render.serving_load_texts",
    "bot.render.side_model_texts", "bot.render.script_texts",
    # s49 r45en: a size in kilobytes, read through bot.later_names when 'kb' is in the text
    "bot.parse.kilo_memory",
    # s50-startup: three length readers behind their gates (bot.parse.length_gates), later() in more_roles
    "bot.parse.long_context", "bot.parse.doc_length", "bot.parse.too_long",
)  # fmt: skip


def test_a_plain_question_imports_none_of_them() -> None:
    reply, loaded = ask_loaded(DEFERRED, "7B模型1万亿token要多少A100")
    assert "A100" in reply and loaded == []


@pytest.mark.parametrize(
    ("question", "needed", "said"),
    [
        # a throughput target: the serving helpers behind estimator.later.LATE
        ("serve Llama-3-70B on 4 H100 with vLLM, 2000 tokens/s", "estimator.throughput_target", "H100"),
        # a DeepSeek MLA model on vLLM: its KV layout
        ("serve DeepSeek-V3 on 16 H200 with vLLM", "estimator.mla_layout", "H200"),
        # a launcher line: the vLLM flag readers
        (
            "vllm serve Qwen/Qwen2.5-72B-Instruct --tensor-parallel-size 4 on A100",
            "bot.parse.configs.vocab",
            "A100",
        ),
        # a value not used: its reason's words (s48 merge)
        ("Llama 3 8B LoRA on 2 A100, the server listens on port 8080", "bot.render.ignored_texts", "8080"),
    ],
)
def test_a_question_that_needs_one_loads_it(question: str, needed: str, said: str) -> None:
    reply, loaded = ask_loaded((needed,), question)
    assert said in reply and loaded == [needed]


@pytest.mark.parametrize(
    ("table", "where"),
    [(later_names.BOT, later_names), (later.ESTIMATOR, later.LATE)],
    ids=["bot", "estimator"],
)
def test_each_stand_in_names_a_function_of_its_module(
    table: dict[str, tuple[str, ...]], where: object
) -> None:
    for module, names in table.items():
        for name in names:
            real = getattr(importlib.import_module(module), name)
            assert inspect.isfunction(real) and real.__module__ == module, (module, name)
            got = getattr(where, name)
            assert got is real or (isinstance(got, later.Later) and (got.module, got.name) == (module, name))


def test_a_stand_in_imports_on_first_call_then_gets_out_of_the_way() -> None:
    space = types.ModuleType("caller")
    (stand_in,) = later.later("bot.parse.role_split", "role_split")
    space.split = stand_in  # any name: the caller's globals holding the stand-in are rebound
    exec("def call(s):\n    return split(s)\n", vars(space))
    text = "8 张 H100，2 张做推理，6 张训练"
    first = space.call(text)
    real = importlib.import_module("bot.parse.role_split").role_split
    assert space.split is real  # rebound in the caller: later calls go straight to it
    assert first == real(text) == space.call(text) == "8 张 H100，8 张卡 ，其中 2 卡给 rollout ，6 张训练 "
    assert repr(stand_in) == "Later(bot.parse.role_split.role_split)"


def test_later_names_reads_once_and_refuses_unknown_names() -> None:
    names = later.LaterNames({"estimator.serving_schedule": ("on_schedule",)})
    real = importlib.import_module("estimator.serving_schedule").on_schedule
    assert names.on_schedule is real and vars(names)["on_schedule"] is real  # stored: no __getattr__ again
    with pytest.raises(AttributeError):
        names.reach_target  # noqa: B018


def test_bot_late_names_are_those_of_their_modules() -> None:
    modules = vars(later_names.LATE)["_modules"]
    # s34-gen: written_settings.name_suffix (the quantize call after a word); s35-r30en: limits.kv_error
    assert len(modules) == 19  # s50 leftovers #6: gpu_cores.gpu_cores (bot.parse.count_forms)
    for name, module in modules.items():
        assert getattr(later_names.LATE, name) is getattr(importlib.import_module(module), name), name
