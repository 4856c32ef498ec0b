"""Session 33, general readers, second half (branch s33-gen2): two families of the working splits' failures
read as phrasings in both languages and tested through the CLI (``sizing-bot ask --format json``):

- a model with no size named in a way no other pass read: a Chinese name before 大模型 or glued to GPT
  ('荀子大模型', '华佗GPT'), a model said to be called a name ('模型叫 SuperBot', 'the model is called
  Zephyrus-X'), a dotted name run ('部署 dots.ocr'), and a joined name used to run a bare size ('用
  Chinese-Vicuna 推理 13B'): named as typed (``interpretation.unknown_model``; bot.parse.coined_names);
- which of two setups is asked when the same card moves to another memory ('A100 40G … 换成 80G 的能行吗',
  'would the 80GB one work'): that variant is sized and the first memory named as another setup's
  (bot.parse.switched_memory).

Each has must-not-misread sentences (kind words, tools, files, memories of the host). The sentences are
written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("请问荀子大模型推理需要多大显存？", "荀子大模型"),
        ("扁鹊大模型部署在 2 张 A10 上够吗", "扁鹊大模型"),
        ("华佗GPT 微调需要几张 A100？", "华佗GPT"),
        ("我们的模型叫 SuperBot，部署要多少卡", "SuperBot"),
        ("Our model is called Zephyrus-X: how many H100s to serve it?", "Zephyrus-X"),
        ("How much VRAM does dots.ocr need with vLLM?", "dots.ocr"),
        ("我在 A10 上用 vllm 部署 dots.ocr，速度正常吗？", "dots.ocr"),
        ("用 Chinese-Vicuna 推理 13B 需要多少显存？", "Chinese-Vicuna"),
        ("I'm using Foo-Chat to serve 13B on two A10s, is that enough?", "Foo-Chat"),
    ],
)
def test_a_model_with_no_catalog_name_is_named_as_typed(capsys, text: str, name: str) -> None:
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["model"] is None


def test_a_name_beside_a_size_is_sized_by_the_size_asked(capsys) -> None:
    answer = ask(capsys, "用 Chinese-Vicuna 推理 7B 可以跑，换成 13B 就 OOM 了，13B 要多少显存？")
    assert answer["interpretation"]["unknown_model"] == "Chinese-Vicuna"
    assert answer["request"]["params_total"] == 13e9


@pytest.mark.parametrize(
    "text",
    [
        "开源大模型推理需要多少显存？",
        "这个大模型微调要几张卡",
        "医疗大模型训练需要多少 A100",
        "国产大模型在 910B 上部署要多少卡",
        "How much VRAM does whisper.cpp need?",
        "I run train.py on 4 A100s for fine-tuning, how long?",
        "用 LLaMA-Factory 微调 7B 模型要几张卡",
        "用 ms-swift 微调 7B 要几张卡",
        "Pre-train a 7B model on 1T tokens with 64 H100s",
    ],
)
def test_kind_words_tools_and_files_are_no_model_name(capsys, text: str) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_model"] is None


@pytest.mark.parametrize(
    "text",
    [
        "在 A100 40G 上全参微调 Llama-2-7B 会 OOM，换成 80G 的能行吗？",
        "40G 的 A100 微调 Llama-2-13B 不够，升级到 80G 呢？",
        "On an A100 40GB full fine-tuning Llama-2-7B OOMs; would the 80GB one work?",
        "Llama-2-13B LoRA on an A100 40GB: if we switch to the 80 GB version, how many GPUs?",
    ],
)
def test_the_memory_switched_to_is_the_card_sized(capsys, text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["gpu"] == "A100-SXM4-80GB"
    ignored = {(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]}
    assert ("40 GB", "other_setup") in ignored
    assert not any(text == "80" for text, _ in ignored)


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("Llama-2-7B on an A100 40GB: would 80GB of RAM help with offload?", "A100-SXM4-40GB"),
        ("我用 A100 40G 微调 7B，换成 100G 数据要多久？", "A100-SXM4-40GB"),
        ("A100 80G 上推理 Qwen2.5-72B 需要几张？", "A100-SXM4-80GB"),
        ("Llama-2-7B on an A100: would 40GB be enough for full fine-tuning?", "A100-SXM4-40GB"),
    ],
)
def test_host_memory_and_data_are_no_switched_card(capsys, text: str, gpu: str) -> None:
    assert ask(capsys, text)["request"]["gpu"] == gpu
