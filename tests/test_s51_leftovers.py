"""Session 51, part leftovers (continuation): the review leftovers of s50 (issue 24 item 4), both languages.

1. An Apple chip's GPU core count between the chip and its memory ('an M3 Max with a 40-core GPU and 64GB',
   'M3 Max，40 核 GPU，64GB'): the memory is the chip's unified memory (apple.com MacBook Pro (Nov 2023) tech
   specs: M3 Max with 36, 48, 64, 96 or 128 GB, 30 or 40 GPU cores), sized at 64 GB, the core count named
   ``apple_gpu_cores`` and never a count of devices (bot.parse.cores_memory; 'core' gates the core-count
   mend as '核' did). Before: the M3 Max at 128 GB, and '“64” (no word said what it is)'.
2. A Mac named by its line and memory gets a chip sold with that memory (estimator.mac_devices.MAC_CHIPS):
   an 8 GB MacBook Air is an M1–M3 (apple.com MacBook Air tech specs: M1 8/16 GB 68.25 GB/s; M2, M3 8/16/24
   GB 100 GB/s; the M4 Air starts at 16 GB, 120 GB/s): the M3 assumed and said; a MacBook Pro of ≤ 32 GB is
   an M4 (16/24/32 GB, 120 GB/s; apple.com MacBook Pro (2024) tech specs), never an M4 Max (36 GB and up).
3. A training question asking machines ('需要几台8卡A100机器', 'how many 8-GPU A100 nodes') leads with the
   machines the GPUs fill (⌈GPUs ÷ 8⌉ of the card's 8-GPU node: an HGX/DGX A100 baseboard holds 8), the GPU
   counts after them (bot.render.memory_text.machines_text); '8-GPU A100 nodes' is each node's GPUs, never a
   count of 8 (bot.parse.roles.R_PER_NODE with the card's mark between), and asks the machines
   (bot.parse.machines_asked, the card's mark among its words).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _text(text: str) -> str:
    return ask(text, None, "text")[0]


@pytest.mark.parametrize(
    ("text", "gpu", "memory"),
    [
        ("M3 Max with a 40-core GPU and 64GB, can it run Llama-3-70B?", "Apple-M3-Max-64GB", 64),
        ("I have an M3 Max with a 30-core GPU and 36GB: how fast is Qwen2.5-14B?", "Apple-M3-Max-36GB", 36),
        ("M3 Max 40-core GPU 96GB, can it run Llama-3-70B?", "Apple-M3-Max-96GB", 96),
        ("M3 Max，40 核 GPU，64GB，能跑 Llama-3-70B 吗？", "Apple-M3-Max-64GB", 64),
        ("我的 M4 Max 配 40 核 GPU 和 48G，跑 Qwen2.5-32B 多快？", "Apple-M4-Max-48GB", 48),
        ("40 核 GPU 的 M3 Max，64GB 统一内存能跑 Llama-3-70B 吗？", "Apple-M3-Max-64GB", 64),
    ],
)
def test_memory_after_gpu_cores_is_the_chips(text: str, gpu: str, memory: int) -> None:
    request = _answer(text)["request"]
    assert request["gpu"] == gpu
    assert request["gpu_memory_gib"] == memory
    assert request["gpu_count"] in (None, 1)  # the core count is no count of devices


@pytest.mark.parametrize(
    "text",
    [
        "M3 Max with a 40-core GPU and 64GB, can it run Llama-3-70B?",
        "M3 Max，40 核 GPU，64GB，能跑 Llama-3-70B 吗？",
    ],
)
def test_core_count_named_memory_not(text: str) -> None:
    reply = _text(text)
    assert "“40”" in reply and "“64”" not in reply


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        # must not misread: no memory leaves the chip's catalog memory; CUDA cores are no chip's
        ("M3 Max with a 40-core GPU: how fast is Llama-3-8B?", "Apple-M3-Max-128GB", None),
        ("M3 Max 40 核 GPU 跑 Llama-3-8B 多快？", "Apple-M3-Max-128GB", None),
        ("4 张 A100 80G，6912 个 CUDA 核心，训练 Qwen2.5-7B 要多久？", "A100-SXM4-80GB", 4),
        ("4 A100 80GB with 6912 CUDA cores each: how long to fine-tune Qwen2.5-7B?", "A100-SXM4-80GB", 4),
    ],
)
def test_core_count_without_memory(text: str, gpu: str, count: int | None) -> None:
    request = _answer(text)["request"]
    assert request["gpu"] == gpu
    assert request["gpu_count"] in ((None, 1) if count is None else (count,))


@pytest.mark.parametrize(
    ("text", "gpu", "bandwidth"),
    [
        ("Can an 8GB MacBook Air run Llama-3-8B?", "Apple-M3-8GB", 100),
        ("8G 的 MacBook Air 能跑 Llama-3-8B 吗？", "Apple-M3-8GB", 100),
        ("Can a 16GB MacBook Air run Llama-3-8B?", "Apple-M4-16GB", 120),  # the M4 Air starts at 16 GB
        ("24G 的 MacBook Air 能跑 Qwen2.5-14B 吗？", "Apple-M4-24GB", 120),
        ("Can a 32GB MacBook Pro run Qwen2.5-14B?", "Apple-M4-32GB", 120),
        ("16G 的 MacBook Pro 能跑 Qwen2.5-7B 吗？", "Apple-M4-16GB", 120),
        # must not misread: a MacBook Pro from 36 GB is still the M4 Max (546 GB/s)
        ("Can a 36GB MacBook Pro run Qwen2.5-14B?", "Apple-M4-Max-36GB", 546),
        ("128G 的 MacBook Pro 能跑 Llama-3-70B 吗？", "Apple-M4-Max-128GB", 546),
    ],
)
def test_mac_chip_sold_with_that_memory(text: str, gpu: str, bandwidth: int) -> None:
    answer = _answer(text)
    assert answer["request"]["gpu"] == gpu
    assert f"{bandwidth} GB/s" in _text(text)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Can an 8GB MacBook Air run Llama-3-8B?", "sized as the Apple M3 (100 GB/s"),
        ("8G 的 MacBook Air 能跑 Llama-3-8B 吗？", "按 Apple M3 估算（内存带宽 100 GB/s"),
    ],
)
def test_assumed_chip_said(text: str, said: str) -> None:
    assert said in _text(text)


@pytest.mark.parametrize(
    "text",
    [
        "全参微调Qwen2.5-14B需要几台8卡A100机器？",
        "how many 8-GPU A100 nodes to fully fine-tune Qwen2.5-14B?",
        "how many A100 8-GPU servers to fully fine-tune Qwen2.5-14B?",
        "全参微调 Llama-3-70B 要几台 8 卡 H100 服务器？",
    ],
)
def test_training_machines_asked(text: str) -> None:
    request = _answer(text)["request"]
    assert request["machines_asked"] is True
    assert request["gpu_count"] is None  # the 8 is each machine's GPUs


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        ("全参微调Qwen2.5-14B需要几台8卡A100机器？", "全参微调：1 台 8 卡 A100 80G 机器；至少 4 张卡"),
        (
            "how many 8-GPU A100 nodes to fully fine-tune Qwen2.5-14B?",
            "full fine-tuning: one 8-GPU node of A100",
        ),
        (
            "how many 8-GPU H100 nodes to fully fine-tune Llama-3-70B?",
            "full fine-tuning: 3 × 8-GPU nodes of H100",
        ),
    ],
)
def test_training_headline_in_machines(text: str, lead: str) -> None:
    assert lead in _text(text).splitlines()[0]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # must not misread: a count of such machines stays their GPUs; GPUs asked are no machines asked
        ("four 8-GPU H100 servers: can they fully fine-tune Llama-3-70B?", 32),
        ("两台8卡A100机器能全参微调Qwen2.5-14B吗？", 16),
    ],
)
def test_machines_stated_not_asked(text: str, count: int) -> None:
    request = _answer(text)["request"]
    assert request["gpu_count"] == count and not request["machines_asked"]


@pytest.mark.parametrize(
    "text", ["how many A100 GPUs to fully fine-tune Qwen2.5-14B?", "全参微调Qwen2.5-14B需要几张A100？"]
)
def test_gpus_asked_lead_in_gpus(text: str) -> None:
    first = _text(text).splitlines()[0]
    assert "node of" not in first and "机器；" not in first  # the recommendation's '(one 8-GPU node)' stays
