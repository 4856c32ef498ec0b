"""Round 14 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r14.json): kinds of writing
the r14work half showed the parser missing, each read for its whole axis and tested in both languages through
the CLI (``sizing-bot ask --format json``):

- a memory asked or reported with a verb ('16G 可以吗', '24G 跑不起来', '12G 装得下吗', 'would 16GB work?',
  'can 24GB run it', "24GB doesn't fit"): one card of that memory (bot.parse.memory_forms.VERDICTS_ZH,
  VERDICTS_EN, IS_ENOUGH_RE); the host's memory stays the host's;
- 推理 said of reasoning ('7B 推理模型的 RL 训练', '训练一个推理模型', '数学推理能力'): no serving word, and
  'RL 训练' / 后训练 tune a model (bot.parse.reasoning_words, bot.parse.lexicon FINETUNE_RE);
- a hyphen-joined name as the question's subject, before 的 / 在 / a job noun ('Kimi-Audio 的 TTS',
  'MiniMax-Text-01 在 8 卡 A100 上', 'Kimi-Audio inference'): the model, named as typed; software and
  settings ('Flash-Attention 的', 'CUDA-12.4 的') never (bot.parse.verb_names.JOINED_SUBJECT_RE);
- transformers used as the engine of one run beside another engine ('用 transformers 加载…，换 vLLM 也
  OOM', 'loaded it using transformers; vLLM also OOMs'): named as another setup; a library version beside
  an engine is not (bot.parse.engines_named.ENGINE_USE_RE);
- a requirement said as one ('是不是硬性要求 24G 显存', '必须 24G 显存吗'): a need, never the user's card
  (bot.parse.memory_forms.MEMORY_NEED_RE);
- the user's card said with a copula ('我的显卡是 4070', '我的卡是一张 3090', 'my GPU is a 4070'): one card
  (bot.parse.words.ARTICLE_GPU_RE);
- two card memories offered as options ('12G 或者 16G 的显卡', 'a 12GB or 16GB card'): the first sized, the
  other named as another setup (bot.parse.memory_beside.ALT_MEMORY_RE).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.cli_run import ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT`` (its exit code is 2 when a model the
    catalog lacks is named and nothing is sized: these tests read the understanding, not the sizing)."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("只想跑 Qwen2.5-7B 的推理，16G 可以吗？", 16),
        ("Qwen2.5-14B 推理，12G 装得下吗", 12),
        ("微调 Qwen2.5-7B，24G 跑不起来", 24),
        ("Qwen2.5-7B 推理，16G 跑得动吗？", 16),
        ("Serving Qwen2.5-7B: would 16GB work?", 16),
        ("Can 24GB run Qwen2.5-14B inference?", 24),
        ("Fine-tuning Qwen2.5-7B, 24GB doesn't fit", 24),
        ("Serving Qwen2.5-7B, will 16GB suffice?", 16),
    ],
)
def test_memory_verdict_with_a_verb_is_one_card(
    capsys: pytest.CaptureFixture[str], text: str, gib: int
) -> None:
    """A memory asked or reported with a verb is one card of that memory; before, the number was left
    unread and the job sized on the default 80 GB card."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") == gib
    assert req(data, "gpu_count") == 1


@pytest.mark.parametrize(
    "text",
    [
        "推理 Qwen2.5-7B，机器内存 64G 可以吗",
        "Qwen2.5-7B 模型文件 15G 能跑吗",
        "My server's RAM is 64GB, would 64GB work?",
    ],
)
def test_memory_verdict_of_the_host_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Host memory or a file's size with a verdict is never read as a card of that memory."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") not in (64, 15)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("用 FooRL 对 7B 推理模型做 RL 训练需要多少显存？", "finetune"),
        ("训练一个 7B 的推理模型要多少张 A100", "pretrain"),
        ("为了提升数学推理能力，对 Qwen2.5-7B 做后训练要几张卡", "finetune"),
        ("Qwen2.5-7B 的 RL 微调，8 卡 A100 要多久", "finetune"),
        ("部署推理模型 Qwen3-32B 要多少显存", "inference"),
        ("Qwen2.5-7B 推理需要多少显存", "inference"),
        ("RL training of a 7B reasoning model on 8 A100s: how much memory?", "finetune"),
    ],
)
def test_reasoning_is_no_serving_word(capsys: pytest.CaptureFixture[str], text: str, stage: str) -> None:
    """推理 of reasoning ('推理模型', '推理能力') says no stage; the other words do. Before, '训练一个
    7B 的推理模型' and '推理模型 … 的 RL 训练' were sized as serving; serving words still serve."""
    assert req(ask(capsys, text), "stage") == stage


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("如果只用 Foo-Audio 的 TTS 功能，需要多少显存？", "Foo-Audio"),
        ("Bar-Text-02 在 8 卡 A100 80G 上推理 OOM", "Bar-Text-02"),
        ("How much VRAM for Foo-Audio inference?", "Foo-Audio"),
        ("What is Baz-Voice's memory footprint on one 4090?", "Baz-Voice"),
    ],
)
def test_joined_subject_name_is_the_model(capsys: pytest.CaptureFixture[str], text: str, name: str) -> None:
    """A hyphen-joined name the question is about is the model, named as typed (issue 24: never dropped)."""
    data = ask(capsys, text)
    assert (data.get("interpretation") or {}).get("unknown_model") == name


