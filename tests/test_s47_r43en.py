"""Session 47, round 43 en (issue 24): readers for what r43work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the other has the phrasing.

- one card of a kind the catalog lacks, named with a singular article or a one-card label ('on an Arc A730M',
  'and a Quadro P4000 GPU', 'GPU: Nvidia Geforce GTX 1650 Super', '一张 MI50'): one card, as 'on an A100' is
  (bot.parse.one_card_named.one_unknown_card); never when the count is asked nor in the plural;
- a card count compared with another ('on 1 GPU vs running on 2 GPUs', '1 张卡 vs 2 张卡', 'on 4 GPUs …
  compared to 8 GPUs'): both the job's, the range sized (bot.parse.counts_tried); never sizes compared
  ('7B vs 13B on 2 GPUs');
- exo (github.com/exo-explore/exo) named as a serving engine not modelled; EasyDeL and EasyLM (JAX trainers on
  TPUs) named as training tools; never 'exoskeleton' nor 'an easy LM question';
- an Intel Arc card by its number without the A-series letter ('an Intel ARC 770 GPU', 'an ARC 770M'): the
  card, named as typed, one card, never 770 GPUs (bot.parse.hardware_specs.ARC_NUMBER_RE, the numbers of
  ark.intel.com's Arc A-series); never 'arc 300 units';
- ParlAI's input truncation ('--text-truncate 512', '--truncate 1024'; parlai/core/torch_agent.py): the
  sequence length; never 'I truncate the 4 documents'.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.parse.hardware_specs import ARC_NUMBER_RE
from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], dict[str, Any], list[tuple[str | None, str | None]]]:
    answer = answer_json(text)
    interpretation = answer.get("interpretation") or {}
    items = interpretation.get("ignored") or []
    return answer["request"], interpretation, [(i.get("reason"), i.get("text")) for i in items]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("llama2-13b in INT4 on an Arc A730M: is 108ms/token reasonable?", "A730M"),
        (
            "On a workstation with a Xeon Gold 5222 CPU @ 3.80GHz and a Quadro P4000 GPU, can a 13B run?",
            "Quadro P4000",
        ),
        (
            "Can I run a 13B model? CPU: i5-10400F, RAM: 32GB, GPU: Nvidia Geforce GTX 1650 Super.",
            "GTX 1650 Super",
        ),
        ("我的显卡是一张 Tesla P4，能跑 13B 吗？", "Tesla P4"),  # s48 cat: the MI50 is a catalog card now
    ],
)
def test_one_unknown_card_is_one_card(text: str, typed: str) -> None:
    request, interpretation, _ = _ask(text)
    assert interpretation["unknown_gpu"] == typed
    assert request["gpu_count"] == 1


@pytest.mark.parametrize(
    "text",
    [
        "How many Quadro P4000 GPUs do I need to serve a 13B model?",
        "I have the Quadro P4000s in a server; can they serve a 13B model?",
        "要几张 MI50 才能跑 70B？",
    ],
)
def test_unknown_card_asked_or_plural_is_not_one(text: str) -> None:
    request, _, _ = _ask(text)
    assert request["gpu_count"] != 1


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        (
            "How long is a GPT-NeoX-20B inference? Any difference running on 1 GPU vs running on 2 GPUs?",
            1,
            2,
        ),
        ("Qwen2.5-7B 推理速度：1 张卡 vs 2 张卡 有什么区别？", 1, 2),
        ("Is serving Llama-3-8B on 4 GPUs compared to 8 GPUs any faster?", 4, 8),
    ],
)
def test_counts_compared_are_a_range(text: str, low: int, high: int) -> None:
    request, _, items = _ask(text)
    assert (request["gpu_count"], request["gpu_count_max"]) == (low, high)
    assert ("repeated", str(high)) not in items


@pytest.mark.parametrize(
    "text", ["Is 7B vs 13B different on 2 GPUs?", "7B vs 13B 在 2 张卡上推理速度差多少？"]
)
def test_sizes_compared_keep_one_count(text: str) -> None:
    request, _, _ = _ask(text)
    assert (request["gpu_count"], request["gpu_count_max"]) == (2, None)


@pytest.mark.parametrize(
    ("text", "field", "name", "reason"),
    [
        (
            "I tried to run DeepSeek V3 with exo on 2 Mac Studio M2 Ultra 192G and got an error.",
            "runtime",
            "exo",
            "runtime_not_modelled",
        ),
        (
            "我用 exo 在两台 Mac Studio M2 Ultra 192G 上跑 DeepSeek V3，报错了。",
            "runtime",
            "exo",
            "runtime_not_modelled",
        ),
        (
            "After upgrading EasyDeL, SFT of Qwen2.5-7B on a TPU v4-64 runs out of memory.",
            "training_tool",
            "EasyDeL",
            "no_field",
        ),
        (
            "用 EasyLM 在 TPU v3-8 上训练 13B 的 LLaMA 报 RESOURCE_EXHAUSTED。",
            "training_tool",
            "EasyLM",
            "no_field",
        ),
    ],
)
def test_tools_named(text: str, field: str, name: str, reason: str) -> None:
    _, _, items = _ask(text)
    assert (reason, f"{field}: {name}") in items


@pytest.mark.parametrize(
    "text",
    [
        "My exoskeleton robot runs a 7B model on a Jetson Orin; how fast is it?",
        "An easy LM question: how much memory does a 7B model need on one A100?",
    ],
)
def test_tools_not_misread(text: str) -> None:
    _, _, items = _ask(text)
    assert not [i for i in items if i[1] and (" exo" in i[1] or "EasyLM" in i[1])]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Will a 7B model run on an Intel ARC 770 GPU with llama.cpp?", "Intel ARC 770"),
        ("I have an ARC 770M; llama-2-7b Q5_K_M gives 6.8 tokens per second.", "ARC 770M"),
        ("我有一张 Intel Arc 770 显卡，能跑 7B 吗？", "Intel Arc 770"),
    ],
)
def test_arc_by_number_is_one_card(text: str, typed: str) -> None:
    request, interpretation, _ = _ask(text)
    assert interpretation["unknown_gpu"] == typed
    assert request["gpu_count"] == 1


def test_arc_numbers_are_intels_a_series() -> None:
    """ark.intel.com lists the Arc A-series as A310, A380, A580, A750, A770 (desktop) and A370M, A550M,
    A570M, A730M, A770M (laptops): those numbers alone read as the card, no other number after 'arc'."""
    for number in ("310", "380", "580", "750", "770", "370m", "550m", "570m", "730m", "770m"):
        assert ARC_NUMBER_RE.search(f"intel arc {number} gpu")
    for other in ("300 units", "2 gpus", "770.5", "7700"):
        assert ARC_NUMBER_RE.search(f"the arc {other}") is None


def test_arc_other_number_is_no_card() -> None:
    request, interpretation, _ = _ask("The reactor arc 300 units of power... can a 7B model run on 2 A100s?")
    assert interpretation["unknown_gpu"] is None
    assert request["gpu_count"] == 2


@pytest.mark.parametrize(
    ("text", "length"),
    [
        (
            "Fine-tuning BB3 3B in ParlAI on an A100 40GB with --text-truncate 512 --label-truncate 64 OOMs.",
            512,
        ),
        (
            "Fine-tuning BlenderBot 3B with parlai train_model --truncate 1024 on one A100 80GB: how much?",
            1024,
        ),
        ("用 ParlAI 微调 3B 模型，--text-truncate 512，单张 A100 40G 够吗？", 512),
    ],
)
def test_parlai_truncate_is_the_sequence(text: str, length: int) -> None:
    request, _, _ = _ask(text)
    assert request["seq_len"] == length


def test_truncate_verb_is_no_length() -> None:
    request, _, _ = _ask("I truncate the 4 documents, then fine-tune a 7B on 2 A100s. How long?")
    assert request["seq_len"] != 4


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (
            "Serving Llama-3-8B on one A100 with an input length of 2048 and 256 output tokens: requests/s?",
            2048,
        ),
        (
            "llama2-13b in INT4 on an Arc A730M: with an input length of 32, the first token takes 0.94s?",
            32,
        ),
        ("用 vLLM 在一张 A100 上部署 Llama-3-8B，输入长度为 2048，输出 256，每秒能处理多少请求？", 2048),
    ],
)
def test_input_length_with_words_between_is_the_prompt(text: str, prompt: int) -> None:
    """'an input length of 2048' reads as 'input length 2048' does (and '输入长度为 2048'): the request's
    prompt, never the whole sequence with the output named as inside it."""
    request, _, items = _ask(text)
    assert request["prompt_tokens"] == prompt
    assert ("output_in_context", "output_tokens: 256") not in items


def test_sample_length_with_words_between_stays_the_sequence() -> None:
    request, _, _ = _ask("Fine-tuning Llama-3-8B with LoRA on one A100, sample length of up to 4096: memory?")
    assert (request["seq_len"], request["prompt_tokens"]) == (4096, None)
