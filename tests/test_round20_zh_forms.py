"""Round 20 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r20.json): kinds of writing
the r20work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a name before a clause giving its size ('FooOCR 是 1b 的模型', 'BarNet 这个 14B 的模型'): the model,
  named as typed (bot.parse.verb_names.SIZE_CLAUSE_RE);
- a memory a deployment needs said with '用到' ('为什么部署要用到 80G 显存'): a need, not the card's memory
  (bot.parse.memory_forms.MEMORY_NEED_RE);
- Huawei's Ascend 310 cards by their bare model number ('在 310P3 的卡上') and a TPU slice name
  ('TPU v3-256'): named as typed, never dropped for the default card (bot.parse.lexicon.UNKNOWN_GPU_RE);
- a KV-cache type written 'kv int8' with no cache word ('开 kv int8 量化'): the KV cache's, named as not
  used (the sizing has 16-bit and FP8 KV caches), never the weights' format (bot.parse.kv_cache_types);
- scorer: 'Ascend' is Huawei's line word before a card's name (tests.real_questions.cards_match).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs
from tests.real_questions import cards_match


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "name", "params"),
    [
        ("FooOCR 是 1b 的模型，部署要多少显存？", "FooOCR", 1e9),
        ("BarNet 这个 14B 的模型需要多大显存？", "BarNet", 14e9),
        ("Bazzle 是一个 140 亿参数的模型，推理要几张卡？", "Bazzle", 14e9),
    ],
)
def test_a_name_before_its_size_clause_is_the_model(
    capsys: pytest.CaptureFixture[str], text: str, name: str, params: float
) -> None:
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["params_total"] == params


def test_a_card_before_a_memory_clause_is_no_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "H100 这个 80G 的卡能部署 Qwen2-7B 吗？")["interpretation"]["unknown_model"] is None


def test_memory_a_deployment_uses_is_a_need(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "为什么部署 Qwen2-7B 要用到 80G 显存？")
    assert answer["request"]["gpu_memory_gib"] is None
    assert ("80", "stated_need") in ignored_pairs(answer)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("在 310P3 的卡上部署 Qwen2-7B 要多少显存？", "310P3"),
        ("用 310P 跑 Qwen2-7B 推理够吗？", "310P"),
        ("在 TPU v3-256 上预训练 1B 模型要多久？", "TPU v3-256"),
    ],
)
def test_a_card_outside_the_catalog_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, card: str
) -> None:
    answer = ask(capsys, text)
    assert answer["interpretation"]["unknown_gpu"] == card
    assert not any(item.startswith("-") for item, _ in ignored_pairs(answer))  # '-256' no unread number


def test_a_count_of_310_is_no_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "用 310 条样本微调 Qwen2-7B 要多久？")["interpretation"]["unknown_gpu"] is None


def test_kv_int8_is_the_kv_cache_not_the_weights(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "用 lmdeploy 开 kv int8 量化部署 Qwen2-7B，显存能省多少？")
    assert answer["request"]["kv_precision"] == "int8"  # s46 trialfix #6: sized (was named no_field)
    assert ("kv_precision: int8", "no_field") not in ignored_pairs(answer)
    assert answer["request"]["precision"] != "int8"


def test_int8_weights_stay_the_weights(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "用 int8 量化部署 Qwen2-7B 要多少显存？")["request"]["precision"] == "int8"


def test_ascend_is_a_line_word_before_the_card() -> None:
    assert cards_match("Ascend 310P3", "310P3")
    assert cards_match("Ascend 310P3", "Ascend 310P3")
    assert not cards_match("Ascend 310P3", "310P")
