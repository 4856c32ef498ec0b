"""Session 49, round 45 zh (issue 24 item 5): the readers for the r45work misses, each on sentences of its own
in both languages — the must-read and the must-not-misread (tests/data/real_questions/README.md, 'Round 45,
Chinese')."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _request(text: str) -> dict:
    return answer_json(text)["request"]


def _ignored(text: str) -> list[tuple[str, str]]:
    answer = answer_json(text)
    return [(i["text"], i["reason"]) for i in answer["interpretation"].get("ignored") or []]


# 1. llama.cpp's ternary GGUF types (TQ1_0 1.69 bpw, TQ2_0 2.06 bpw; bot.parse.precision_words
#    .TERNARY_FORMATS): sized as Q2_K, the next wider format the estimator has, and named as typed.
@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("DeepSeek-R1 用 Unsloth 的 UD-TQ1_0 量化，单张 4090 加 256GB 内存能跑吗？", "tq1_0"),
        ("Qwen3-235B-A22B 用 TQ2_0 量化，两张 3090 能放下吗？", "tq2_0"),
        ("Can one RTX 4090 with 256 GB of RAM run DeepSeek-R1 in TQ1_0?", "tq1_0"),
        ("Will Qwen3-235B-A22B quantized to TQ2_0 fit on two 3090s?", "tq2_0"),
    ],
)
def test_a_ternary_gguf_type_is_sized_as_q2_k_and_named(text: str, typed: str) -> None:
    assert _request(text)["precision"] == "q2_k"  # was: not read, the weights sized in bf16
    assert (f"precision: {typed}", "nearest_format") in _ignored(text)


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-R1 用 TQ3_0 量化，单张 4090 能跑吗？",  # no such llama.cpp type
        "Can one RTX 4090 run Qwen2.5-7B? Our team TQ1 review is next week.",
    ],
)
def test_no_ternary_type_is_read_where_none_is_written(text: str) -> None:
    assert _request(text).get("precision") != "q2_k"


# 2. MoE layers said to be offloaded to system memory ('MoE 层全部卸载到系统内存', 'MoE layers offloaded to
#    system RAM'; bot.parse.prose_vocab.CPU_EXPERTS_RE): the experts in CPU memory, a partial offload.
@pytest.mark.parametrize(
    "text",
    [
        "Kimi-K2 用 IQ1_S，1 张 24GB 显卡 + 256GB 内存，MoE 层全部卸载到系统内存，能有几 token/s？",
        "DeepSeek-R1 Q2_K 跑在一张 4090 上，MoE 层都卸载到主机内存，速度多少？",
        "Kimi-K2 in IQ1_S on one 24 GB GPU with 256 GB RAM, MoE layers offloaded to system RAM: tokens/s?",
        "DeepSeek-R1 Q2_K on one 4090, the experts are all offloaded to host memory. How fast?",
    ],
)
def test_moe_layers_in_system_memory_are_a_cpu_offload(text: str) -> None:
    request = _request(text)
    assert request.get("offload") is True  # was: not read, every weight sized on the GPU
    assert request.get("cpu_moe_layers")


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-30B-A3B 单卡 4090，MoE 层放在 GPU 上，显存够吗？",
        "Qwen3-30B-A3B 单卡 4090，专家放显存里，速度多少？",
        "Qwen3-30B-A3B on one 4090, experts kept in GPU memory: tokens/s?",
    ],
)
def test_moe_layers_on_the_gpu_are_no_offload(text: str) -> None:
    assert _request(text).get("offload") is not True


# 3. A laptop's screen size after its name ('MacBook Pro 16 寸', 'MacBook Pro 16-inch'; bot.parse.lexicon
#    ._SCREEN): part of the device named, never a count of the chip after it.
@pytest.mark.parametrize(
    "text",
    [
        "MacBook Pro 16 寸 M1 Max 64GB 跑 Qwen3-32B 8bit 够吗？",
        "MacBook Pro 16 M1 Max 64GB 跑 Qwen3-32B 8bit 够吗？",
        "MacBook Pro 16-inch M1 Max 64GB: can it run Qwen3-32B in 8-bit?",
        "My MacBook Pro 14 M4 Pro with 48GB, how fast is Qwen2.5-14B in 4-bit?",
    ],
)
def test_a_screen_size_is_no_chip_count(text: str) -> None:
    assert _request(text)["gpu_count"] == 1  # was: 16 (or 14) chips


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("MacBook Pro 16GB 内存能跑 Qwen2.5-7B 吗？", "gpu_memory_gib", 16.0),
        ("2 台 Mac Studio M2 Ultra 192GB 跑 DeepSeek-R1 Q4 够吗？", "gpu_count", 2),
        ("Can a MacBook Air 16GB run Qwen2.5-7B?", "gpu_memory_gib", 16.0),
        ("Two Mac Studio M2 Ultra 192GB boxes: enough for DeepSeek-R1 in Q4?", "gpu_count", 2),
    ],
)
def test_a_memory_or_a_count_beside_a_mac_stays(text: str, field: str, value: float) -> None:
    assert _request(text)[field] == value
