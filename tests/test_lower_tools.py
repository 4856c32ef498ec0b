"""Tool names written in lower case (session 19, s19-fix item 9).

The tables' tools are read whatever their case ('llamafactory', 'unsloth', 'swift' before a fine-tuning
word, 'xtuner'); a tool no table has, written in lower case in the job's means slot ('用 opensloth 训练',
'using mytrainer to fine-tune'), is named as typed and not modelled; a setting word in that slot ('用 lora
微调') is none.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("question", "tool"),
    [
        ("用 llamafactory 微调 Qwen2.5-7B，4 张 4090", "LLaMA-Factory"),
        ("用LLaMAFactory微调Qwen2.5-7B", "LLaMA-Factory"),
        ("lora fine-tune qwen2.5-7b with unsloth on one 4090", "Unsloth"),
        ("用 swift 微调 Qwen2.5-7B 全参，8 张 A100", "ms-swift"),
        ("using axolotl to fine-tune Qwen2.5-7B with LoRA on 2 A100s", "axolotl"),
    ],
)
def test_table_tools_in_lower_case(question: str, tool: str) -> None:
    assert parse(question).request.training_tool == tool


@pytest.mark.parametrize(
    ("question", "typed"),
    [
        ("用 opensloth 训练 Qwen2.5-7B LoRA，2 张 4090", "opensloth"),
        ("using mytrainer to fine-tune Qwen2.5-7B with LoRA on 2 A100s", "mytrainer"),
        ("with opensloth to fine-tune qwen2.5-7b on 2 4090s", "opensloth"),
    ],
)
def test_an_unknown_lower_case_tool_is_named_as_typed(question: str, typed: str) -> None:
    a = answer(question)
    assert a.report.request.training_tool is None  # not modelled: the sizing has no model of it
    assert (f"training_tool: {typed}", "no_field") in [(i.text, i.reason) for i in a.interpretation.ignored]
    assert typed in render(a, "text")


def test_xtuner_in_lower_case_is_named() -> None:
    p = parse("xtuner qlora qwen2.5-7b on a 3090")
    assert ("training_tool: XTuner", "no_field") in p.unused_numbers


def test_an_unknown_lower_case_runtime_is_named() -> None:
    p = parse("用 fastllm 部署 Qwen2.5-7B")
    assert ("runtime: fastllm", "runtime_not_modelled") in p.unused_numbers


@pytest.mark.parametrize("question", ["用 lora 微调 Qwen2.5-7B", "using one to fine-tune Qwen2.5-7B"])
def test_a_setting_word_in_the_slot_is_no_tool(question: str) -> None:
    assert not [u for u in parse(question).unused_numbers if u[0].startswith(("training_tool", "runtime"))]