@pytest.mark.parametrize(
    "text",
    [
        "Flash-Attention 的显存占用多少，8 卡 A100 微调 7B",
        "CUDA-12.4 的环境下 8 卡 A100 微调 7B 要多久",
        "multi-node 的训练 7B 要多少卡",
        "用 LLaMA-Factory 的 cutoff_len 1024 微调 7B 要多少显存",
    ],
)
def test_joined_software_name_is_no_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Software, settings and tools joined by a hyphen are not the subject model."""
    data = ask(capsys, text)
    assert (data.get("interpretation") or {}).get("unknown_model") is None


@pytest.mark.parametrize(
    "text",
    [
        "用 transformers 加载 Qwen2.5-7B 推理 OOM，换 vLLM 也一样 OOM，单卡 4090",
        "用 HF transformers 跑 Qwen2.5-7B，换 vLLM 也 OOM",
        "Loaded Qwen2.5-7B using transformers, OOM; vLLM also OOMs on one 4090",
        "I ran Qwen2.5-7B with HF transformers and then vLLM, both OOM on a 4090",
    ],
)
def test_transformers_run_is_another_setup(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """transformers used as one run's engine is named beside the engine sized."""
    data = ask(capsys, text)
    assert req(data, "runtime") == "vLLM"
    assert ("runtime: transformers", "other_setup") in ignored_pairs(data)


def test_library_version_beside_an_engine_is_no_setup(capsys: pytest.CaptureFixture[str]) -> None:
    """A library's version beside the engine ('vLLM 0.5.0, transformers 4.40') is no second setup."""
    data = ask(capsys, "vLLM 0.5.0，transformers 4.40，Qwen2.5-7B 推理要多少显存")
    assert ("runtime: transformers", "other_setup") not in ignored_pairs(data)


@pytest.mark.parametrize(
    "text",
    [
        "部署 Qwen2.5-7B 是不是硬性要求 24G 显存？我的显卡是 4070，12G 显存。",
        "部署 Qwen2.5-7B 必须 24G 显存吗？我只有一张 4070",
        "Does serving Qwen2.5-7B strictly require 24GB of VRAM? My card is a 4070 with 12GB.",
    ],
)
def test_requirement_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """A requirement quoted ('要求 24G 显存') is named as a stated need, never the user's card's memory."""
    data = ask(capsys, text)
    assert req(data, "gpu") == "RTX-4070"
    assert req(data, "gpu_memory_gib") != 24
    assert ("24", "stated_need") in ignored_pairs(data)


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("本地部署 Foo-Bar 模型，我的显卡是 4070", "RTX-4070"),
        ("部署 Foo-Bar 模型要多少显存？我的卡是一张 3090", "RTX-3090"),
        ("Serving Foo-Bar locally; my GPU is a 4070 with 12GB.", "RTX-4070"),
    ],
)
def test_my_card_is_one_card(capsys: pytest.CaptureFixture[str], text: str, gpu: str) -> None:
    """'我的显卡是 X' / 'my GPU is an X': one card, even when the model is one the catalog lacks."""
    data = ask(capsys, text)
    assert req(data, "gpu") == gpu
    assert req(data, "gpu_count") == 1


def test_my_cards_with_a_count_keep_it(capsys: pytest.CaptureFixture[str]) -> None:
    """A count after the copula counts the cards ('我的显卡是 4 张 4090')."""
    assert req(ask(capsys, "我的显卡是 4 张 4090，部署 Foo-Bar 模型"), "gpu_count") == 4


@pytest.mark.parametrize(
    ("text", "sized", "other"),
    [
        ("想在 12G 或者 16G 的显卡上部署 int8 的 Qwen-7B，可以吗？", 12, "16"),
        ("用 24G 还是 48G 的卡微调 Qwen2.5-7B", 24, "48"),
    ],
)
def test_memory_options_first_sized_other_named(
    capsys: pytest.CaptureFixture[str], text: str, sized: int, other: str
) -> None:
    """Two memories offered as options: the first sized on one card. Was: the other named as another setup;
    since s37-left (issue 24's lists in any phrasing) memories written as a list with their unit ('24G 还是
    48G 的卡') get a row each in report.per_value, with or without a question mark after them."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") == sized
    assert req(data, "gpu_count") == 1
    assert [(r["setting"], r["value"]) for r in data["report"]["per_value"]] == [
        ("gpu_memory_gib", sized),
        ("gpu_memory_gib", int(other)),
    ]
    assert (other, "other_setup") not in ignored_pairs(data)


@pytest.mark.parametrize(
    "text",
    ["12G 或 16G 的卡能跑 Qwen2.5-7B 吗", "Can I serve Qwen2.5-7B on a 12GB or 16GB card?"],
)
def test_memory_options_asked_each_sized_in_a_row(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was: 12 sized, 16 named as other_setup. Since s36-lists (issue 24) two card memories followed by the
    question are each sized in a row of report.per_value (7B Q8_0 weights 8.1 GB fit either card alone)."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") == 12
    assert req(data, "gpu_count") == 1
    assert data["request"]["values_listed"] == [16]
    rows = data["report"]["per_value"]
    assert [(r["setting"], r["value"], r["fits"], r["gpus"]) for r in rows] == [
        ("gpu_memory_gib", 12, "yes", 1),
        ("gpu_memory_gib", 16, "yes", 1),
    ]
    assert ("16", "other_setup") not in ignored_pairs(data)


def test_count_before_memory_options_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    """A count before the options still counts the cards ('8 张 24G 或 48G 的卡')."""
    data = ask(capsys, "8 张 24G 或 48G 的卡微调 Qwen2.5-7B")
    assert (req(data, "gpu_count"), req(data, "gpu_memory_gib")) == (8, 24)
