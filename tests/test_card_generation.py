"""A card named with a generation word (trial s19, issue 24 item 4): 'A6000 Ada' is NVIDIA's RTX 6000 Ada
Generation (catalog aliases, gpus.toml notes), never the Ampere RTX A6000; a generation or board form
its catalog entry lacks ('A100 Blackwell', 'RTX 4090 Hopper', 'L40S SXM') is said in the reply."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse
from bot.parse.card_generation import card_generation


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text",
    [
        "LoRA fine-tune Llama 3.1 8B on 200M tokens on 4x A6000 Ada 48GB, how many hours?",
        "4 张 RTX A6000 Ada 跑 Qwen2.5-7B 推理",
        "2x A6000 Ada 48G serve llama 3.1 8b",
        "a6000ada x4, lora llama 3.1 8b",
    ],
)
def test_a6000_ada_is_the_rtx_6000_ada(text: str) -> None:
    assert parse(text).request.gpu == "RTX-6000-Ada"


def test_plain_a6000_stays_the_ampere_card() -> None:
    assert parse("4x A6000 48GB LoRA llama 3.1 8b 200M tokens").request.gpu == "RTX-A6000"


def test_the_ada_card_is_faster_than_the_ampere_one(capsys) -> None:
    """RTX 6000 Ada: 364.2 dense BF16 TFLOPS vs the RTX A6000's 154.8 (datasheets, gpus.toml): the trial's
    9.6 hours on the Ampere card were the wrong card's."""
    ada = ask(capsys, "LoRA fine-tune Llama 3.1 8B on 200M tokens on 4x A6000 Ada 48GB, how many hours?")
    ampere = ask(capsys, "LoRA fine-tune Llama 3.1 8B on 200M tokens on 4x RTX A6000 48GB, how many hours?")
    assert ada["request"]["gpu"] == "RTX-6000-Ada" and ampere["request"]["gpu"] == "RTX-A6000"
    assert ada["report"]["gpu_hours"]["likely"] < ampere["report"]["gpu_hours"]["likely"]


@pytest.mark.parametrize(
    ("text", "gpu", "typed"),
    [
        ("4x A100 Blackwell 80G", "A100-SXM4-80GB", "A100 Blackwell"),
        ("RTX 4090 Hopper", "RTX-4090", "RTX 4090 Hopper"),
        ("用 L40S SXM 跑", "L40S", "L40S SXM"),
    ],
)
def test_a_generation_word_the_card_lacks_is_returned(text: str, gpu: str, typed: str) -> None:
    assert card_generation(text, gpu) == typed


@pytest.mark.parametrize(
    ("text", "gpu"),
    [("H100 SXM", "H100-SXM5-80GB"), ("H100 PCIe", "H100-PCIe-80GB"), ("RTX 4090 PCIe", "RTX-4090")],
)
def test_a_matching_word_is_not(text: str, gpu: str) -> None:
    assert card_generation(text, gpu) is None


def test_the_substitution_is_said(capsys) -> None:
    d = ask(capsys, "4 张 RTX 4090 Hopper 跑 Qwen2.5-7B 推理")
    subs = d["interpretation"]["substitutions"]
    assert {"typed": "RTX 4090 Hopper", "used": "RTX-4090", "reason": "card_generation"} in subs
    assert "RTX 4090 Hopper" in d["reply"]
