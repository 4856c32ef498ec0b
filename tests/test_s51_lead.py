"""Session 51 (lead): a laptop or desktop CPU named by its bare model number right before a CPU word
('my 12700H CPU', '7840HS 处理器', '13900K CPU') is a part number, not a figure of the job
(bot.parse.hardware_specs.CPU_MODEL_RE): '12700H' was read as 12,700 hours and the reply added a line
"1 × A100 80G for 12,700 hours" (r43 en). Hours written the same way before a CPU-time word ('2000h CPU
time', '2000h CPU hours') and hours before a card stay hours. Both languages, must-read and
must-not-misread, on sentences of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _answer(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)


CPU_MODEL = [
    "My 12700H CPU runs llama-2-7b Q4_K_M at 5 tokens per second; how fast would an RTX 4060 be?",
    "On a 13900K CPU with one RTX 4090, how many tokens/s for Qwen2.5-14B Q4_K_M with llama.cpp?",
    "我的笔记本是 7840HS 处理器加 RTX 4060，跑 Qwen2.5-7B 的 Q4 量化每秒多少 token？",
    "12900H 处理器、32G 内存的笔记本，能用 Ollama 跑 DeepSeek-R1-Distill-Qwen-14B 吗？",
]


@pytest.mark.parametrize("text", CPU_MODEL)
def test_a_bare_cpu_model_number_is_no_hours(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["hours"] is None, text
    assert answer["request"]["stage"] == "inference", text


HOURS = [
    ("Pretrain a 7B on 1T tokens within 1000h on H100s: how many GPUs?", 1000.0),
    ("We have a budget of 2000h CPU time and 500 GPU-hours: can a 7B LoRA on one A100 finish?", None),
    ("7B 模型 1 万亿 token 预训练，1500h 内完成，要多少张 A100？", 1500.0),
]


@pytest.mark.parametrize(("text", "hours"), HOURS)
def test_hours_before_a_card_or_a_cpu_time_word_stay(text: str, hours: float | None) -> None:
    answer = _answer(text)
    if hours is None:  # '2000h CPU time' is no card's hours: never read as a CPU's model number either
        texts = [i["text"] for i in answer["interpretation"]["ignored"]]
        read = answer["request"]["hours"] == 2000.0 or any("2000" in t for t in texts)
        assert read, (answer["request"], texts)
    else:  # a time limit for the whole job: the deadline in days (hours / 24)
        assert answer["request"]["deadline_days"] * 24 == pytest.approx(hours), text


ONE_REQUEST = [
    "Llama-2-13B on one A100 is slow: a request with 600 tokens takes 40 s. What speed should it reach?",
    "Mistral-7B on an L4: each request of 1,000 tokens needs 20 s. Is that normal on one card?",
    "Qwen2.5-7B 在一张 4090 上，一个请求 500 token 要 20 秒，正常速度应该是多少？",
    "单张 L20 跑 Qwen2.5-14B，每个请求 1000 token 耗时 25 秒，这个速度正常吗？",
]


@pytest.mark.parametrize("text", ONE_REQUEST)
def test_one_request_with_its_tokens_is_serving(text: str) -> None:
    """'a request with 600 tokens takes 40 seconds' is a served request (lexicon.WEAK_INFERENCE_RE): it
    was sized as a pre-training on 600 tokens (r46 en)."""
    answer = _answer(text)
    assert answer["request"]["stage"] == "inference", text
    assert answer["request"]["tokens"] is None, text


TRAINING_WITH_REQUEST_WORDS = [
    ("Pretrain a 7B on 1T tokens with 64 H100s; each request of the loader is 4 MB. How many days?", 1e12),
    ("用 64 张 H100 预训练 7B，数据 1T token，每个请求 800 token 的数据加载，要训多少天？", 1e12),
]


@pytest.mark.parametrize(("text", "tokens"), TRAINING_WITH_REQUEST_WORDS)
def test_a_training_word_still_wins(text: str, tokens: float) -> None:
    answer = _answer(text)
    assert answer["request"]["stage"] == "pretrain", text
    assert answer["request"]["tokens"] == tokens, text


OTHER_NAME_IN_BRACKETS = [
    ("对 minicpm-v-v2_5-chat（MiniCPM-Llama3-V-2_5）做 LoRA 微调要多少显存？", "minicpm-v-v2_5-chat"),
    ("用 ms-swift 对 foo-vl-v3_1-chat（Foo-Llama3-VL-3_1）做 LoRA 微调，要多少显存？", "foo-vl-v3_1-chat"),
    ("LoRA fine-tuning minicpm-v-v2_5-chat (MiniCPM-Llama3-V-2_5) on one A100?", "minicpm-v-v2_5-chat"),
]


@pytest.mark.parametrize(("text", "name"), OTHER_NAME_IN_BRACKETS)
def test_a_name_with_its_other_name_in_brackets_is_named(text: str, name: str) -> None:
    """'A（B）做 LoRA': the name before its other name in brackets is the unknown model, named as typed
    (bot.parse.verb_names._ALIAS_AFTER_RE); before, neither was named and the message was taken for a
    follow-up with no question before it (r46 zh)."""
    answer = _answer(text)
    assert answer["interpretation"]["unknown_model"] == name, answer["interpretation"]


def test_a_size_in_brackets_stays_the_size() -> None:
    answer = _answer("对 FooLM（13B）做 LoRA 微调要多少显存？")
    assert answer["request"]["params_total"] == 13e9


def test_a_base_chip_with_its_chip_word_then_memory_is_that_chip() -> None:
    """s51 review: 'M2 芯片 16G' was named "M2 is not in my catalog" and sized on an A100 (the chip word
    stood between the chip and its memory: bot.parse.bare_chips.BARE_CHIP_RE now lets it)."""
    for text in ("我用 M2 芯片 16G 跑 Qwen2.5-7B 多快", "M2 chip 16GB, Qwen2.5-7B speed?"):
        answer = _answer(text)
        assert answer["request"]["gpu"] == "Apple-M2-16GB", (text, answer["request"]["gpu"])


@pytest.mark.parametrize(
    ("text", "gpu"),
    [
        ("Mac mini 16GB, Qwen2.5-7B Q4 speed?", "Apple-M4-16GB"),
        ("Mac mini 64GB，Qwen2.5-32B Q4 多快？", "Apple-M4-Pro-64GB"),
    ],
)
def test_a_mac_mini_is_sized_as_a_chip_sold_with_its_memory(text: str, gpu: str) -> None:
    """s51 review: a 16 GB Mac mini is an M4 (120 GB/s; the M4 Pro mini starts at 24 GB, up to 64 GB:
    apple.com Mac mini (2024) tech specs); it was the M4 Pro (273 GB/s), decoding ~2.3x too fast."""
    assert _answer(text)["request"]["gpu"] == gpu
