"""Session 33, general readers (branch s33-gen): fault kinds that recur at first contact across rounds 18–26
and the working splits, each read as a family of phrasings in both languages and tested through the CLI
(``sizing-bot ask --format json``):

- a count of pictures with the measure word '张' ('2 万张图', '10 万张图片', '3000 张照片'): the
  images of the data set (``num_samples``), never a count of cards; in English 'on 20k images' likewise, but
  not 'N images of M tokens each' (a part of one sample) (bot.parse.sample_nouns, bot.parse.roles
  R_COUNT_WORD); labelling, recognising, captioning or OCR of images is running a model, so those images are
  no data set to train on (bot.parse.lexicon.WEAK_INFERENCE_RE).

The sentences are written for these tests (none is from the real-question corpus)."""

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
    ("text", "cards", "images"),
    [
        ("用 10 万张图片在 8 张 A100 上微调 Qwen2.5-VL-7B 要多久", 8, 100_000),
        ("3000 张照片 LoRA 微调 Qwen2.5-VL-7B，单卡 4090 要多久", 1, 3000),
        ("训练集有 8 万张图，用 8 卡 A800 全参微调 Qwen2.5-VL-7B", 8, 80_000),
        ("微调 Qwen2.5-VL-7B 用了 2000 张截图，在 1 张 3090 上", 1, 2000),
        ("Qwen2.5-VL-7B 在 2 张 A10 上 LoRA 微调 5 万张图要多久", 2, 50_000),
        ("Fine-tune Qwen2.5-VL-7B on 20k images with 4 A100s, how long?", 4, 20_000),
        ("How long does a LoRA of Qwen2.5-VL-7B take over 120k photos on 2 H100?", 2, 120_000),
        ("qlora qwen2.5-vl-7b, 8k screenshots, one 4090: how many hours?", 1, 8000),
    ],
)
def test_pictures_counted_are_data_not_cards(
    capsys: pytest.CaptureFixture[str], text: str, cards: int, images: int
) -> None:
    req = ask(capsys, text)["request"]
    assert req["gpu_count"] == cards
    assert req["num_samples"] == images
    assert req["stage"] == "finetune"


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("用两张 4090 给 50 万张图片打标签，Qwen2.5-VL-7B 要多久", 2),
        ("用 Qwen2.5-VL-7B 识别 10 万张图片，两张 4090 要多久", 2),
        ("OCR 5000 张截图，Qwen2.5-VL-7B，单卡 A10 要多久", 1),
        ("Caption 50k images with Qwen2.5-VL-7B on two 4090s, how long?", 2),
        ("How long to OCR 30k scanned pages as images with Qwen2.5-VL-7B on 1 L4?", 1),
    ],
)
def test_pictures_run_through_a_model_are_serving(
    capsys: pytest.CaptureFixture[str], text: str, cards: int
) -> None:
    req = ask(capsys, text)["request"]
    assert req["stage"] == "inference"
    assert req["gpu_count"] == cards


@pytest.mark.parametrize(
    ("text", "cards", "gpu"),
    [
        ("4 张图灵架构的 T4 推理 Qwen2.5-7B 要多少显存", 4, "T4"),
        ("8 张 A100 全参微调 Qwen2.5-7B，每张图 1024 token", 8, "A100-SXM4-80GB"),
        ("3 张 4090 部署 Qwen2.5-7B，够吗", 3, "RTX-4090"),
        ("Qwen2.5-VL-7B, 8 images of 256 tokens each per sample, fine-tune on 4 A100s", 4, "A100-SXM4-80GB"),
    ],
)
def test_cards_stay_cards(capsys: pytest.CaptureFixture[str], text: str, cards: int, gpu: str) -> None:
    req = ask(capsys, text)["request"]
    assert req["gpu_count"] == cards
    assert req["gpu"] == gpu
    assert req.get("num_samples") != 8
