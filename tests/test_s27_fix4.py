"""Session 27 second fresh-user trial (merged tree 5c096a00), its top findings as a user would expect, in both
languages.

#1 '4k prompt and 1k output' was sized at 4K with "Not used: '1k'": the word 'prompt' (提示词) before or after
the number is each request's input, as 'input' is, and the output is added to it (the sequence a request holds
in the KV cache: '4k input and 1k output tokens' was already 5,000, the sum of 4,000 and 1,000).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> object:
    assert main(["ask", "--format", fmt, question]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


_EN = "serve Llama-3.3-70B on H200 with SGLang, 100 concurrent users, "
_ZH = "用 SGLang 在 H200 上部署 Llama-3.3-70B，100 并发，"


@pytest.mark.parametrize(
    "question",
    [
        _EN + "4k prompt and 1k output",
        _EN + "4k prompt + 1k output",
        _EN + "4k prompts and 1k output tokens",
        _EN + "prompt 4k, output 1k",
        _ZH + "输入 4k 输出 1k",
        _ZH + "提示词 4k，输出 1k",
        _ZH + "4k 提示词、1k 输出",
        _ZH + "prompt 长度 4k，输出 1k",
    ],
)
def test_prompt_is_the_input_plus_output(capsys: pytest.CaptureFixture[str], question: str) -> None:
    data = ask(capsys, question)
    assert data["request"]["seq_len"] == 5000
    assert data["request"]["concurrency"] == 100
    text = ask(capsys, question, "text")
    assert "1k" not in text.splitlines()[1]  # no "Not used: '1k'"
    assert "5,000" in text.splitlines()[0]


def test_prompt_alone_is_still_the_context(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, _EN + "4k prompts")
    assert data["request"]["seq_len"] == 4096  # a context alone: 4K


# -- #2 a family of accelerators typed without a model: sized on its flagship, never on the A100 ---------


@pytest.mark.parametrize(
    ("question", "gpu", "name"),
    [
        ("用4张华为的卡部署Qwen2.5-7B", "Ascend-910B", "Ascend 910B"),
        ("用 4 张昇腾卡部署 Qwen2.5-7B", "Ascend-910B", "Ascend 910B"),
        ("serve Qwen2.5-7B on 4 Huawei cards", "Ascend-910B", "Ascend 910B"),
        ("serve Qwen2.5-7B on AMD GPUs", "MI300X", "MI300X"),
        ("fine-tune Llama-3.1-8B with LoRA on Intel Gaudi", "Gaudi3", "Gaudi 3"),
    ],
)
def test_family_is_sized_on_its_flagship(
    capsys: pytest.CaptureFixture[str], question: str, gpu: str, name: str
) -> None:
    data = ask(capsys, question)
    gpus = [a for a in data["assumptions"] if a["field"] == "gpu"]
    assert [a["value"] for a in gpus] == [gpu]
    text = ask(capsys, question, "text")
    assert "A100" not in "".join(text.splitlines()[:8])  # neither sized nor priced on it
    assert name in text.splitlines()[0]  # the headline names the card sized
    assert ("旗舰" if "卡" in question else "flagship") in text


def test_family_with_a_digit_is_a_model_not_swapped(capsys: pytest.CaptureFixture[str]) -> None:
    from estimator.gpu_families import family_flagship

    assert family_flagship("华为的卡") == "Ascend-910B"
    assert family_flagship("Ascend 920") is None  # a model typed: named as typed, never the 910B
    assert family_flagship("Moore Threads") is None


# -- #3 'what context can we get': the longest context at the precision sized first, lighter ones after --


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("what context can we get for Llama-3.1-8B on a 3090?", "43K, Q4_K_M weights reach 128K"),
        ("Llama-3.1-8B 在一张 3090 上最长能跑多长上下文？", "43K，Q4_K_M 权重可到 128K"),
    ],
)
def test_longest_context_at_bf16_then_lighter(
    capsys: pytest.CaptureFixture[str], question: str, said: str
) -> None:
    data = ask(capsys, question)
    inf = data["report"]["inference"]
    assert (inf["weight_format"], inf["context_tokens"], inf["min_gpus"]) == ("bf16", 44032, 1)
    (context,) = [a for a in data["assumptions"] if a["field"] == "context"]
    assert (context["params"]["lighter"], context["params"]["lighter_tokens"]) == ("q4_k_m", 131072)
    first = ask(capsys, question, "text").splitlines()[0]
    assert said in first and "don't fit" not in first


def test_longest_context_with_room_names_no_lighter_format(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "what context can we get for Llama-3.1-8B on an H100?")
    assert data["report"]["inference"]["context_tokens"] == 131072  # the native window at bf16
    (context,) = [a for a in data["assumptions"] if a["field"] == "context"]
    assert "lighter" not in context["params"]
