"""Parser defects seen by session 10's trial and review, each fixed by a general rule and checked here
through the public JSON contract (``sizing-bot ask --format json``: ``request``, ``interpretation``,
``reply``), in both languages:

1. a quantization's group size (GPTQ/AWQ 'group size 128') is no GRPO group (``num_generations``);
2. a knowledge cutoff date ('knowledge cutoff 2023') is no ``cutoff_len``;
3. a lower bound on the context or load ('上下文至少 16k') is sized at its value, and the reply says so;
4. an unknown model typed in lower case ('internvl 76b') is named as typed (docs/design.md §8);
5. a card word then its memory ('one gpu 24gb', '一张卡 24G') sizes a card of that memory, and says so;
6. a budget per period ('预算每小时100元') is a budget with its period, not a price per GPU-hour;
7. the words of ``gpu_memory_utilization`` are declared once (generic_values.WORDS → settings.UTIL_RE).
"""

from __future__ import annotations

import pytest

from tests.cli_run import ask_json_in_process, named, substituted

_ask = ask_json_in_process
_ignored = named
_subs = substituted


# 1. GPTQ/AWQ group size ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "size"),
    [
        ("QLoRA Llama-3-8B on one 4090, base model quantized with GPTQ group size 128", "128"),
        ("LoRA fine-tune Qwen2.5-7B on 2 A100, the base is an AWQ checkpoint (4-bit, group size 64)", "64"),
        ("QLoRA Llama-3-8B on one 4090, group_size 128 for the GPTQ base", "128"),
        ("QLoRA 微调 Llama-3-8B，一张 4090，基座用 GPTQ 量化 group size 128", "128"),
        ("LoRA 微调 Qwen2.5-7B，2 张 A100，基座是 AWQ 量化（4-bit，group size 64）", "64"),
        ("QLoRA 微调 Llama-3-8B，一张 4090，GPTQ 量化组大小 128", "128"),
    ],
)
def test_quantization_group_size_is_no_grpo_group(question: str, size: str) -> None:
    d = _ask(question)
    assert d["request"]["num_generations"] is None
    assert _ignored(d)[f"quantization group_size: {size}"] == "no_field"


@pytest.mark.parametrize(
    "question",
    [
        "GRPO Qwen2.5-7B on 8 H100, group size 8",
        "GRPO 训练 Qwen2.5-7B，8 张 H100，每组 8 个回复",
        "GRPO 训练 Qwen2.5-7B，8 张 H100，组大小 8",
    ],
)
def test_grpo_group_size_is_still_read(question: str) -> None:
    assert _ask(question)["request"]["num_generations"] == 8


# 2. knowledge cutoff ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "date"),
    [
        ("LoRA fine-tune Qwen2.5-7B on 4 A100, knowledge cutoff 2023", "2023"),
        ("LoRA fine-tune Qwen2.5-7B on 4 A100, training data cutoff: 2024-06", "2024-06"),
        ("Full fine-tune Llama-3-8B on 8 H100; the model's knowledge cutoff is 2023", "2023"),
        ("LoRA 微调 Qwen2.5-7B，4 张 A100，知识 cutoff 是 2023", "2023"),
        ("微调 Qwen2.5-7B，8 张 A100，训练数据的 cutoff 为 2023 年", "2023"),
        ("LoRA 微调 Qwen2.5-7B 4 张 A100，数据 cutoff 2024-06", "2024-06"),
    ],
)
def test_knowledge_cutoff_is_a_date_not_a_length(question: str, date: str) -> None:
    d = _ask(question)
    assert d["request"]["seq_len"] == 2048  # the fine-tuning default, not the year
    assert _ignored(d)[f"knowledge cutoff: {date}"] == "not_sized"


@pytest.mark.parametrize(
    ("question", "seq"),
    [
        ("LoRA fine-tune Qwen2.5-7B, cutoff_len 2048", 2048),
        ("LoRA fine-tune Qwen2.5-7B, cutoff length 1024", 1024),
        ("LoRA 微调 Qwen2.5-7B，截断长度 1024", 1024),
        ("LoRA 微调 Qwen2.5-7B，数据 cutoff 2024-06，cutoff_len 4096", 4096),
    ],
)
def test_cutoff_len_is_still_the_sequence(question: str, seq: int) -> None:
    assert _ask(question)["request"]["seq_len"] == seq


