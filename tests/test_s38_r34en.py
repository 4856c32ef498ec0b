"""Session 38, round 34 en (issue 24): readers for what r34work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the form exists in both.

- '15 GB of GPU memory' / 'of video memory' is one card's memory, as '15 GB of VRAM' already was;
- a card word between the card and its memory in brackets ('a 4090 GPU (24 GB)') keeps it that card's;
- a stage the user rules out ('inference, not training', 'without fine-tuning', '是推理，不是训练') is never
  the job's stage;
- a DeepSpeed config file named for its stage ('ds_configs/stage2.config', 'stage3.json') is that ZeRO stage;
- a batch then its total ('batch size 1 (16 in total)', 'batch 4（总共 64）') is the micro-batch and the
  global batch;
- a machine spec of cores then a unitless memory ('100 CPU cores, 500 Mem', '96核、768内存') is the host's RAM
  in GB, never memory channels;
- a capitalized word then an acronym after 'using' / 'with' ('using ParlAI') is a tool's name, named as typed;
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    answer = answer_json(text)
    items = (answer.get("interpretation") or {}).get("ignored") or []
    return answer["request"], [(i.get("reason"), i.get("text")) for i in items]


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Can I fine-tune Mistral-7B with 15 GB of GPU memory?", 15.0),
        ("Is 12 GB of video memory enough to serve Llama-2-7B in 4-bit?", 12.0),
        ("Can I run Qwen2-7B on a laptop with 8 GB of graphics memory?", 8.0),
    ],
)
def test_gb_of_gpu_memory_is_the_card(text: str, gib: float) -> None:
    req, ignored = _ask(text)
    assert req["gpu_memory_gib"] == gib
    assert ("unread", str(int(gib))) not in ignored


def test_gb_of_gpu_memory_in_total_stays_a_total() -> None:
    req, _ = _ask("We have 320 GB of GPU memory in total; can we fine-tune a 70B model?")
    assert req["total_memory_gib"] == 320.0
    assert req.get("gpu_memory_gib") is None


def test_gb_of_gpu_memory_used_is_no_card() -> None:
    req, ignored = _ask("Serving Llama-2-7B uses 15 GB of GPU memory on my A100.")
    assert req["gpu"].startswith("A100") and req.get("gpu_memory_gib") != 15.0
    assert ("observed", "15") in ignored  # the usage is named, never the card's size


@pytest.mark.parametrize(
    ("text", "gpu", "gib"),
    [
        ("I have 32 GB of RAM and a 4090 GPU (24 GB); which model can I run?", "RTX-4090", 24.0),
        ("I have an A100 card (40GB) and want to serve Llama-2-13B.", "A100-SXM4-40GB", 40.0),
    ],
)
def test_card_word_then_memory_in_brackets(text: str, gpu: str, gib: float) -> None:
    req, ignored = _ask(text)
    assert req["gpu"] == gpu and req["gpu_memory_gib"] == gib
    assert not any(reason == "unread" for reason, _ in ignored)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        (
            "What is the minimal GPU memory to run the fine-tuned Mistral-7B for inference? "
            "I mean inference, not training.",
            "inference",
        ),
        ("How much GPU memory does Qwen2-7B need for training, not inference?", "finetune"),
        ("Can I serve Llama-3-8B without fine-tuning on one 4090?", "inference"),
        ("我想部署 Qwen2-7B，是推理，不是训练，需要多少显存？", "inference"),
        ("Qwen2-7B 微调要多少显存？不是推理。", "finetune"),
    ],
)
def test_a_stage_ruled_out_is_not_the_job(text: str, stage: str) -> None:
    req, _ = _ask(text)
    assert req["stage"] == stage


def test_not_only_training_is_no_negation() -> None:
    from bot.parse.negated_stage import without_negated_stage

    text = "not only training but also inference; it does not fit for training"
    assert without_negated_stage(text) == text  # a word between: neither stage is ruled out
    assert without_negated_stage("inference, not training") == "inference,             "
    assert without_negated_stage("是推理，不是训练") == "是推理，    "


@pytest.mark.parametrize(
    "text",
    [
        "Fine-tuning Llama-2-7B with deepspeed on 8 A100 with ds_configs/stage2.config OOMs.",
        "Full fine-tune of Llama-2-13B with deepspeed and configs/stage2.json on 8 A100 80GB: enough?",
    ],
)
def test_deepspeed_config_file_named_for_its_stage(text: str) -> None:
    req, _ = _ask(text)
    assert req["zero_stage"] == 2


def test_stage_of_a_training_phase_is_no_zero_stage() -> None:
    req, _ = _ask("LLaVA stage 2 fine-tune with deepspeed on 8 A100: how long?")
    assert req.get("zero_stage") is None


@pytest.mark.parametrize(
    ("text", "micro", "total"),
    [
        ("Fine-tuning Llama-2-7B on 8 A100 with batch size 2 (16 in total): how long for 1B tokens?", 2, 16),
        ("Fine-tuning Llama-2-7B on 8 A100 80GB, batch size 4, total 32.", 4, 32),
        ("微调 Qwen2-7B，8 张 A100，batch 4（总共 64）。", 4, 64),
    ],
)
def test_batch_then_its_total(text: str, micro: int, total: int) -> None:
    req, _ = _ask(text)
    assert req["batch_size"] == micro and req["global_batch"] == total


def test_memory_in_total_after_a_batch_is_no_global_batch() -> None:
    req, _ = _ask("Serving Llama-2-7B with batch 8 on 2 A100s with 160 GB in total.")
    assert req.get("global_batch") is None


@pytest.mark.parametrize(
    ("text", "gb"),
    [
        ("Fine-tuning Llama-2-13B on 8*A100, 100 CPU cores, 500 Mem, gets killed.", "500 GB"),
        ("服务器 96核、768内存，8 张 A100，微调 Qwen2-72B 够吗？", "768 GB"),
    ],
)
def test_cores_then_unitless_memory_is_host_ram(text: str, gb: str) -> None:
    _, ignored = _ask(text)
    assert ("no_field", f"host_memory: {gb}") in ignored


def test_memory_channels_are_no_ram() -> None:
    req, ignored = _ask("My CPU has 8 cores, 16 memory channels; can it serve Llama-2-7B?")
    assert req.get("host_memory_gib") is None
    assert not any(text and text.startswith("host_memory") for _, text in ignored)


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("Can I fine-tune Llama-2-7B using ParlAI on 2 A100?", "training_tool: ParlAI"),
        ("Fine-tuning Mistral-7B with LangGPT on one A100 80GB: enough memory?", "training_tool: LangGPT"),
    ],
)
def test_word_then_acronym_is_a_tool_name(text: str, item: str) -> None:
    _, ignored = _ask(text)
    assert ("no_field", item) in ignored


def test_an_acronym_alone_is_no_tool_name() -> None:
    _, ignored = _ask("Can I fine-tune Llama-2-7B using FSDP on 2 A100?")
    assert not any(text and text.startswith("training_tool: FSDP") for _, text in ignored)
