"""Round 38, Chinese (issue 24 item 5, branch s42-r38zh): the readers the r38work zh first contact and the
older working splits' zh misses asked for, each tested on sentences of our own in both languages, the
must-read and the must-not-misread (tests/data/real_questions/README.md, "Round 38, Chinese").

1. A card with its own memory, a vendor word before it or a letter after its number, then 内存 in brackets
   ('RTX 4090D 24GB（内存 128GB）'): the host's RAM (bot.parse.host_forms.CARD_THEN_HOST).
2. transformers joined to the engine sized by a conjunction before a job or a measure ('用 vLLM 0.4.1 和原生
   Transformers 4.40.0 推理', 'vLLM vs transformers latency'): another engine, named
   (bot.parse.engines_named.ENGINE_USE_RE); a library version beside the engine stays unnamed.
3. A size, a parameter word, then a catalog name ('70B 参数的 DeepSeek-R1', 'the 70B-parameter DeepSeek-R1'):
   that release (bot.parse.size_apart.SIZE_DE_RE, bot.parse.model_names.SIZE_FIRST_RE).
4. Nothing sized (the model's size unknown): each other card the message names is named as not sized, with
   its memory (bot.core.compare_currency.unsized_cards, reason ``card_unsized``).
5. A known zh fault of session 41: a training rate per card, 每秒 before the number ('每张卡每秒 3000 token'):
   the per-GPU tokens/s, as '每卡 3000 token/s' and '3000 tokens per second per GPU' are
   (bot.parse.throughput_words.PER_CARD_SECOND_RE).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json


def _req(text: str) -> Any:
    return parse(text).request


def _ignored(text: str) -> list[tuple[str, str]]:
    items = (answer_json(text).get("interpretation") or {}).get("ignored") or []
    return [(i["text"], i["reason"]) for i in items]


# 1. the host's memory after a card and its memory, in brackets
@pytest.mark.parametrize(
    ("text", "host", "card"),
    [
        ("在单张 RTX 4090D 24GB（内存 128GB）上跑 Qwen3-32B 要多少显存？", 128.0, 24.0),
        ("A100 80G（内存 512G）部署 Qwen2.5-72B 要几张？", 512.0, 80.0),
        ("One RTX 4090D 24GB (128GB RAM): can it run Qwen3-32B?", 128.0, 24.0),
    ],
)
def test_host_memory_after_a_card_in_brackets(text: str, host: float, card: float) -> None:
    r = _req(text)
    assert (r.host_memory_gib, r.gpu_memory_gib) == (host, card)


@pytest.mark.parametrize(
    "text",
    [
        "RTX 4090 24GB（内存不够）跑 Qwen3-32B 要多少显存？",  # no size after 内存: nothing to read
        "单张 4090，内存 24G，跑 Qwen2.5-7B 要多少显存？",  # no card memory apart: 内存 may be the card's
        "One RTX 4090 24GB: can it run Qwen3-32B?",
    ],
)
def test_no_host_memory_without_one_said_apart(text: str) -> None:
    assert _req(text).host_memory_gib is None


# 2. transformers compared with the engine sized
@pytest.mark.parametrize(
    "text",
    [
        "在单张 RTX 4090D 24GB 上跑 Qwen3-32B，用 vLLM 0.4.1 和原生 Transformers 4.40.0 推理，延迟能差多少？",
        "用 vLLM 和 transformers 推理 Qwen2.5-7B，速度差多少？",
        "Comparing vLLM and native transformers inference latency for Qwen3-32B on one RTX 4090D 24GB",
    ],
)
def test_transformers_compared_is_named(text: str) -> None:
    assert ("runtime: transformers", "other_setup") in _ignored(text)
    assert answer_json(text)["request"]["runtime"] == "vLLM"


@pytest.mark.parametrize(
    "text",
    [
        "vLLM 0.5 和 transformers 4.40 版本不兼容，用 vLLM 部署 Qwen2.5-7B 要几张 4090？",
        "vllm 0.6.3 and transformers 4.45.2 installed; serving Qwen2.5-7B with vLLM on 4090s, how many?",
    ],
)
def test_a_library_version_is_no_engine(text: str) -> None:
    assert not [t for t, _ in _ignored(text) if t == "runtime: transformers"]


# 3. a size with a parameter word before a catalog name
@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("要部署 70B 参数的 DeepSeek-R1，8 卡 H20 够不够？", "DeepSeek-R1-Distill-Llama-70B"),
        ("要部署 32B 参数的 Qwen2.5，8 卡 H20 够不够？", "Qwen2.5-32B"),
        ("部署 671B 参数的 DeepSeek-R1 要几张 H20？", "DeepSeek-R1"),  # its own size: the full model
    ],
)
def test_size_with_a_parameter_word_names_the_release(text: str, model: str) -> None:
    assert _req(text).model == model


@pytest.mark.parametrize(
    "text", ["Deploy the 70B-parameter FooLM on 8 H20s: enough?", "部署 70B 参数的 FooLM 要几张 A100？"]
)
def test_a_parameter_word_before_an_unknown_name_names_it_with_its_size(text: str) -> None:
    a = answer_json(text)
    assert (a["interpretation"]["unknown_model"], a["request"]["params_total"]) == ("FooLM 70B", 7e10)


@pytest.mark.parametrize(
    "text", ["7B 参数的模型微调要多少显存？", "How many A100s for a 7B-parameter model with LoRA?"]
)
def test_a_parameter_word_before_no_name_is_a_size(text: str) -> None:
    r = _req(text)
    assert (r.model, r.params_total) == (None, 7e9)


# 4. nothing sized: the other cards named, never dropped
@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("如果我用 910B 训练 VideoMind，训练时间大概多久？能用 NVIDIA A100 40G 训练吗？", "A100 (40 GB)"),
        ("内网是 T4 和 V100，能部署 DeepSeek-OCR 吗？P40 24G 显存的可以吗？", "T4 (16 GB)"),
        ("I train FooNet on an Ascend 910B, how long will it take? Could I train it on an A100 40G instead?",
         "A100 (40 GB)"),
    ],
)  # fmt: skip
def test_cards_named_when_nothing_is_sized(text: str, item: str) -> None:
    assert (item, "card_unsized") in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "用 910B 训练 Qwen2.5-7B 要多久？能用 A100 40G 训练吗？",  # a model known: compared, not unsized
        "Can Qwen2.5-7B run on a T4 or an A10?",
    ],
)
def test_no_unsized_cards_when_a_model_is_sized(text: str) -> None:
    assert not [r for _, r in _ignored(text) if r == "card_unsized"]


# 5. a training rate per card with 每秒 before the number
@pytest.mark.parametrize(
    "text",
    [
        "训练 Qwen2.5-7B，每张卡每秒 3000 token，1B token 要多久？8 张 A100。",
        "训练 Qwen2.5-7B，8 张 A100，单卡每秒能跑 3k 个 token，1B token 要多久？",
        "Training Qwen2.5-7B at 3000 tokens per second per GPU on 8 A100s: how long for 1B tokens?",
    ],
)
def test_a_per_card_training_rate_is_per_gpu(text: str) -> None:
    assert _req(text).tokens_per_second_per_gpu == 3000


@pytest.mark.parametrize(
    ("text", "per_gpu"),
    [
        # the cluster's, not one card's: s42 zhleft #2 divides it by its 8 GPUs (before: None, dropped)
        ("训练 Qwen2.5-7B，8 张 A100，每秒 3000 token，1B token 要多久？", 375.0),
        ("用 vLLM 部署 Qwen2.5-7B，每张卡每秒 3000 token，100 并发要几张 A100？", None),  # serving: as before
    ],
)
def test_no_per_gpu_rate_without_a_card_while_training(text: str, per_gpu: float | None) -> None:
    assert _req(text).tokens_per_second_per_gpu == per_gpu
