"""Round 21 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r21.json): kinds of writing
the r21work half showed the parser missing, each read for its axis and tested through the CLI
(``sizing-bot ask --format json``):

- a weight width written with a plural 'bits' ('13B 4bits 的模型', '4 bits 量化'): the 4-bit weights, as
  '4bit' was (bot.parse.precision_words.PRECISION_RE);
- a card's memory said as an upper bound before the card's words ('8G 以下的 GPU 显存', '12G 以内的显卡'): the
  card's memory (bot.parse.bound_memory); a lower bound ('8G 以上的显存') is no card's;
- a bare 内存 in a hardware line that lists the CPU before it ('CPU i5，内存 16G') or says the card's memory
  apart ('显卡 3060 12G'): the host's memory (bot.parse.prose_forms.host_memory);
- a retrieval model's joined name with an underscore part or no digit ('foo-reranker-base_v2',
  'bar-embedding-large'): the model, named as typed (bot.parse.verb_names);
- one card that failed, then one count tried ('单卡 OOM …我试了一下可以加载到三张卡上'): the counts tried, a
  range from one card (bot.parse.counts_tried);
- the most load a setup reached, after the load's noun ('并发量不到 50', '并发数最多 20'): the concurrency
  (bot.parse.role_left.L_CONC).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("text", "precision"),
    [
        ("部署 Qwen2-14B 4bits 的模型要多少显存？", "int4"),
        ("用 8 bits 量化部署 Qwen2-7B 够不够？", "int8"),
    ],
)
def test_a_plural_bits_width_is_the_weights(
    capsys: pytest.CaptureFixture[str], text: str, precision: str
) -> None:
    assert ask(capsys, text)["request"]["precision"] == precision


def test_a_bits_count_without_a_width_digit_is_no_precision(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "部署 Qwen2-7B 需要多少显存？日志里写着 32 bits")["request"]["precision"] != "int2"


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("6G 以下的 GPU 显存能推理 Qwen2-1.5B 吗？", 6.0),
        ("12G 以内的显卡能不能跑 Qwen2-7B？", 12.0),
        ("24GB 之内的卡能微调 Qwen2-7B 吗？", 24.0),
    ],
)
def test_a_card_memory_said_as_an_upper_bound_is_the_cards(
    capsys: pytest.CaptureFixture[str], text: str, memory: float
) -> None:
    assert ask(capsys, text)["request"]["gpu_memory_gib"] == memory


@pytest.mark.parametrize(
    "text",
    ["部署 Qwen2-7B 是不是需要 16G 以上的显存？", "10G 以下的模型哪个最适合部署在 4090 上？"],
)
def test_a_lower_bound_or_a_model_size_is_no_card_memory(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["gpu_memory_gib"] in (None, 24.0)  # 24: the 4090's own


@pytest.mark.parametrize(
    "text",
    [
        "电脑 CPU i5-12400，内存 16G，显卡 3060，推理 Qwen2-7B 有多慢？",
        "显卡 3060 12G，内存 16G，推理 Qwen2-7B 有多慢？",
    ],
)
def test_a_bare_ram_in_a_hardware_line_is_the_hosts(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask(capsys, text)
    assert answer["request"]["host_memory_gib"] == 16.0 or (
        "host_memory: 16 GB",
        "all_on_gpu",
    ) in ignored_pairs(answer)
    assert answer["request"]["gpu_memory_gib"] != 16.0


def test_a_bare_ram_beside_a_card_alone_stays_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    """'显卡 3090，内存 24G': no CPU listed nor card memory said apart: 24G may be the card's."""
    answer = ask(capsys, "显卡 3090，内存 24G，推理 Qwen2-7B 有多慢？")
    assert answer["request"]["host_memory_gib"] is None
    assert not any(item.startswith("host_memory") for item, _ in ignored_pairs(answer))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("为什么 foo-reranker-base_v2 在 Xinference 下部署要占 3G 显存？", "foo-reranker-base_v2"),
        ("bar-embedding-large 部署要多少显存？", "bar-embedding-large"),
    ],
)
def test_a_retrieval_models_joined_name_is_named_as_typed(
    capsys: pytest.CaptureFixture[str], text: str, name: str
) -> None:
    assert ask(capsys, text)["interpretation"]["unknown_model"] == name


def test_a_joined_setting_word_is_no_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "multi-node 在 8 卡上部署要多少显存？")["interpretation"]["unknown_model"] is None


def test_one_card_failed_then_one_count_tried_is_a_range(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "单卡部署 Qwen2-14B 总是 OOM。我试了一下可以加载到三张卡上，但是很慢。")
    assert (answer["request"]["gpu_count"], answer["request"]["gpu_count_max"]) == (1, 3)


def test_one_card_that_ran_then_a_count_tried_is_no_range(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "单卡能跑 Qwen2-7B，我试了一下加载到两张卡上")
    assert answer["request"]["gpu_count_max"] is None


def test_the_bare_kind_word_is_no_name(capsys: pytest.CaptureFixture[str]) -> None:
    """'reranker' alone names the kind of model; the name after the job word is the model's."""
    assert ask(capsys, "用 decoder_only reranker 微调 Bazmodel-7B 要多少显存？")["interpretation"][
        "unknown_model"
    ] == ("Bazmodel-7B")


@pytest.mark.parametrize(
    ("text", "load"),
    [
        ("两张 4090 部署 Qwen2-7B，并发量不到 40，正常吗？", 40),
        ("一张 L40S 推理 Qwen2-7B，并发数最多 12，怎么提升？", 12),
    ],
)
def test_the_most_load_a_setup_reached_is_the_load(
    capsys: pytest.CaptureFixture[str], text: str, load: int
) -> None:
    assert ask(capsys, text)["request"]["concurrency"] == load


def test_a_time_after_a_bare_load_word_and_bound_is_no_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert ask(capsys, "并发不到 3 秒就超时，部署 Qwen2-7B 怎么办？")["request"]["concurrency"] != 3
