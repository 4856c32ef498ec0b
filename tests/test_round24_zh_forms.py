"""Round 24 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r24.json): kinds of writing
the r24work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- Iluvatar's cards with both of the maker's names before the model ('天数智芯 Iluvatar BI-V150', '天数
  Iluvatar BI-V150'): the whole name as typed (bot.parse.lexicon's unknown-card pattern; before, the second
  maker word was taken for the model and 'BI-V150' dropped, or '天数' left out); '天数' alone is a count of
  days ('训练天数'), no maker;
- a training codebase named by its repository's name before words that call it code ('我看
  Pai-Megatron-Patch 的示例代码', 'my-sft-trainer 的训练脚本'), with no tool verb before it: named as typed
  and not used, as after '用' / '采用' (bot.parse.codebases.CODE_WORDS; before, 'Pai-Megatron-Patch' was
  sized as Megatron-LM); a config key ('lora_rank 的代码') or a model with its size ('qwen2-7b-grpo 的代码')
  is no codebase;
- the scorer: Iluvatar's maker words before a card's name ('天数智芯 Iluvatar BI-V150' is the label's
  'BI-V150', tests/real_questions._VENDOR_WORDS), never another model of that maker.

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
    ("text", "typed"),
    [
        ("天数智芯 Iluvatar BI-V150 8 张部署 Qwen2-72B，每张 32G，要多少显存？", "天数智芯 Iluvatar BI-V150"),
        ("我们有 4 张天数 Iluvatar BI-V150，能跑 Qwen2-7B 推理吗？", "天数 Iluvatar BI-V150"),
        ("天数智芯 BI-V150 8 张部署 Qwen2-72B 要多少显存？", "天数智芯 BI-V150"),
    ],
)
def test_an_iluvatar_card_is_named_whole_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, typed: str
) -> None:
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_gpu"] == typed
    assert answer["request"]["gpu_count"] in (4, 8)


def test_a_count_of_days_is_no_iluvatar_card(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "训练天数大概 3 天，8 张 A100 全参微调 Qwen2-7B 要多少显存？")
    assert answer["interpretation"]["unknown_gpu"] is None
    assert answer["request"]["gpu"] == "A100-SXM4-80GB"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("全参微调 Qwen2-72B 参考的是 my-sft-trainer 的训练代码，8 张 A800 够吗？", "my-sft-trainer"),
        ("照着 easy-rlhf's example scripts fine-tune Qwen2-7B on 8 A100, how long?", "easy-rlhf"),
    ],
)
def test_a_codebase_before_code_words_is_named_not_sized_as_its_tool(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["training_tool"] is None  # never Megatron-LM for Pai-Megatron-Patch
    items = answer["interpretation"]["ignored"]
    assert {"text": f"training_tool: {name}", "reason": "no_field"} in items


@pytest.mark.parametrize(
    "text",
    [
        "LoRA 微调 Qwen2-7B，lora_rank 的代码在哪改，要多少显存？",  # a config key
        "qwen2-7b-grpo 的代码跑推理要多少显存？",  # a model with its size
        "用 Megatron-LM 全参微调 Qwen2-72B 要几张 H800？",  # a known tool stays the tool
    ],
)
def test_no_codebase_is_named_without_one(capsys: pytest.CaptureFixture[str], text: str) -> None:
    items = ask(capsys, text)["interpretation"]["ignored"]
    assert not [i for i in items if str(i.get("text", "")).startswith("training_tool:")]


def test_the_scorer_reads_iluvatar_maker_words_before_a_card() -> None:
    from tests.real_questions import cards_match

    assert cards_match("BI-V150", "天数智芯 Iluvatar BI-V150")
    assert cards_match("BI-V150", "天数 Iluvatar BI-V150")
    assert not cards_match("BI-V150", "天数智芯 Iluvatar BI-V100")
