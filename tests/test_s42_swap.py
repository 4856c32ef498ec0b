"""Session 42, part swap: an unknown GPU, model, tool or runtime is named as typed, never swapped.

1. A card memory of 2–4 GB is that card's memory (bot.parse.card_memory.SMALLEST_CARD_GIB): 'a GTX 1060 3GB'
   (GeForce GTX 1060 3GB: 3 GB GDDR5, NVIDIA product page), '3G 显存' (zh37-027), 'a 2GB card' (GeForce MX
   laptop cards: 2 GB) are sized on that memory, not on the default A100 80G. Host RAM, a model file, a
   quantized size and '3G' as a network generation are no card's memory.
2. An unknown device said with no memory is named as typed, its memory asked for, and the job sized for
   reference only: never replaced by a catalog card another setup's clause names (bot.parse.unknown_card;
   'another run …', 'others report …', '别人 …' are another setup's clauses, bot.parse.structure).
3. An unknown training tool is named as typed (bot.parse.lower_tools: '<job> … with X on <card>' with up to
   eight words between, 'pretrain' a job word), and a modelled tool named only as a figure's source ('a
   comparison reports Megatron at 50% MFU', '报告称 Megatron …') is never the job's tool
   (bot.parse.more_tools.COMPARED_BEFORE_RE); said again as the job's, it is (bot.parse.stack_words).
"""

from __future__ import annotations

import pytest


def _parse(question: str):
    from bot.parse import parse

    return parse(question)


def _json(question: str) -> dict:
    import json

    from bot.cli import ask

    return json.loads(ask(question, None, "json")[0])


# 1. a card of 2-4 GB ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Can I run Llama 3 8B on a GTX 1060 3GB?", 3.0),
        ("I have a 3 GB GPU, can it run Qwen2.5 0.5B?", 3.0),
        ("Fine-tune Qwen2.5 0.5B on my laptop with a 2GB GPU", 2.0),
        ("Can a GTX 1050 Ti 4GB run Qwen2.5 1.5B?", 4.0),
        ("训练 Doupo 需要多大显存？我的显卡是 3G 显存", 3.0),
        ("我有一张 2G 显存的卡，能跑 Qwen2.5 0.5B 吗", 2.0),
        ("Qwen2.5 0.5B 用 2G 显存的显卡够吗", 2.0),
    ],
)
def test_a_small_card_memory_is_read(text: str, gib: float) -> None:
    """Must read: a stated card memory of 2-4 GB is the card's (en36-011, zh37-027)."""
    assert _parse(text).request.gpu_memory_gib == gib


@pytest.mark.parametrize(
    "text",
    [
        "Can I run Qwen2.5 0.5B with 2GB of RAM?",
        "The model file is 3GB, which GPU do I need to serve it?",
        "Q4 is 3GB, how much VRAM do I need for Llama 3 8B?",
        "Llama 3 8B Q4 3GB: how many tokens per second on an RTX 4090?",
        "Qwen2.5 0.5B needs 3 GB of VRAM? How many on one L4?",
        "在 3G 网络下用 RTX 3060 跑 Qwen2.5 0.5B 可以吗",
        "内存只有 2G，能跑 Qwen2.5 0.5B 吗",
        "模型文件 3G，部署需要多大显存",
        "Qwen2.5 0.5B 量化后 3G，用 4090 能跑多少并发",
        "微调 Qwen2.5 0.5B 占用 3G 显存，A100 上能开多大 batch",
    ],
)
def test_a_small_size_that_is_no_card_stays_unread(text: str) -> None:
    """Must not misread: host RAM, a file, a quantized size, a need, a use, a network generation."""
    assert _parse(text).request.gpu_memory_gib is None


def test_the_gtx_1060_3gb_is_sized_by_its_memory() -> None:
    """en36-011: the GTX 1060 3GB is named as typed and sized as a 3 GiB card, not on the A100 80G."""
    out = _json("Can I run Qwen2.5 0.5B on a GTX 1060 3GB with llama.cpp?")
    assert out["request"]["gpu_memory_gib"] == 3.0
    assert out["interpretation"]["unknown_gpu"] == "GTX 1060"
    assert not any(s["used"].startswith("A100") for s in out["interpretation"]["substitutions"])
    assert "A100" not in out["reply"].split("\n")[0]


def test_a_3g_card_in_chinese_is_sized_by_its_memory() -> None:
    """zh37-027's card: '显卡是 3G 显存' is a 3 GiB card, never the default A100 80G."""
    out = _json("我的显卡是 3G 显存，能跑 Qwen2.5 0.5B 推理吗")
    assert out["request"]["gpu_memory_gib"] == 3.0
    assert "A100" not in out["reply"].split("\n")[0]


