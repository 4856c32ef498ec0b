"""Session 44, fixread (issue 24 items 1, 2, 4): reading and recipe leftovers.

Each reader is tested in both languages with sentences it must read and look-alike sentences it must not
misread. Values asserted are the ones the sentence states (the reader's job is to carry them, unchanged).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(question: str) -> dict:
    out, _code = ask(question, None, "json")
    return json.loads(out)


def _ignored(answer: dict) -> list[dict]:
    return (answer.get("interpretation") or {}).get("ignored") or []


# 1. A product in brackets beside the cards' count that is not the count ('16 A100 (4x8)': 4 × 8 = 32 ≠ 16)
# is named as not used, the stated count sized; before, both factors were dropped in silence.
UNEQUAL = (
    ("How long to fine-tune Llama 3 8B on 16 A100 (4x8) with 1B tokens?", 16, "4x8"),
    ("用 16 张 A100（4x8）训练 Llama 3 8B，1B token", 16, "4x8"),
    ("Pretrain Llama 3 70B on 64 (8*4) V100s with 100B tokens", 64, "8*4"),  # the brackets before the cards
    ("用 64（8 × 4）张 V100 预训练 Llama 3 70B，100B token", 64, "8 × 4"),
    ("Pretrain Llama 3 70B on 1024 H100s (64 nodes x 8), 2T tokens", 1024, "64 nodes x 8"),
)


@pytest.mark.parametrize(("question", "count", "typed"), UNEQUAL)
def test_bracket_product_unequal_to_the_count_is_named(question: str, count: int, typed: str) -> None:
    answer = _json(question)
    assert answer["request"]["gpu_count"] == count
    assert answer["request"]["gpus_per_node"] is None  # no nodes × cards read from a product that disagrees
    assert _ignored(answer) == [{"text": typed, "reason": "product_not_count"}]


EQUAL = (  # session 43's shapes, kept: the product equals the count, nodes × cards each, nothing named
    ("Pretrain Llama 3 70B on 1024 (32x32) H100 GPUs with 2T tokens", 1024, 32),
    ("Pretrain Llama 3 70B on 64 (8*8) V100s with 100B tokens", 64, 8),
    ("Pretrain Llama 3 70B on 16 A100 (4x4), 100B tokens", 16, 4),
    ("用 16 张 A100（4x4）预训练 Llama 3 70B，100B token", 16, 4),
)


@pytest.mark.parametrize(("question", "count", "per_node"), EQUAL)
def test_bracket_product_equal_to_the_count_is_the_layout(question: str, count: int, per_node: int) -> None:
    answer = _json(question)
    assert (answer["request"]["gpu_count"], answer["request"]["gpus_per_node"]) == (count, per_node)
    assert _ignored(answer) == []


@pytest.mark.parametrize(
    "question",
    ("Fine-tune Llama 3 8B on 4 A100 (4x40) with 1B tokens", "用 4 张 A100（4x40）训练 Llama 3 8B，1B token"),
)
def test_count_times_memory_is_no_unequal_product(question: str) -> None:
    """Must not misread: '4 A100 (4x40)' is the 4 cards times each one's 40 GB, not a product of 160 GPUs."""
    answer = _json(question)
    assert (answer["request"]["gpu_count"], answer["request"]["gpu_memory_gib"]) == (4, 40)
    assert not any(item["reason"] == "product_not_count" for item in _ignored(answer))


def test_unequal_reason_is_worded_in_both_languages() -> None:
    en, _ = ask("How long to fine-tune Llama 3 8B on 16 A100 (4x8) with 1B tokens?", None, "text")
    zh, _ = ask("用 16 张 A100（4x8）训练 Llama 3 8B，1B token", None, "text")
    assert "“4x8” (a product in brackets that is not the GPU count before it" in en
    assert "“4x8”（括号里的乘积与它前面的 GPU 数不符" in zh


# 2. Scientific notation as a count of steps ('1e4 steps', '2e3 iterations', '训练 1e4 步'); before, unread,
# or '1e4 步' read as 4 steps. A learning rate's '1e-4' stays a learning rate, never steps.
SCI_STEPS = (
    # 10,000 steps × the default global batch 128 × 2,048 tokens (the defaults the reply names)
    ("Fine-tune Llama 3 8B on 4 H100 for 1e4 steps", 10_000 * 128 * 2048),
    ("在 4 张 H100 上训练 Llama 3 8B，训练 1e4 步", 10_000 * 128 * 2048),
    ("Fine-tune Llama 3 8B on 4 H100 for 1.5e4 steps", 15_000 * 128 * 2048),
    # with the batch and the length stated: 2,000 × 64 samples × 2,048 tokens
    ("Fine-tune Llama 3 8B on 4 H100, 2e3 iterations, global batch 64, seq len 2048", 2000 * 64 * 2048),
    ("在 4 张 H100 上训练 Llama 3 8B，2e3 个 step，global batch 64，序列长度 2048", 2000 * 64 * 2048),
)


