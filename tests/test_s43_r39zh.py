"""Round 39, Chinese (issue 24 item 5, branch s43-r39zh): the readers the r39work zh first contact asked for,
each tested on sentences of our own in both languages, the must-read and the must-not-misread
(tests/data/real_questions/README.md, "Round 39, Chinese").

1. An Apple chip in brackets after a Mac, its memory after a comma
   ('两台 Mac Studio（M2 Ultra，192GB 统一内存）', 'a Mac Studio (M2 Ultra, 192GB unified memory)', 'two Mac
   Studios (…)'): that chip with that memory (bot.parse.unified_ram.as_device_memory); before, the Mac was
   sized with the chip its memory implies (an M3 Ultra in place of the M2 Ultra typed) and a plural Mac was
   left uncounted.
2. A count of people said concurrent ('200 人并发'): the load (bot.parse.role_left.R_CONC,
   bot.parse.users_load.LOAD_AFTER_RE), as '200 个并发' and '200 people at once' are.
3. A whole-epoch word between a count and its epochs ('跑完一个完整 epoch', 'one full epoch'): that many
   epochs (bot.parse.roles.R_EPOCHS).
4. A load the service must hold ('撑住 8 个并发', 'handle 8 concurrent requests') beside the load it was seen
   failing at: the target sized, the other named as today's load (bot.parse.target_load).
5. A configuration word between a count and its machines ('两台顶配 Mac Studio', 'two top-spec Mac Studios'):
   the count (bot.parse.role_left.BETWEEN).
6. Scorer (tests/real_questions.py, every round): Adam is understood as the AdamW sized (same two moments per
   parameter); a list of concurrencies is understood when one is sized and each other is named as no load
   to size (current_load, per_card_load).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse import parse
from tests.real_questions import answer_json, key_understood


def _req(text: str) -> Any:
    return parse(text).request


def _ignored(text: str) -> list[tuple[str, str]]:
    items = (answer_json(text).get("interpretation") or {}).get("ignored") or []
    return [(i["text"], i["reason"]) for i in items]


# 1. an Apple chip in brackets after a Mac, its memory after a comma: the chip typed, never another
@pytest.mark.parametrize(
    ("text", "gpu", "count", "memory"),
    [
        (
            "两台 Mac Studio（M2 Ultra，192GB 统一内存）组网，能跑满血版 DeepSeek（671B）吗？",
            "Apple-M2-Ultra-192GB",
            2,
            192,
        ),
        (
            "一台 Mac Studio（M2 Ultra，192GB 统一内存）能跑 Llama-3-70B 吗？",
            "Apple-M2-Ultra-192GB",
            None,
            192,
        ),
        (
            "Can a Mac Studio (M2 Ultra, 192GB unified memory) run Llama-3-70B?",
            "Apple-M2-Ultra-192GB",
            1,
            192,
        ),
        (
            "Two Mac Studios (M2 Ultra, 192GB unified memory): can they run Llama-3-70B?",
            "Apple-M2-Ultra-192GB",
            2,
            192,
        ),
    ],
)
def test_apple_chip_in_brackets_with_its_memory(
    text: str, gpu: str, count: int | None, memory: float
) -> None:
    r = _req(text)
    assert (r.gpu, r.gpu_memory_gib) == (gpu, memory)
    if count is not None:
        assert r.gpu_count == count


@pytest.mark.parametrize(
    ("text", "gpu", "memory"),
    [
        ("A DGX Spark (GB10, 128 GB unified memory): can it run Llama-3-70B?", "DGX-Spark-GB10-128GB", 128),
        ("a Mac Studio that has 192GB: can it run Llama-3-70B?", "Mac Studio", 192),  # no chip: assumed, said
        ("一台 128G 的 Mac Studio 能跑 Llama-3-70B 吗？", "Mac Studio", 128),
        ("My MacBook Pros with 64GB of RAM: can one run Llama-3-70B?", "MacBook Pro", 64),
    ],
)
def test_a_system_or_a_chipless_mac_stays_the_device(text: str, gpu: str, memory: float) -> None:
    r = _req(text)
    assert (r.gpu, r.gpu_memory_gib) == (gpu, memory)


# 2. people said concurrent: the load
@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen3-32B 做智能问答，200 人并发，需要几张 A100？",
        "部署 Qwen3-32B，200 个并发，需要几张 A100？",
        "Serving Qwen3-32B to 200 people at once, how many A100s?",
    ],
)
def test_people_said_concurrent_are_the_load(text: str) -> None:
    assert _req(text).concurrency == 200


def test_people_counted_apart_from_the_load_stay_users() -> None:
    text = "团队 200 人，并发 30，部署 Qwen3-32B 需要几张 A100？"
    assert _req(text).concurrency == 30
    assert ("200", "users_not_load") in _ignored(text)
    text = "Our team is 200 people, about 30 concurrent; how many A100s to serve Qwen3-32B?"
    assert _req(text).concurrency == 30


# 3. a whole-epoch word between the count and its epochs
@pytest.mark.parametrize(
    ("text", "epochs"),
    [
        ("给你 6000 张 A100，用 7T tokens 预训练 Qwen2-72B，跑完一个完整 epoch 要多久？", 1),
        ("微调 Qwen2.5-7B，10 万条数据，8 张 A100，训练一个完整的 epoch 要多久？", 1),
        ("微调 Qwen2.5-7B，10 万条数据，8 张 A100，训练 2 个完整的 epoch 要多久？", 2),
        ("Pretraining Qwen2-72B on 7T tokens with 6000 A100s, how long for one full epoch?", 1),
        ("Fine-tuning Qwen2.5-7B on 100k samples with 8 A100s: how long for 3 complete epochs?", 3),
    ],
)
def test_whole_epochs_are_counted(text: str, epochs: int) -> None:
    assert _req(text).epochs == epochs


@pytest.mark.parametrize(
    "text",
    [
        "微调 Qwen2.5-7B，10 万条数据，8 张 A100，一个完整的训练流程要多久？",
        "Fine-tuning Qwen2.5-7B on 100k samples with 8 A100s: how long is one full training run?",
    ],
)
def test_a_whole_run_is_no_epoch(text: str) -> None:
    assert _req(text).epochs is None


# 4. the load the service must hold, beside the load it failed at
@pytest.mark.parametrize(
    "text",
    [
        "用 Ollama 跑 Qwen3-32B，5 个并发时第三个请求就开始排队，怎么调才能稳定撑住 8 个并发？",
        "Serving Qwen3-32B with Ollama: at 5 concurrent requests the third one queues. How do I tune it to "
        "handle 8 concurrent requests?",
    ],
)
def test_the_load_to_hold_is_sized_and_the_failing_one_named(text: str) -> None:
    assert _req(text).concurrency == 8
    assert ("5", "current_load") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("部署 Qwen3-32B，现在能撑住 20 个并发，峰值 100 要几张 A100？", 100),  # today's hold, the peak sized
        ("部署 Qwen3-32B，4 张 A100 能撑住 50 个并发吗？", 50),  # one load: itself
        ("Serving Qwen3-32B: it handles 20 concurrent users today; at peak 100, how many A100s?", 100),
    ],
)
def test_a_load_held_today_is_not_the_target(text: str, load: int) -> None:
    assert _req(text).concurrency == load


# 5. a configuration word between a count and its machines
@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("两台顶配 Mac Studio（M2 Ultra，192GB 统一内存）组网，能跑满血版 DeepSeek（671B）吗？", 2),
        ("Two top-spec Mac Studios (M2 Ultra, 192GB unified memory): can they run DeepSeek-R1 671B?", 2),
        ("4 张顶配 4090 能跑 Qwen2.5-72B 吗？", 4),
        ("Two maxed-out M2 Ultras: can they run DeepSeek-R1 671B?", 2),
    ],
)
def test_a_configuration_word_keeps_the_count(text: str, count: int) -> None:
    assert _req(text).gpu_count == count


def test_a_configuration_word_alone_counts_nothing_more() -> None:
    assert _req("顶配 4090 一张，能跑 Qwen2.5-32B 吗？").gpu_count == 1
    assert _req("A top-spec RTX 4090: can it run Qwen2.5-32B?").gpu_count in (None, 1)  # 'a': one card


# 6. scorer rules
def test_scorer_takes_adam_as_the_adamw_sized() -> None:
    answer = {"request": {"optimizer": "adamw"}, "interpretation": {"ignored": []}}
    assert key_understood("optimizer", "Adam", answer)
    assert key_understood("optimizer", "AdamW", answer)
    assert not key_understood("optimizer", "sgd", answer)
    assert not key_understood("optimizer", "Adam", {"request": {"optimizer": None}})


def test_scorer_takes_a_load_list_with_the_others_set_aside() -> None:
    aside = {"text": "5", "reason": "current_load"}
    answer = {"request": {"concurrency": 8}, "interpretation": {"ignored": [aside]}}
    assert key_understood("concurrency", [5, 8], answer)
    unread = {
        "request": {"concurrency": 8},
        "interpretation": {"ignored": [{"text": "5", "reason": "unread"}]},
    }
    assert not key_understood("concurrency", [5, 8], unread)  # a number not understood names no load
    compared = {"request": {"concurrency": 8}, "interpretation": {"ignored": []}}
    assert not key_understood("concurrency", [8, 16, 32], compared)  # loads compared: a row each, or not
