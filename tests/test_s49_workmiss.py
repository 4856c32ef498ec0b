"""Session 49 workmiss (issue 24 item 3, the stack named and neither used nor mentioned): a package written
with its pip extras ('bigdl-llm[xpu]', 'unsloth[colab-new]') is software the job runs, named as typed when
no table knows it (bot.parse.pip_extras); a name another reader has, a key indexed with brackets and a list
in brackets are not. Both languages, must-read and must-not-misread, on sentences of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from bot.parse.pip_extras import extras_tools


def _answer(text: str) -> dict[str, Any]:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def _ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


NAMED = [
    # (question, stage sized, the item naming the package)
    (
        "Mistral-7B with transformers INT4 (fastquant-llm[xpu]) on an RTX 4090: how fast is decoding?",
        "inference",
        ("runtime: fastquant-llm", "runtime_not_modelled"),
    ),
    (
        "Qwen2-7B 用 transformers INT4（fastquant-llm[xpu]）在一张 RTX 4090 上推理，每秒多少 token？",
        "inference",
        ("runtime: fastquant-llm", "runtime_not_modelled"),
    ),
    (
        "LoRA fine-tuning Llama-3-8B on one A100 with tinytune-lm[cuda,flash]: how long for 1B tokens?",
        "finetune",
        ("training_tool: tinytune-lm", "no_field"),
    ),
    (
        "在一张 A100 上用 tinytune-lm[cuda] 做 Llama-3-8B 的 LoRA 微调，1B token 要多久？",
        "finetune",
        ("training_tool: tinytune-lm", "no_field"),
    ),
]


@pytest.mark.parametrize(("text", "stage", "item"), NAMED)
def test_package_with_extras_named(text: str, stage: str, item: tuple[str, str]) -> None:
    answer = _answer(text)
    assert answer["request"]["stage"] == stage
    assert item in _ignored(answer)


NOT_NAMED = [
    # a package a table knows: used, not named as unknown
    ("Serving Qwen2-7B with vllm[tpu] on one A100, 16 concurrent users", "vLLM", None),
    ("用 vllm[tpu] 在一张 A100 上部署 Qwen2-7B，16 并发", "vLLM", None),
    # a config key indexed with brackets, a list of cards in brackets: no package
    ("LoRA fine-tuning Llama-3-8B on one RTX 4090, layers[-1] frozen", None, None),
    ("部署 Qwen2-7B，GPUs [A100, H100] 选哪个？", None, None),
]


@pytest.mark.parametrize(("text", "runtime", "_"), NOT_NAMED)
def test_no_package_misread(text: str, runtime: str | None, _: None) -> None:
    answer = _answer(text)
    items = _ignored(answer)
    assert not any(
        t.startswith(("runtime: ", "training_tool: ")) and "[" not in t
        for t, r in items
        if r
        in (
            "runtime_not_modelled",
            "no_field",
        )
    )
    if runtime:
        assert answer["request"]["runtime"] == runtime


def test_extras_reader_alone() -> None:
    def never_known(name: str, tools_only: bool) -> bool:
        return False

    assert extras_tools("pip install ipex-llm[xpu] then run", False, never_known) == [
        ("runtime: ipex-llm", "runtime_not_modelled")
    ]
    assert extras_tools("target_modules[0] and weights[2]", True, never_known) == []
    assert extras_tools("GPUs [A100, H100]", False, never_known) == []
    assert extras_tools("用 fastquant-llm[xpu] 和 fastquant-llm[cpu]", True, never_known) == [
        ("training_tool: fastquant-llm", "no_field")
    ]