@pytest.mark.parametrize(("question", "tokens"), SCI_STEPS)
def test_scientific_steps_are_read(question: str, tokens: int) -> None:
    answer = _json(question)
    assert answer["request"]["tokens"] == tokens
    assert not any(item["reason"] == "unread" for item in _ignored(answer))


LR_NOT_STEPS = (
    "Fine-tune Llama 3 8B on 4 H100 with learning rate 1e-4 for 500 steps",
    "在 4 张 H100 上训练 Llama 3 8B，学习率 1e-4，训练 500 步",
)


@pytest.mark.parametrize("question", LR_NOT_STEPS)
def test_learning_rate_exponent_is_no_step_count(question: str) -> None:
    answer = _json(question)
    assert answer["request"]["tokens"] == 500 * 128 * 2048  # the 500 steps, not 1 nor 4
    assert {"text": "learning_rate: 1e-4", "reason": "not_sized"} in _ignored(answer)


def test_negative_exponent_before_bu_is_not_steps() -> None:
    """'1e-4 步' (a value below one, then 步) is no 4 steps: nothing is timed from it."""
    answer = _json("在 4 张 H100 上训练 Llama 3 8B，1e-4 步")
    assert answer["request"]["tokens"] is None


# 3. A boolean flag (vLLM's BooleanOptionalAction / SGLang's store_true '--trust-remote-code', Hugging
# Face's bool fields) followed by prose takes no value: before, '--trust-remote-code   Can I …' named 'Can'
# as its value.
FLAG_THEN_PROSE = (
    "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --trust-remote-code   "
    "Can I run this on 2 L4?",
    "python -m sglang.launch_server --model-path Qwen/Qwen2.5-7B-Instruct --trust-remote-code   "
    "我能在 2 张 L4 上跑吗？",
)


@pytest.mark.parametrize("question", FLAG_THEN_PROSE)
def test_boolean_flag_before_prose_takes_no_value(question: str) -> None:
    answer = _json(question)
    assert (answer["request"]["gpu_count"], answer["request"]["gpu"]) == (2, "L4")
    assert _ignored(answer) == [{"text": "--trust-remote-code: True", "reason": "not_sized"}]


@pytest.mark.parametrize(
    ("question", "recompute"),
    (
        (
            "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Meta-Llama-3-8B "
            "--gradient_checkpointing   Will this fit on 8 A100 40GB?",
            "full",
        ),
        (
            "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Meta-Llama-3-8B "
            "--gradient_checkpointing   这样 8 张 A100 40GB 放得下吗？",
            "full",
        ),
        # must not misread: HF's string_to_bool value after the flag is its value
        (
            "torchrun --nproc_per_node 8 train.py --model_name_or_path meta-llama/Meta-Llama-3-8B "
            "--gradient_checkpointing false on 8 A100 40GB",
            "none",
        ),
    ),
)
def test_hf_bool_flag_value_is_a_boolean_only(question: str, recompute: str) -> None:
    assert _json(question)["request"]["recompute"] == recompute


def test_value_flag_keeps_its_value_before_prose() -> None:
    """A flag that takes a value keeps it: '--max-model-len 8192' is 8,192, prose after it or not."""
    for question in (
        "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 --trust-remote-code   Can I run on 2 L4?",
        "vllm serve Qwen/Qwen2.5-7B-Instruct --trust-remote-code --max-model-len 8192   能在 2 张 L4 上跑吗",
    ):
        assert _json(question)["request"]["max_model_len"] == 8192


# 4. en-007: a format named in a question whether it is needed ('do I need QLoRA / int8 / int4?', '需要用
# int4 吗') is an option asked about, not the run's setting: the run stated (LoRA at 16 bits) is sized, with
# QLoRA beside it when the message names it; before, LoRA was sized on an 8-bit base.
NEED_ASKED = (
    "I have one machine with 16 A10s (23G each). Can I fine-tune Llama-2-70B on it? I tried FSDP + LoRA and "
    "ran out of GPU memory — do I need QLoRA / int8 / int4?",
    "我有一台 16 张 A10（每张 23G）的机器，用 FSDP + LoRA 微调 Llama-2-70B 爆显存了，"
    "需要用 QLoRA / int8 / int4 吗？",
)


@pytest.mark.parametrize("question", NEED_ASKED)
def test_format_asked_whether_needed_is_not_the_run(question: str) -> None:
    answer = _json(question)
    req = answer["request"]
    assert (req["gpu_count"], req["gpu_memory_gib"], req["method"], req["precision"]) == (
        16,
        23,
        "lora",
        None,
    )
    assert req["methods"] == ["lora", "qlora"]  # with and without: the run stated, then QLoRA
    assert {"text": "precision: int8", "reason": "asked_alternative"} in _ignored(answer)
    assert {"text": "precision: int4", "reason": "asked_alternative"} in _ignored(answer)


