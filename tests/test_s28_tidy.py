"""s28-tidy: one function per job (review M2 and the s28 leftovers), friendlier edges (fresh-user trial)."""

from __future__ import annotations

import inspect

import pytest

from estimator import training_setup
from estimator.models import Algorithm, Method, SizingRequest
from estimator.trainer_generation import generation_batch


def _rl(**kw) -> SizingRequest:
    return SizingRequest(**{"algorithm": Algorithm.grpo, "method": Method.lora, "gpu_count": 8, **kw})


def test_the_tools_per_step_batch_has_one_source():
    """Review M2: the TRL / ms-swift per-GPU step is the generation batch's rule, not a second copy of it."""
    source = inspect.getsource(training_setup._tool_step)
    assert "req.batch_size" not in source and "PER_DEVICE_DEFAULT.get" not in source
    assert "generation_batch(" in source
    # TRL's transformers default 8 a GPU, ms-swift's own 1 (estimator.trainer_generation.PER_DEVICE_DEFAULT)
    assert (
        training_setup._tool_step(_rl(training_tool="TRL"))
        == 8
        == generation_batch(_rl(training_tool="TRL")).per_rank
    )
    assert training_setup._tool_step(_rl(training_tool="ms-swift")) == 1
    assert training_setup._tool_step(_rl(training_tool="TRL", batch_size=2)) == 2
    # a stated global batch is the plan's to spread: no fixed per-GPU step
    assert training_setup._tool_step(_rl(training_tool="TRL", global_batch=64)) is None
    # ms-swift's PPO accumulates (swift/trainers/arguments.py L283–285); no GPU count: no per-GPU step
    assert training_setup._tool_step(_rl(training_tool="ms-swift", algorithm=Algorithm.ppo)) is None
    assert training_setup._tool_step(SizingRequest(algorithm=Algorithm.grpo, training_tool="TRL")) is None
    assert training_setup._tool_step(_rl(training_tool="verl")) is None


def test_a_load_under_a_ceiling_word_has_one_reader():
    """'并发量不到 50', '并发数只有 20', '并发数最多 12': load_forms.CONC_CEILING_RE writes each in key form;
    role_left.L_CONC reads only that key form (before, both read '并发数…不到 50')."""
    from bot.parse.load_forms import load_forms
    from bot.parse.role_left import L_CONC

    for before in ("并发量不到 ", "并发数只有 ", "并发数最多 ", "并发量能达到 "):
        assert L_CONC.search(before) is None
    assert load_forms("单卡能撑的并发量不到 50，正常吗") == "单卡能撑的并发量 50，正常吗"
    assert load_forms("并发数只有 20，怎么提升") == "并发数 20，怎么提升"
    assert load_forms("并发数最多 12") == "并发数 12"
    assert load_forms("a concurrency of under 50") == "a concurrency 50"
    assert load_forms("延迟不到 50 ms，并发 8") == "延迟不到 50 ms，并发 8"
    assert L_CONC.search("并发量 ") is not None


def test_the_boolean_config_keys_share_one_handler_factory():
    """rl_handlers: one ``_bool_field(name)`` for the boolean keys (five copies before)."""
    from bot.parse.configs import rl_handlers
    from bot.parse.configs.model import StackConfig

    assert not any(
        hasattr(rl_handlers, n) for n in ("_sleep_bool", "_packing", "_chunked_loss", "_gather_bool")
    )
    for conversion, field in rl_handlers.BOOL_FIELDS.items():
        handler = rl_handlers.RL_HANDLERS[conversion]
        assert handler.__name__ == f"_bool_{field}"
        cfg = StackConfig(tool="trl", format="yaml")
        assert handler(cfg, "key", "false", {}) is True and cfg.values[field] is False
        assert handler(cfg, "key", "maybe", {}) is False  # no boolean: not read


def test_the_modules_near_the_line_limit_are_split_by_job():
    """estimator/plan.py (495 lines) and bot/render/memory_text.py (496) near tests/test_layout.py's 500: the
    alternatives' search and the batch lines live in modules of their own, with room left in both."""
    from pathlib import Path

    from bot.render import batch_text, memory_text
    from estimator import plan, plan_alternatives

    assert plan._alternatives.__module__ == plan_alternatives.__name__
    assert plan._kept_shared is plan_alternatives._kept_shared
    assert memory_text.stated_batch_text.__module__ == batch_text.__name__
    assert not hasattr(memory_text, "_batch") and not hasattr(memory_text, "STATED_BATCH_UNFIT")
    for module in (plan, memory_text):
        assert len(Path(module.__file__).read_text(encoding="utf-8").splitlines()) <= 450


def _answer(question: str) -> dict:
    import json

    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