# 2. an unknown device with no memory ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "typed", "other"),
    [
        (
            "Fine-tune GPT-NeoX 20B on a TPU v3-8; another run reports 40% MFU on TPU v4.",
            "TPU v3-8",
            "TPU v4",
        ),
        (
            "I tried it on an A100 and it worked; now I want to serve Llama 3 8B on inferentia2.",
            "inferentia2",
            None,
        ),
        ("我想在 Atlas 300I 上部署 Qwen2.5-7B，同事之前用 A100 跑过。", "Atlas 300I", "A100"),
        ("我想在 Atlas 300I 上部署 Qwen2.5-7B，别人用 A100 跑过。", "Atlas 300I", "A100"),
    ],
)
def test_an_unknown_device_is_not_replaced_by_another_setups_card(text: str, typed: str, other) -> None:
    """Must read: the unknown device is the job's; the other setup's catalog card is named, not sized."""
    out = _json(text)
    inter = out["interpretation"]
    assert inter["unknown_gpu"] == typed
    assert [s["reason"] for s in inter["substitutions"]] == ["unknown_gpu_default"]
    if other is not None:
        assert {"text": other, "reason": "other_setup"} in inter["ignored"]
    assert typed in out["reply"]


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("My colleague tried inferentia2; I want to serve Llama 3 8B on an A10G.", "A10G"),
        ("Serve Qwen2.5-7B on an L4, others report 30 tokens/s on inferentia2.", "L4"),
        ("Serve Llama 3 8B on inferentia2 or on an A10G, which is cheaper?", "A10G"),
        ("同事之前用 Atlas 300I 跑过，我想用 A100 部署 Qwen2.5-7B", "A100-SXM4-80GB"),
        ("别人用 Atlas 300I 跑过，我们用 L4 部署 Qwen2.5-7B 要几张？", "L4"),
    ],
)
def test_a_catalog_card_of_the_job_stays(text: str, gpu: str) -> None:
    """Must not misread: the unknown device in another setup's clause (or an option beside the job's
    card) leaves the job's catalog card sized."""
    assert _parse(text).request.gpu == gpu


def test_another_run_is_another_setup_and_the_users_own_run_is_not() -> None:
    """'another run reports', 'others report', '别人' start another setup's clause; 'I want another run'
    is the job's."""
    from bot.parse.normalize import normalize
    from bot.parse.structure import segments

    s = normalize("Serve Qwen2.5-7B on an L4, another run reports 30 tokens/s on an A10G.")
    assert [g.role for g in segments(s)][-1] == "tried"
    s = normalize("我想部署 Qwen2.5-7B，别人用 A100 跑过")
    assert [g.role for g in segments(s)][-1] == "tried"
    assert _parse("I want another run of Llama 3 8B fine-tuning on 8 A100s, how long?").request.gpu_count == 8


# 3. an unknown training tool --------------------------------------------------------------------------


def _named(text: str) -> tuple[object, list[str]]:
    out = _json(text)
    return out["request"]["training_tool"], [i["text"] for i in out["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "text",
    [
        "Pretrain a 7B model on 1T tokens with paxml on 256 TPU v4 chips; a comparison reports Megatron"
        " at 50% MFU on H100.",
        "How long to pretrain a 7B on 1T tokens with paxml on 64 H100s?",
        "用 paxml 在 64 张 H100 上预训练 7B 模型 1T token 要多久？报告称 Megatron 在 H100 上 MFU 50%。",
    ],
)
def test_an_unknown_training_tool_is_named_never_swapped(text: str) -> None:
    """Must read: paxml is named as typed (no model of it); the reported Megatron is not the job's tool."""
    tool, ignored = _named(text)
    assert tool is None
    assert "training_tool: paxml" in ignored


@pytest.mark.parametrize(
    "text",
    [
        "A paper reports Megatron at 50% MFU; how long to pretrain a 7B on 1T tokens with Megatron on"
        " 64 H100s?",
        "I want to pretrain a 7B model on 1T tokens with Megatron on 64 H100s, how long?",
        "用 Megatron 在 64 张 H100 上预训练 7B 模型 1T token 要多久？",
    ],
)
def test_the_jobs_own_modelled_tool_stays(text: str) -> None:
    """Must not misread: Megatron said as the job's means is the job's tool, even when also reported."""
    assert _named(text)[0] == "Megatron-LM"


@pytest.mark.parametrize(
    "text",
    [
        "Train Qwen2.5 7B for 3 epochs on 1B tokens with warmup on 8 H100s, how long?",
        "Train a 7B for 2 epochs on my dataset with flash-attn on 8 A100s",
        "Pretrain a 7B model on 1T tokens with bf16 on 64 H100s, how long?",
        "Fine-tune Llama 3 8B on 10k samples for 2 epochs with packing on 8 A100s",
        "在 8 张 A100 上用 lora 微调 Llama 3 8B，数据 1 万条，要多久？",
    ],
)
def test_a_setting_in_the_tool_slot_is_no_tool(text: str) -> None:
    """Must not misread: a setting word in the widened slot ('with warmup on 8 H100s') names no tool."""
    assert not [i for i in _named(text)[1] if i.startswith("training_tool:")]