# 3. lower bounds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "seq", "typed"),
    [
        ("部署 Qwen2.5-7B 上下文至少 16k 10个并发 要几张4090", 16384, "至少 16k"),
        ("部署 Qwen2.5-7B，上下文不少于 32k，20 并发", 32768, "不少于 32k"),
        ("部署 Qwen2.5-7B，上下文≥32k，20 并发", 32768, "≥32k"),
        (
            "serve Qwen2.5-7B with a context of at least 16k, 10 concurrent, how many 4090s",
            16384,
            "at least 16k",
        ),
        ("serve Qwen2.5-7B with no less than 32k context for 20 users", 32768, "no less than 32k"),
        ("serve Qwen2.5-7B on 4090s, context ≥ 32k, 10 concurrent", 32768, "≥ 32k"),
    ],
)
def test_lower_bound_on_context_is_sized_at_it_and_said(question: str, seq: int, typed: str) -> None:
    d = _ask(question)
    assert d["request"]["seq_len"] == seq
    assert (typed, str(seq), "lower_bound_context") in _subs(d)
    said = f"{seq // 1024}K"
    if d["lang"] == "zh":
        assert f"把“{typed}”理解为上下文的下限：按你给的最小值 {said} token 计算" in d["reply"]
    else:
        assert (
            f"Read “{typed}” as a lower bound on the context: sized at the least you stated, {said}"
            in d["reply"]
        )


def test_lower_bound_on_load_is_said_in_both_languages() -> None:
    zh = _ask("部署 Qwen2.5-7B，不少于 20 个并发，上下文 8k")
    assert zh["request"]["concurrency"] == 20
    assert ("不少于 20", "20", "lower_bound_concurrency") in _subs(zh)
    assert "理解为负载的下限：按你给的最小值 20 条并发序列计算" in zh["reply"]
    en = _ask("serve Qwen2.5-7B on 4090s for at least 50 concurrent users")
    assert en["request"]["concurrency"] == 50
    assert ("at least 50", "50", "lower_bound_concurrency") in _subs(en)
    assert "as a lower bound on the load: sized at the least you stated, 50 concurrent" in en["reply"]


def test_a_plain_value_is_no_bound() -> None:
    d = _ask("部署 Qwen2.5-7B 上下文 16k 10个并发 要几张4090")
    assert d["request"]["seq_len"] == 16384
    assert not [s for s in _subs(d) if s[2].startswith("lower_bound")]


# 4. unknown models in any letter case --------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "typed", "params"),
    [
        ("fine-tune internvl 76b with lora on 8 A100", "internvl 76b", 76e9),
        ("fine-tune INTERNVL 76B with lora on 8 A100", "INTERNVL 76B", 76e9),
        ("serve foobar 13b on 2 A100", "foobar 13b", 13e9),
        ("用 lora 微调 internvl 76b，8 张 A100", "internvl 76b", 76e9),
        ("部署 foobar 13b，2 张 A100", "foobar 13b", 13e9),
        ("全参微调 skywork 13b，8 张 A100", "skywork 13b", 13e9),
    ],
)
def test_unknown_model_is_named_as_typed_in_any_case(question: str, typed: str, params: float) -> None:
    d = _ask(question)
    assert d["interpretation"]["unknown_model"] == typed
    assert d["request"]["params_total"] == pytest.approx(params)
    assert typed in d["reply"]


@pytest.mark.parametrize(
    ("lower", "upper", "model"),
    [
        ("serve qwen2.5-72b on 4 h100", "serve Qwen2.5-72B on 4 H100", "Qwen2.5-72B"),
        ("serve deepseek-v3 on 16 h100", "serve DeepSeek-V3 on 16 H100", "DeepSeek-V3"),
        ("用 lora 微调 glm-4 9b", "用 LoRA 微调 GLM-4 9B", "GLM-4-9B"),
        ("fine-tune llama 13b on 8 a100", "fine-tune Llama 13B on 8 A100", "LLaMA-13B"),
    ],
)
def test_catalog_names_read_the_same_in_any_case(lower: str, upper: str, model: str) -> None:
    low, up = _ask(lower), _ask(upper)
    assert low["request"]["model"] == up["request"]["model"] == model
    assert low["interpretation"]["unknown_model"] is None


@pytest.mark.parametrize(
    "question",
    [
        "fine-tune a custom 13b on 8 a100",
        "train a dense 70b on 64 h100",
        "pretrain a chinese 7b on 1T tokens",
        "finetuning 70b on 8 a100",
        "benchmarking 70b on 8 h100",
        "用 8 张 a100 做 fine-tuning 70b",
    ],
)
def test_plain_words_before_a_size_name_no_model(question: str) -> None:
    assert _ask(question)["interpretation"]["unknown_model"] is None