@pytest.mark.parametrize(
    ("question", "typed", "used", "line"),
    [
        ("Serve Llama-3-70B on a DGX H100", "DGX H100", "8", "Read “DGX H100” as 8 GPUs"),
        (
            "在一台 DGX A100 上全参微调 Llama-3-8B 要多久，数据 1B token",
            "DGX A100",
            "8",
            "把“DGX A100”理解为 8 张卡",
        ),
        (
            "Pretrain a 7B model on 1T tokens on 2 DGX H100 nodes",
            "2 × DGX H100",
            "2 × 8 = 16",
            "as 2 × 8 = 16 GPUs",
        ),
        ("一台8卡服务器部署Qwen2.5-72B", "8卡服务器", "8", "把“8卡服务器”理解为 8 张卡"),
    ],
)
def test_a_count_from_a_systems_slots_is_said(question: str, typed: str, used: str, line: str) -> None:
    """Review L1: a GPU count read from a DGX/HGX system (8 GPUs each: NVIDIA DGX H100/A100 user guides) or
    a chassis by its slots is said in the reply, not sized silently."""
    answer = _answer(question)
    assert {
        "typed": typed,
        "used": used,
        "reason": "dgx_gpus" if "GX" in typed else "chassis_gpus",
    } in answer["interpretation"]["substitutions"]
    assert line in answer["reply"]


def test_a_count_said_outright_names_no_slots() -> None:
    answer = _answer("Serve Llama-3-70B on 8 H100s")
    assert answer["request"]["gpu_count"] == 8 and answer["interpretation"]["substitutions"] == []
    # the slots are not the cards said (s27 chassis_slots): no slot reading to name
    assert (
        _answer("我们有一台 8 卡服务器，插了 4 张 A100，部署 Llama-3-70B")["interpretation"]["substitutions"]
        == []
    )


@pytest.mark.parametrize(
    ("question", "typed", "field", "value"),
    [
        (
            "Fine-tune Llama-3-8B with LoRA on 2 A100, 1B tokens\n# --quantization_bit 4\nhow long?",
            "--quantization_bit 4",
            "method",
            "lora",
        ),
        (
            "用 LoRA 微调 Qwen2.5-7B，2 张 A100，数据 10 万条\n# --quantization_bit 4\n要多久？",
            "--quantization_bit 4",
            "method",
            "lora",
        ),
        (
            "Serve Llama-3-70B with vLLM on 4 H100\n# --max-model-len 32768\nhow many users?",
            "--max-model-len 32768",
            "max_model_len",
            None,
        ),
        (
            "vLLM 部署 Qwen2.5-7B，一张 A100\n# cutoff_len: 8192\n能撑多少并发？",
            "cutoff_len: 8192",
            "seq_len",
            4096,
        ),
    ],
)
def test_a_commented_setting_line_in_prose_is_commented_out(
    question: str, typed: str, field: str, value
) -> None:
    """Design §8: a '#' line in a message with no config found is a setting put aside (bash, YAML), named
    as not used (``commented_out``), never read as the setting (before: QLoRA on 4 bits, a 32K context)."""
    answer = _answer(question)
    assert answer["request"][field] == value
    assert {"text": typed, "reason": "commented_out"} in answer["interpretation"]["ignored"]


def test_a_hash_heading_in_prose_stays_prose() -> None:
    answer = _answer("# Setup: 2 A100\nFine-tune Llama-3-8B with LoRA, 1B tokens")
    assert answer["request"]["gpu_count"] == 2 and answer["interpretation"]["ignored"] == []


@pytest.mark.parametrize(
    ("question", "headline"),
    [
        ("How many A100 to pretrain 7B on 1T tokens? " + "x " * 5000, "7B pre-training on 1T tokens"),
        ("7B模型1万亿token要多少A100 " + "x " * 5000, "7B 预训练 1万亿 token"),
    ],
)
def test_a_question_before_padding_is_answered(question: str, headline: str) -> None:
    """A real question followed by 10,000 characters of 'x ': answered from the head, the rest said to be
    skipped (the parse keeps a long message's head and tail: bot.parse.normalize._reduce_long), never
    refused whole as random text (bot.parse.noise.FILLER_RE)."""
    answer = _answer(question)
    assert answer["understood"] and answer["request"]["tokens"] == 1e12
    assert answer["reply"].startswith(headline)
    assert "skipped pasted data" in answer["reply"] or "跳过了粘贴的数据" in answer["reply"]


def test_padding_alone_and_random_letters_stay_noise() -> None:
    import random

    rng = random.Random(1)
    letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(3000))
    for text in ("x " * 5000, letters):
        assert not _answer(text)["understood"]


def test_an_inline_tag_joins_the_words_around_it() -> None:
    """Trial L5: '<b>Foo&Bar</b>-13B' reads as a browser shows it, 'Foo&Bar-13B' (a 13B model), not 'Foo&Bar
    -13B' with '-13B' ignored as a negative size; a block tag still separates words."""
    from bot.textclean import strip_markup

    assert strip_markup("serve <b>Foo&Bar</b>-13B") == "serve  Foo&Bar-13B"  # the word joined
    assert strip_markup("7B<br>1T tokens") == "7B 1T tokens"
    answer = _answer("serve <b>Foo&Bar</b>-13B on one A100")
    assert answer["request"]["params_total"] == 13e9
    assert not [i for i in answer["interpretation"]["ignored"] if i["reason"] == "nonpositive"]