STATED_FORMAT = (  # must not misread: a format the run uses, said as a statement, is sized
    ("LoRA fine-tune Llama 3 8B on one RTX 4090 in int4", "qlora", "int4"),
    ("用一张 4090 以 int4 做 Llama 3 8B 的 LoRA 微调", "qlora", "int4"),
    ("LoRA fine-tune Llama 3 8B on one RTX 4090, we must use int8.", "lora", "int8"),
    ("显存不够，必须用 int4 做 Llama 3 8B 的 LoRA 微调，一张 4090", "qlora", "int4"),
    # no run told of: the format asked about is sized (s37's rule, tests/test_s37_rev.py)
    ("Should I use 4bit? Qwen2-7B on one 3090", None, "int4"),
    ("要不要 4bit 量化？Qwen2-7B 一张 3090", None, "int4"),
)


@pytest.mark.parametrize(("question", "method", "precision"), STATED_FORMAT)
def test_format_stated_is_sized(question: str, method: str, precision: str) -> None:
    answer = _json(question)
    assert (answer["request"]["method"], answer["request"]["precision"]) == (method, precision)
    assert not any(item["reason"] == "asked_alternative" for item in _ignored(answer))


# 6. QLoRA 70B on H100: the recommended 2 are borderline (86.7 GiB at the high end without full recompute,
# tests/test_s40_fixh.py): the headline named 1 (the fewest), 2 (recommended) and 2 again (borderline) — one
# count now, the recommended; the fewest stays in the details ('Minimum 1 GPU: full recompute').
ONE_COUNT = (
    (
        "how many H100s to QLoRA a 70B model?",
        "70B QLoRA fine-tuning: 2 × H100 80G recommended — borderline on 2 GPUs",
        "• Minimum 1 GPU: full recompute",
    ),
    ("70B QLoRA 要几张 H100", "70B QLoRA 微调：推荐 2 张 H100 80G——2 张时临界", "• 最少 1 张：完全重计算"),
)


@pytest.mark.parametrize(("question", "head", "detail"), ONE_COUNT)
def test_borderline_recommendation_headline_names_one_count(question: str, head: str, detail: str) -> None:
    lines = ask(question, None, "text")[0].splitlines()
    assert lines[0].startswith(head), lines[0]
    assert "at least" not in lines[0] and "至少" not in lines[0]
    assert detail in lines


TWO_COUNTS = (  # must not misread: a recommendation that holds its high end keeps 'at least N, M recommended'
    (
        "How many A100 80G to fully fine-tune a 7B model?",
        "7B full fine-tuning: at least 2 × A100 80G (ZeRO-3), 8",
    ),
    ("全参微调 7B 模型需要几张 A100 80G？", "7B 全参微调：至少 2 张 A100 80G（ZeRO-3），推荐 8 张"),
)


@pytest.mark.parametrize(("question", "head"), TWO_COUNTS)
def test_recommendation_without_borderline_keeps_its_minimum(question: str, head: str) -> None:
    assert ask(question, None, "text")[0].splitlines()[0].startswith(head)


# 5. The LLaMA-Factory YAML for a packed run says so: ``packing: true`` (LLaMA-Factory DataArguments.packing,
# src/llamafactory/hparams/data_args.py, a key of bot/recipes/flags/llamafactory.json); before, the YAML of
# a run sized packed padded every batch.
def _llamafactory_recipe(question: str):  # a bot.recipes.Recipe
    from bot.core.pipeline import answer
    from bot.recipes import build_recipes

    a = answer(question)
    return next(r for r in build_recipes(a.report, a.lang) if r.tool == "llamafactory")


PACKED = (
    ("LoRA-tune Llama 3 8B with LLaMA-Factory on 4 A100 80G with packing, cutoff_len 4096, 1B tokens", True),
    (
        "用 LLaMA-Factory 在 4 张 A100 80G 上 LoRA 微调 Llama 3 8B，开启 packing，cutoff_len 4096，1B token",
        True,
    ),
    ("LoRA-tune Llama 3 8B with LLaMA-Factory on 4 A100 80G, cutoff_len 4096, 1B tokens", False),
    ("用 LLaMA-Factory 在 4 张 A100 80G 上 LoRA 微调 Llama 3 8B，cutoff_len 4096，1B token", False),
)


@pytest.mark.parametrize(("question", "packed"), PACKED)
def test_llamafactory_yaml_packs_the_packed_run(question: str, packed: bool) -> None:
    from bot.recipes.flags import problems, yaml_items

    recipe = _llamafactory_recipe(question)
    items = yaml_items(recipe.text)
    assert items["cutoff_len"] == "4096"
    assert items.get("packing") == ("true" if packed else None)
    assert problems(recipe) == []  # every key one LLaMA-Factory has (bot/recipes/flags/llamafactory.json)
