"""Reading leftovers of session 25 (issue 24; /work/notes/s25/closing.md "Left"), session 26 gen:

- an Apple base chip typed bare with its memory ('M3 16GB', '16GB M1', 'M2 with 16GB') is a Mac with that
  unified memory (bot/parse/bare_chips.py), never the reference A100;
- an accelerator family typed without a model ('Intel Gaudi', 'Ascend NPUs', '昇腾卡', 'AMD GPUs', 'TPUs')
  is named as typed and asked which model (bot.render.understood.FAMILY_LINE), never sized silently as
  the reference A100 (design.md §8);
- a serving line with a count of one says 'one sequence at a time', not '1 concurrent sequences'.
"""

from __future__ import annotations

import pytest

from bot.cli import ask
from bot.render.i18n import translate
from bot.render.understood import FAMILY_LINE
from tests.real_questions import answer_json


# Apple's tech specs: MacBook Air (M1) 8/16 GB, MacBook Air (M2) 8/16/24 GB, MacBook Pro (M3) 8/16/24 GB,
# Mac mini (M4) 16/24/32 GB of unified memory: the memory typed is the one sized.
@pytest.mark.parametrize(
    ("question", "gpu", "gib"),
    [
        ("M3 16GB: how fast is Qwen2.5-7B Q4 with llama.cpp?", "Apple-M3-16GB", 16.0),
        ("Can Ollama run Llama-3.1-8B on my M2 with 16GB?", "Apple-M2-16GB", 16.0),
        ("16GB M1, Mistral 7B in Ollama, tokens per second?", "Apple-M1-16GB", 16.0),
        ("M3 16GB能跑Qwen2.5-7B吗", "Apple-M3-16GB", 16.0),
        ("M4 24G 部署 Qwen2.5-14B Q4 速度多少", "Apple-M4-24GB", 24.0),
        ("16G 的 M1 跑 qwen2.5 7b 速度怎么样", "Apple-M1-16GB", 16.0),
    ],
)
def test_a_bare_base_chip_with_its_memory_is_a_mac(question: str, gpu: str, gib: float) -> None:
    request = answer_json(question)["request"]
    assert (request["gpu"], request["gpu_memory_gib"], request["gpu_count"]) == (gpu, gib, 1)


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-7B on an m3.xlarge with 16GB, how fast?",  # an AWS instance type, not the chip
        "Phase M2 uses 16 GPUs (A100 80GB): how long to train a 7B on 100B tokens?",  # a count of GPUs
        "M3 阶段用 8 张 A100 训练 7B 模型 1000 亿 token 要多久",  # a milestone, no memory beside it
    ],
)
def test_an_m_word_without_its_memory_is_not_a_mac(question: str) -> None:
    assert not str(answer_json(question)["request"]["gpu"]).startswith("Apple")


@pytest.mark.parametrize(
    ("question", "typed", "members"),
    [
        ("Can I fine-tune Llama-3-8B with LoRA on Intel Gaudi?", "Intel Gaudi", "Gaudi 2"),
        ("Serve Qwen2.5-72B on 8 Ascend NPUs with vLLM, how much concurrency?", "Ascend NPUs", "Ascend 910B"),
        ("Can I train a 7B model on 4 AMD GPUs?", "AMD GPUs", "MI210"),
        ("How long to pretrain a 1B model on 100B tokens on TPUs?", "TPUs", "TPU v5e"),
        ("8张昇腾卡部署Qwen2.5-72B能撑多少并发", "昇腾卡", "Ascend 910B"),
        ("4张AMD显卡能全量微调7B模型吗", "AMD显卡", "MI210"),
        ("用英特尔 Intel Gaudi 做 LoRA 微调 Llama-3-8B 要多久，1 亿 token", "Intel Gaudi", "Gaudi 3"),
    ],
)
def test_a_family_without_a_model_is_named_and_asked(question: str, typed: str, members: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_gpu"] == typed
    text, _ = ask(question, None, "text")
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in question) else "en"
    head = translate(lang, FAMILY_LINE, name=typed, used="X", names="Y").split("X")[0]
    assert head in text and members in text  # named as typed, asked which, its catalog members offered


@pytest.mark.parametrize(
    ("question", "gpu"),
    [
        ("Can I serve Llama-3.1-8B with vllm-ascend on Ascend 910B?", "Ascend-910B"),  # a runtime's name
        ("How long to pretrain a 1B model on a TPU v5e pod with 100B tokens?", "TPUv5e"),  # a model given
        ("Serve Llama-3.1-70B on 8 AMD MI300X with vLLM", "MI300X"),
        ("Can I fine-tune a 7B on 8 NVIDIA GPUs with 40GB of memory each?", "A100-SXM4-40GB"),  # by memory
    ],
)
def test_a_model_or_runtime_name_is_not_a_family(question: str, gpu: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_gpu"] is None
    assert answer["request"]["gpu"] == gpu


# Qwen2.5-32B-AWQ (≈ 19 GB of int4 weights) on one 24 GB RTX 4090 under vLLM's 0.9 of memory: its KV cache
# (256 KiB a token) holds one 8K sequence at a time, so the price is per one sequence, said in words.
@pytest.mark.parametrize(
    ("question", "one", "plural"),
    [
        (
            "Qwen2.5-32B-AWQ on one RTX 4090 at 8k context with vLLM, monthly cost?",
            "per million output tokens with one sequence at a time",
            "at 1 concurrent",
        ),
        (
            "用vLLM在一张4090上部署Qwen2.5-32B-AWQ，上下文16k，每月多少钱",
            "按一次只跑 1 条序列计",
            "1 条并发时",
        ),
    ],
)
def test_a_count_of_one_is_said_as_one_sequence(question: str, one: str, plural: str) -> None:
    text, _ = ask(question, None, "text")
    assert one in text and plural not in text


def test_a_count_above_one_keeps_the_plural() -> None:
    text, _ = ask("Llama-3.1-70B AWQ on 2 RTX 4090 at 32k context with vLLM, monthly cost?", None, "text")
    assert "at 24 concurrent, the most these GPUs hold" in text and "one sequence at a time" not in text
