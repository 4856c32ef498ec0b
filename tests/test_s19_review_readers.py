"""Session 19 design review: readers that misfired on ordinary text. Each finding in both languages, with
the sentences written for these tests (none from the real-question corpus), through the CLI
(``sizing-bot ask --format json``, in process), the negative examples of the review included."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, named


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


ROOM_AFTER_LOADING = [
    ("4090 上 vllm 跑 qwen2.5-7b，加载后剩 8G 的空闲显存，能并发多少", "RTX-4090", "8"),
    ("Qwen2.5-7B on a 4090 with 20 GB of usable VRAM, 8 users at 4k?", "RTX-4090", "20"),
    ("Qwen2.5-7B on a 4090 with 20 GB of free VRAM after loading, how many users?", "RTX-4090", "20"),
    ("一张 4090，20G 可用显存，qwen2.5-7b 能开多长上下文", "RTX-4090", "20"),
    ("A100 80G 跑 llama 3 8b，加载完还剩 50G 空闲显存，能开多少并发", "A100-SXM4-80GB", "50"),
]


@pytest.mark.parametrize(("text", "gpu", "typed"), ROOM_AFTER_LOADING)
def test_memory_free_after_loading_is_not_the_card(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, typed: str
) -> None:
    """The card keeps its catalog memory (24 GiB, 80 GiB), the number is named as the room left."""
    data = ask(capsys, text)
    assert data["request"]["gpu"] == gpu
    assert data["request"]["gpu_memory_gib"] in (None, 80.0)  # the catalog's, or the '80G' typed with it
    assert named(data).get(typed) == "memory_room"


CARD_MEMORY_KEPT = [
    ("I have a GPU with 20 GB of usable VRAM, can it run Qwen2.5-14B in Q4?", 20.0),
    ("我的显存只有 12G，能跑 qwen2.5-7b 吗", 12.0),
    ("一张 24G 显存的卡跑 qwen2.5-14b 够吗", 24.0),
]


@pytest.mark.parametrize(("text", "gib"), CARD_MEMORY_KEPT)
def test_a_cards_memory_without_a_room_word_is_still_the_card(
    capsys: pytest.CaptureFixture[str], text: str, gib: float
) -> None:
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] == gib
    assert "memory_room" not in named(data).values()


ADJECTIVE_NOT_TOOL = [
    "Fine-tune Llama 3 8B with distributed training on 8 A100s",
    "Llama 3 8B with continued pre-training on 100B tokens, 64 H100s",
    "Qwen2.5-7B with supervised fine-tuning on 10k samples, 1 A100",
    "Llama 3 8B with parameter-efficient fine-tuning on one 4090",
    "Llama 3 70B with multi-node training, 32 H100s, 1B tokens",
    "Llama 3 8B with full-parameter fine-tuning on 8 A100s",
    "Serve Qwen2.5-7B with minimal serving cost on L4s",
    "qwen2.5-7b 在 colab 里跑 lora 微调要多久",
    "用 kaggle 训练 qwen2.5-7b 的 lora，要多久",
]


@pytest.mark.parametrize("text", ADJECTIVE_NOT_TOOL)
def test_an_adjective_or_a_platform_is_no_tool(capsys: pytest.CaptureFixture[str], text: str) -> None:
    reasons = named(ask(capsys, text))
    assert not [t for t, why in reasons.items() if why in ("no_field", "runtime_not_modelled")]


LOWER_TOOL_KEPT = [
    ("using mytrainer to train Llama 3 8B on 8 A100s", "training_tool: mytrainer"),
    ("用 opensloth 训练 qwen2.5-7b，一张 4090", "training_tool: opensloth"),
]


@pytest.mark.parametrize(("text", "typed"), LOWER_TOOL_KEPT)
def test_a_lower_case_tool_in_its_slot_is_still_named(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    assert named(ask(capsys, text)).get(typed) == "no_field"


def _max_concurrency(data: dict[str, Any]) -> int:
    serving = data["report"]["inference"]
    return int(serving["max_concurrency"])


DP_ATTENTION = [
    ("sglang 跑 deepseek-v3，8 张 H200，--tp 8 --enable-dp-attention，4K 上下文能并发多少", True),
    (
        "Serve DeepSeek-V3 with SGLang on 8 H200s, TP 8 with DP attention, how many concurrent users at 4k?",
        True,
    ),
    ("sglang 跑 deepseek-v3，8 张 H200，--tp 8，不开 dp attention，4K 上下文能并发多少", False),
    ("Serve DeepSeek-V3 with SGLang on 8 H200s, TP 8, how many concurrent users at 4k context?", None),
]


@pytest.mark.parametrize(("text", "said"), DP_ATTENTION)
def test_dp_attention_said_in_prose_is_read(
    capsys: pytest.CaptureFixture[str], text: str, said: bool | None
) -> None:
    """With TP 8 said, every rank keeps the whole MLA latent (165 sequences at 4K on 8 H200s) unless DP
    attention is on, which gives each GPU its own sequences' latent: 884 (s44: each GPU also keeps the
    attention weights and the embedding whole, 11.6 GB more than 1/8 of them — estimator.dp_replicated;
    1,206 before, with every weight split over the 8)."""
    data = ask(capsys, text)
    assert data["request"].get("dp_attention") is said
    assert _max_concurrency(data) == (884 if said else 165)


HOST_RAM_ENOUGH = [
    "ollama 跑 qwen2.5-14b，机器内存 16G 不够，换 32G 够吗",
    "Running qwen2.5-14b on ollama, 16GB of RAM is not enough, is 32GB enough?",
]


@pytest.mark.parametrize("text", HOST_RAM_ENOUGH)
def test_host_ram_asked_enough_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """The 32G after the host's 16G is RAM too: no 32 GB card is sized, the number is named."""
    data = ask(capsys, text)
    assert data["request"]["gpu_memory_gib"] != 32.0
    assert data["request"]["host_memory_gib"] == 16.0
    assert "32" in named(data)


CARD_ENOUGH_KEPT = [
    ("ollama 跑 qwen2.5-14b，16G 显存不够，换 24G 够吗", 24.0),
    ("Running qwen2.5-14b on ollama, is 24GB enough?", 24.0),
]


@pytest.mark.parametrize(("text", "gib"), CARD_ENOUGH_KEPT)
def test_a_cards_memory_asked_enough_is_still_the_card(
    capsys: pytest.CaptureFixture[str], text: str, gib: float
) -> None:
    assert ask(capsys, text)["request"]["gpu_memory_gib"] == gib
