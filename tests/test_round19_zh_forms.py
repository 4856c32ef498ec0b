"""Round 19 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r19.json): kinds of writing
the r19work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a card's memory after a copula or a limit ('一张显卡是 8g', '单卡只有 16g', '单卡最大 16g';
  bot.parse.memory_forms.CARD_THEN_MEMORY_RE);
- a pre-training started from a checkpoint a key names ('--pretrained_model_path models/llama-7b.bin'): a
  continued pre-training (bot.parse.stage_hints.PRETRAINED_INIT_RE);
- a value written with the sum that gives it ('每卡 batch 256/8=32'): the result, only when the sum holds
  (bot.parse.worked_sums);
- '也/都/还/就' and '要' between a config key and its value ('单卡 bs 也要 800'; vocab_patterns._SEP);
- a training layout switched on with a tool ('用 Footrain 开启 Zero3'): the tool named as the job's
  (bot.parse.unknown_tools.JOB_WORD_RE);
- a lower-case hyphenated name with a digit beside a job word ('基于 foo-base-zh-v1.5 做 finetune'): the
  model, named as typed (bot.parse.verb_names).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.parse.worked_sums import results_of_sums
from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("我一张显卡是 8g，微调 Qwen2-7B 能跑吗？", 8),
        ("单卡只有 16g，推理 Qwen2-7B 够吗？", 16),
        ("我单卡最大 16g，推理 Qwen2-7B 够吗？", 16),
        ("我的显卡是 12G 的，部署 Qwen2-7B 够不够？", 12),
    ],
)
def test_card_memory_after_a_copula_or_a_limit(capsys: pytest.CaptureFixture[str], text: str, gib: int):
    request = ask(capsys, text)["request"]
    assert request["gpu_memory_gib"] == gib


def test_pretraining_from_a_checkpoint_key_is_continued(capsys: pytest.CaptureFixture[str]) -> None:
    text = "预训练要多大显存？命令：deepspeed pretrain.py --pretrained_model_path models/qwen2-7b.bin"
    assert ask(capsys, text)["request"]["stage"] == "continued_pretrain"


def test_pretraining_without_a_checkpoint_stays_pretraining(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "从头预训练一个 1B 模型，8 张 A100，要多久？")["request"]["stage"] == "pretrain"


def test_a_sum_that_holds_is_its_result() -> None:
    assert results_of_sums("每卡 batch 256/8=32") == "每卡 batch 32"
    assert results_of_sums("bs 19200/24 = 800") == "bs 800"
    assert results_of_sums("4x8=32 张卡") == "32 张卡"


def test_a_sum_that_does_not_hold_stays_as_written() -> None:
    assert results_of_sums("每卡 batch 256/8=30") == "每卡 batch 256/8=30"
    assert results_of_sums("lr=1e-5, 3/4=2") == "lr=1e-5, 3/4=2"


def test_per_card_batch_from_its_sum(capsys: pytest.CaptureFixture[str]) -> None:
    request = ask(capsys, "微调 Qwen2-7B，global batch 256，8 卡，每卡 batch 256/8=32")["request"]
    assert (request["batch_size"], request["global_batch"], request["gpu_count"]) == (32, 256, 8)


def test_a_hedge_and_need_word_between_key_and_value(capsys: pytest.CaptureFixture[str]) -> None:
    request = ask(capsys, "微调 Qwen2-7B，24 卡，单卡 bs 也要 800")["request"]
    assert request["batch_size"] == 800


def test_tool_that_switches_on_zero_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "8 张 V100，用 Footrain 开启 Zero3，TP=1，PP=1，加载 Qwen2-72B 就 OOM")
    assert any("Footrain" in text for text, _reason in ignored_pairs(answer))


def test_lower_case_name_with_a_digit_beside_a_job_word(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "基于 foo-base-zh-v1.5 做 finetune，大概需要多大显存？")
    assert answer["interpretation"]["unknown_model"] == "foo-base-zh-v1.5"


def test_a_software_version_is_no_model(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "用 cuda-12.4 训练 qwen2-7b 要多少显存")
    assert answer["request"]["model"] == "Qwen2-7B"
    assert answer["interpretation"]["unknown_model"] is None
