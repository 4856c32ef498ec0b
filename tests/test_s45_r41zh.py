"""Session 45, round 41 zh (issue 24 item 5): the readers for the r41work misses, each on sentences of its own
in both languages — the must-read and the must-not-misread (tests/data/real_questions/README.md, 'Round 41,
Chinese')."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.count_choice import compared_counts
from bot.parse.failed_bound import failed_bounds


def _counts(text: str) -> tuple[int | None, int | None]:
    req = parse(text).request
    return req.gpu_count, req.gpu_count_max


# 1. Two counts of one card compared: the range from the smaller to the larger (bot.parse.count_choice).
@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("4 卡和 8 卡两种配置的 A100 跑 Qwen2.5-72B 推理，性能差多少？", 4, 8),
        ("在 910B 上推理 Qwen2.5-72B，4 卡和 8 卡分别要多少显存？", 4, 8),
        (
            "Serving Qwen2.5-72B with vLLM: what is the performance difference"
            " between 4 GPUs and 8 GPUs on A100?",
            4,
            8,
        ),
        ("How much faster is serving Qwen2.5-72B on 8 A100s than on 4 A100s?", 4, 8),
        ("单卡 RTX 4090 部署 70B 的 4bit 模型，单卡放得下吗？双卡 4090 性能和成本哪个划算？", 1, 2),
        (
            "Can a single RTX 4090 hold a 70B model at 4 bit?"
            " Or are two RTX 4090 with tensor parallel better value?",
            1,
            2,
        ),
    ],
)
def test_two_counts_of_one_card_compared_are_the_range(text: str, lo: int, hi: int) -> None:
    assert _counts(text) == (lo, hi)  # before: the second count named 'repeated', or one count sized


@pytest.mark.parametrize(
    "text",
    [
        "4 张 A100 和 8 张 H100 跑 Qwen2.5-72B 哪个快？",  # two cards: left to the card rules
        "Serving Qwen2.5-72B: what is the difference between 4 A100s and 8 H100s?",
        "单卡 A100 跑 Qwen2.5-72B 放不下吧？双卡 4090 呢？",  # another card after 双卡
        "Can a single A100 hold a 70B model at 4 bit? Or are two H100 better?",
        "单卡推理 Qwen-7B 要多少显存？双卡训练呢？",  # no card said: two stages, no range
    ],
)
def test_two_cards_or_no_card_are_no_count_range(text: str) -> None:
    assert _counts(text)[1] is None


def test_compared_counts_leaves_counts_of_something_else() -> None:
    s = "一张图和两张图的区别大吗？"
    assert compared_counts(s) == s  # pictures, not cards
    s = "what is the difference between 2 epochs and 4 epochs on one a100?"
    assert compared_counts(s) == s


# 2. 内存 after the card's memory said apart (bracket after the card, or 'N GB 显存') is the host's
# (bot.parse.host_forms.CARD_MEMORY_APART); the card's own size under a loose 内存 stays the card's.
@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("3–10 个并发，用一张 A10（24GB）加 vLLM 跑 Qwen2-14B-GPTQ 行不行？内存 64GB 够吗？", 64.0),
        ("用一张 A10 24GB 显存跑 Qwen2-14B，内存 64GB 够吗？", 64.0),
        ("一张 4090（24G）跑 Qwen2-14B，内存 32G 够吗", 32.0),
        ("One A10 (24GB) with vLLM for Qwen2-14B, is 64GB of RAM enough?", 64.0),
    ],
)
def test_bare_ram_after_the_card_memory_said_apart_is_the_host(text: str, host: float) -> None:
    req = parse(text).request
    assert req.host_memory_gib == host and req.gpu_memory_gib == 24.0


@pytest.mark.parametrize("text", ["4090 要多大的内存？24G 够吗？", "用 4090 跑 Qwen2-14B，内存 24G 够吗"])
def test_a_loose_memory_word_without_the_card_memory_apart_is_not_the_host(text: str) -> None:
    assert parse(text).request.host_memory_gib is None  # the 4090's own 24 GB, left to the card rules


# 3. A setting's failing bound ('超过 0.82 就崩'): a limit observed, named with its key, not unread.
@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("RTX 5090 单卡跑 Qwen3-32B-AWQ，vLLM 的 --gpu-memory-utilization 超过 0.82 就崩，上下文能开多大？",
         "--gpu-memory-utilization: 0.82"),
        ("One RTX 5090 serving Qwen3-32B-AWQ with vLLM:"
         " --gpu-memory-utilization above 0.82 crashes. How much context?",
         "--gpu-memory-utilization: 0.82"),
        ("LLaMA-Factory 微调 Qwen2.5-7B，per_device_train_batch_size 大于 4 就 OOM，4090 上怎么办",
         "per_device_train_batch_size: 4"),
        ("Fine-tuning Qwen2.5-7B on a 4090, per_device_train_batch_size over 4 runs out of memory",
         "per_device_train_batch_size: 4"),
    ],
)  # fmt: skip
def test_a_failing_bound_is_named_as_observed(text: str, item: str) -> None:
    assert (item, "observed") in parse(text).unused_numbers


@pytest.mark.parametrize(
    "text",
    [
        "--gpu-memory-utilization 设成 0.82，qwen3-32b 能开多大上下文？",  # a setting, no bound
        "显存超过 80gb 就爆了",  # no key written
        "--max-num-seqs above 64 is what we want for qwen3-32b",  # no failure word
    ],
)
def test_no_failing_bound_without_key_bound_and_failure(text: str) -> None:
    assert failed_bounds(text) == (text, [])


def test_a_failing_bound_is_not_the_setting_used() -> None:
    req = parse("vLLM 部署 Qwen3-32B，--gpu-memory-utilization 超过 0.82 就崩").request
    assert req.gpu_memory_utilization is None  # the limit seen is not the run's setting


# 4. A rig summed on llama.cpp names the other card with the memory typed beside it (part of the sum).
@pytest.mark.parametrize(
    "text",
    [
        "一张 RTX 5080（16GB）加一张 RTX 3090（24GB）异构双卡，"
        "用 llama.cpp 跑 Qwen 3.6 27B Q8 能有多少 tok/s？",
        "An RTX 5080 (16GB) plus an RTX 3090 (24GB) in one box with llama.cpp: how fast is a 27B at Q8?",
    ],
)
def test_a_summed_rig_names_the_other_card_with_its_memory(text: str) -> None:
    parsed = parse(text)
    assert ("RTX 5080 16GB", "mixed_rig_sum") in parsed.unused_numbers
    assert parsed.request.gpu_memory_gib == 20.0  # (16 + 24) / 2: each card's share of the sum


def test_a_rig_of_one_size_split_evenly_names_no_memory() -> None:
    parsed = parse("An RTX 4090 plus an RTX 3090 serving a 32B with vLLM")
    assert all("GB" not in text for text, why in parsed.unused_numbers if why.startswith("mixed_rig"))
