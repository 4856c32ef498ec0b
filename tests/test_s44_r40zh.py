"""Round 40, Chinese (issue 24 item 5, branch s44-r40zh): the readers the r40work zh first contact asked for,
each tested on sentences of our own in both languages, the must-read and the must-not-misread
(tests/data/real_questions/README.md, "Round 40, Chinese").

1. Core counts before a unified-memory device's memory in its brackets ('Mac mini M4（10 核 CPU + 10 核
   GPU、16GB 统一内存）', 'a MacBook Pro M4 Pro (14-core CPU, 20-core GPU, 48GB unified memory)'): that memory
   is the chip's (bot.parse.unified_ram, ``specs``); before, it was read as host memory and the chip sized at
   another memory (an M4 with 32GB for the 16GB typed, an M4 Pro with 64GB for the 48GB typed).
2. Serving and tuning joined with the tuning's method or a verb between ('做推理和做全参数微调分别…',
   'inference and full fine-tuning') or by 'even' ('推理甚至微调', 'inference or even fine-tuning'): the stage
   not sized named as another setup (bot.parse.stage_pairs.PAIR_RE); before, it was dropped in silence.
3. The host memory asked, then a size offered ('要多大的内存才能训？80GB 够吗？', 'How much system RAM do I
   need? Is 128GB enough?'): the host's memory (bot.parse.ram_offered); before, the size was named unread.
4. The fewest cards and the number recommended ('最低 1 张 A100 80G 就能跑、推荐 4 张', 'at least 2 A100 80GB,
   4 recommended'): the range from the fewest to the recommended (bot.parse.count_choice.min_recommended);
   before, the recommended count was named ``repeated``.
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


# 1. core counts before the memory in a Mac's brackets: the chip typed, at the memory typed
@pytest.mark.parametrize(
    ("text", "gpu", "memory"),
    [
        (
            "Mac mini M4（10 核 CPU + 10 核 GPU、16GB 统一内存、256GB 存储）能跑 14B 的模型吗？",
            "Apple-M4-16GB",
            16,
        ),
        ("Mac mini M4（10 核 GPU、16GB 统一内存）跑 Qwen2.5-7B 够吗？", "Apple-M4-16GB", 16),
        (
            "Can a Mac mini M4 (10-core CPU, 10-core GPU, 16GB unified memory) run a 14B model?",
            "Apple-M4-16GB",
            16,
        ),
        (
            "MacBook Pro M4 Pro (14-core CPU, 20-core GPU, 48GB unified memory): will Qwen2.5-14B run?",
            "Apple-M4-Pro-48GB",
            48,
        ),
    ],
)
def test_cores_before_a_macs_memory_leave_it_the_chips(text: str, gpu: str, memory: float) -> None:
    req = answer_json(text)["request"]
    assert (req["gpu"], req["gpu_memory_gib"], req.get("host_memory_gib")) == (gpu, memory, None)


def test_cores_said_with_a_chip_in_brackets_stay_named() -> None:
    """'Mac Studio（M2 Ultra，24 核 CPU，192GB 统一内存）': the chip with its memory, the cores named as
    before."""
    text = "Mac Studio（M2 Ultra，24 核 CPU，192GB 统一内存）能跑 DeepSeek 671B 吗？"
    req = answer_json(text)["request"]
    assert (req["gpu"], req["gpu_memory_gib"]) == ("Apple-M2-Ultra-192GB", 192)
    assert ("cpu_cores: 24", "not_sized") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("一台 4090 的主机（24 核 CPU、64GB 内存）能跑 14B 吗？", 64),  # a PC's cores and RAM: the host's
        ("A PC with an RTX 4090 (24-core CPU, 64GB RAM): can it run a 14B model?", 64),
    ],
)
def test_cores_and_ram_of_a_pc_stay_the_hosts(text: str, host: float) -> None:
    req = _req(text)
    assert req.host_memory_gib == host and not (req.gpu or "").startswith("Apple")


@pytest.mark.parametrize(
    "text", ["Mac mini M4（16GB 统一内存）能跑 14B 吗？", "M4 Mac mini with 16GB RAM, 14B model?"]
)
def test_a_macs_memory_alone_reads_as_before(text: str) -> None:
    assert answer_json(text)["request"]["gpu"] == "Apple-M4-16GB"


# 2. serving and tuning joined with a method or verb between, or by 'even': the other stage named
@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen3-14B，做推理和做全参数微调分别要几张卡？",
        "单张 RTX 4090 能跑 Qwen-14B 的推理甚至微调吗？",
        "推理和 LoRA 微调 Qwen2.5-7B 各要多少显存？",
        "Can one RTX 4090 handle inference or even fine-tuning of Qwen-14B?",
        "How many A100 for inference and full fine-tuning of Qwen3-14B?",
    ],
)
def test_serving_and_tuning_named_together(text: str) -> None:
    answer = answer_json(text)
    assert answer["request"]["stage"] == "finetune"
    assert key_understood("stage", ["inference", "finetune"], answer)
    assert ("stage: inference", "other_setup") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Qwen2.5-7B 的推理速度和微调效果怎么样，A100 够吗？", "finetune"),  # qualities, not two stages
        ("微调后的模型甚至推理都很慢，A100 够吗？", "inference"),
        ("推理甚至比训练还慢，A100 上跑 Qwen2.5-7B 正常吗？", "inference"),
        ("Inference speed even after fine-tuning is slow on my A100, why?", None),
    ],
)
def test_no_second_stage_where_none_is_asked(text: str, stage: str | None) -> None:
    assert not any(t.startswith("stage:") for t, _ in _ignored(text))
    if stage is not None:
        assert _req(text).stage.value == stage


# 3. the host memory asked, then a size offered: the host's
@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("只有一张 10G 显存的卡，用 ZeRO-Offload 卸载到 CPU，要多大的内存才能训大模型？80GB 够吗？", 80),
        ("用 llama.cpp 跑 70B，内存要多少，64G 够不够，显卡是 3090", 64),
        (
            "I offload the optimizer to CPU with DeepSpeed on one 24GB card. How much system RAM do I need?"
            " Is 128GB enough?",
            128,
        ),
    ],
)
def test_a_size_offered_after_the_host_memory_asked(text: str, host: float) -> None:
    assert _req(text).host_memory_gib == host
    assert not any(reason == "unread" and t == str(host) for t, reason in _ignored(text))


@pytest.mark.parametrize(
    "text",
    [
        "4090 要多大的内存？24G 够吗？",  # 内存 loosely the card's, no host apart: left to the card rules
        "显存要多少？24G 够吗？跑 Qwen2.5-7B",  # the card's memory asked
        "How much VRAM do I need for Qwen2.5-7B? Is 24GB enough?",
    ],
)
def test_no_host_memory_where_the_card_is_asked(text: str) -> None:
    assert _req(text).host_memory_gib is None


# 4. the fewest cards and the number recommended: the range
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Qwen3-235B-A22B 用 FP8 的话，说是最低 1 张 A100 80G 就能跑、推荐 4 张，靠谱吗？", 1, 4),
        ("部署 Qwen2.5-72B 至少 2 张 4090，建议 4 张，对吗？", 2, 4),
        ("Llama 3 70B needs at least 2 A100 80GB, 4 recommended — is that right?", 2, 4),
        ("Serving Qwen2.5-72B: a minimum of 2 H100, ideally 4?", 2, 4),
    ],
)
def test_fewest_and_recommended_counts_are_a_range(text: str, low: int, high: int) -> None:
    req = _req(text)
    assert (req.gpu_count, parse(text).gpu_count_max) == (low, high)
    assert key_understood("gpu_count", [low, high], answer_json(text))


@pytest.mark.parametrize(
    "text",
    [
        "最低 1 张 A100，推荐 2 张 H100，跑 Qwen2.5-72B 哪个好？",  # two cards: no range of one
        "最低要 1 张图，推荐 4 张图，用 A100 微调 Qwen2-VL-7B 要多少显存？",  # images, not cards
        "训练至少 3 个 epoch，建议 5 个，A100 上微调 Qwen2.5-7B 要多久？",
        "At least 2 epochs, 4 recommended: how long on one A100 for Qwen2.5-7B?",
    ],
)
def test_no_count_range_of_something_else(text: str) -> None:
    assert parse(text).gpu_count_max is None