# 5. a card word, then its memory -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "gib", "count"),
    [
        ("serve llama 3 8b on one gpu 24gb for 20 users", 24, 1),
        ("serve llama 3 8b on one card 48gb for 20 users", 48, 1),
        ("serve llama 3 8b on 2 gpus 24gb vram for 20 users", 24, 2),
        ("部署 llama 3 8b，20 个用户，一张卡 24G", 24, 1),
        ("部署 llama 3 8b，20 个用户，显卡 24G 一张", 24, 1),
        ("部署 llama 3 8b，20 个用户，用一块卡 48G", 48, 1),
    ],
)
def test_card_then_memory_sizes_a_card_of_that_memory(question: str, gib: int, count: int) -> None:
    d = _ask(question)
    assert d["request"]["gpu_memory_gib"] == gib
    assert d["request"]["gpu_count"] == count
    assert d["request"]["gpu"] != "A100-SXM4-80GB"  # never the reference card when a memory is stated
    assert [s for s in _subs(d) if s[2] == "gpu_by_memory"] == [
        (f"{gib}G", d["request"]["gpu"], "gpu_by_memory")
    ]
    assert not [t for t, r in _ignored(d).items() if r == "unread"]


def test_per_card_and_total_memory_stay_apart() -> None:
    """Round-1 zh-113: '单卡 24G、总共 96G' is 24 GiB per card (not 96 / 4 / 4)."""
    d = _ask("本地只有 4 张 4090，单卡 24G、总共 96G，训练 LLama 3.1 8b 要多大显存")
    assert d["request"]["gpu_memory_gib"] == 24
    assert d["request"]["gpu_count"] == 4


@pytest.mark.parametrize(
    "question", ["serve qwen2.5-14b on 2 gpus 48gb total", "部署 qwen2.5-14b，两张卡 48G 总共"]
)
def test_a_total_after_the_card_word_is_no_card_memory(question: str) -> None:
    assert _ask(question)["request"]["gpu_memory_gib"] != 48  # two cards' memory, not 48 GB each


# 6. budget per period ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "budget", "period"),
    [
        ("部署 Qwen2.5-72B，预算每小时100元，要几张卡", 100, "hour"),
        ("部署 Qwen2.5-72B，预算是每小时 100 元", 100, "hour"),
        ("部署 Qwen2.5-72B，预算 100 元每小时", 100, "hour"),
        ("部署 Qwen2.5-72B，每天预算 2000 元", 2000, "day"),
        ("serve Qwen2.5-72B, budget $50 an hour, how many GPUs", 50, "hour"),
        ("serve Qwen2.5-72B, budget of $1,000 per day", 1000, "day"),
        ("serve Qwen2.5-72B, we can spend $50 an hour", 50, "hour"),
        ("serve Qwen2.5-72B, budget $1200 every day", 1200, "day"),
        ("serve Qwen2.5-72B, we can afford $30 per hour, how many GPUs", 30, "hour"),
    ],
)
def test_budget_per_period_is_no_price(question: str, budget: float, period: str) -> None:
    req = _ask(question)["request"]
    assert (req["budget"], req["budget_period"], req["price_per_gpu_hour"]) == (budget, period, None)


@pytest.mark.parametrize(
    ("question", "price"),
    [
        ("部署 Qwen2.5-72B，每卡每小时 10 元", 10),
        ("部署 Qwen2.5-72B，A100 一小时 8 块", 8),
        ("部署 Qwen2.5-72B，预算里每卡每小时 10 元", 10),
        ("serve Qwen2.5-72B at $2 per GPU-hour", 2),
        ("serve Qwen2.5-72B, I can spend $2 per GPU-hour", 2),
    ],
)
def test_prices_per_gpu_hour_stay_prices(question: str, price: float) -> None:
    req = _ask(question)["request"]
    assert req["price_per_gpu_hour"] == price
    assert req["budget_period"] is None


# 7. one declaration of the utilization words ----------------------------------------------------


def test_utilization_words_are_declared_once() -> None:
    from bot.parse.generic_values import WORDS
    from bot.parse.settings_patterns import UTIL_RE

    for word in WORDS["gpu_memory_utilization"]:
        m = UTIL_RE.search(f"{word} 0.8")
        assert m is not None and m.group("v") == "0.8", word


@pytest.mark.parametrize(
    "question",
    [
        "serve Qwen2.5-7B with vllm, memory utilization 0.85",
        "serve Qwen2.5-7B, gpu memory utilisation 85%",
        "部署 Qwen2.5-7B，显存占比 0.85",
        "部署 Qwen2.5-7B，显存利用率 0.85",
    ],
)
def test_utilization_in_both_languages(question: str) -> None:
    assert _ask(question)["request"]["gpu_memory_utilization"] == 0.85
