"""Names that contain a model name (s20-fixb item 5): 'gpt4all', 'qwen-agent', 'qwen_agent', 'llama-index' —
a tool or app whose name holds a model family's is the tool, named as typed and not modelled, never the
model (before: 'gpt4all' was an unknown model 'gpt4', 'qwen-agent' passed in silence). Sentences of our
own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "item", "model"),
    [
        ("gpt4all on my laptop with 16GB RAM, can I run it?", ("runtime: GPT4All", "llama_cpp_based"), None),
        ("用 gpt4all 在 16G 内存的笔记本上能跑吗", ("runtime: GPT4All", "llama_cpp_based"), None),
        (
            "qwen-agent with Qwen2.5-7B on one 3090, enough?",
            ("runtime: qwen-agent", "runtime_not_modelled"),
            "Qwen2.5-7B",
        ),
        (
            "用 qwen-agent 搭配 Qwen2.5-7B，一张 3090 够吗",
            ("runtime: qwen-agent", "runtime_not_modelled"),
            "Qwen2.5-7B",
        ),
        (
            "llama-index with Llama-3-8B on a 4090",
            ("runtime: llama-index", "runtime_not_modelled"),
            "Llama-3-8B",
        ),
        (
            "fine-tune Qwen2.5-7B with qwen_agent on 8 A100",
            ("training_tool: qwen_agent", "no_field"),
            "Qwen2.5-7B",
        ),
    ],
)
def test_the_tool_is_named_not_the_model(text: str, item: tuple[str, str], model: str | None) -> None:
    data = answer_json(text)
    ignored = [(i["text"], i["reason"]) for i in data["interpretation"]["ignored"]]
    assert item in ignored and len([i for i in ignored if i[0].lower() == item[0].lower()]) == 1
    assert data["request"]["model"] == model
    assert data["interpretation"]["unknown_model"] is None  # never 'gpt4', 'qwen'


def test_a_sized_release_with_the_word_stays_the_model() -> None:
    data = answer_json("Serve deepseek-coder-v2-lite on a 4090")
    assert data["request"]["model"] == "DeepSeek-Coder-V2-Lite"


def test_the_other_model_is_named_as_typed() -> None:
    # 'deepseek-v2' beside 'deepseek-coder-v2-lite': named 'deepseek-v2', not 'deepseek-coder-v2'
    data = answer_json(
        "I served deepseek-v2 last month; now serve deepseek-coder-v2-lite on one A100, does it fit?"
    )
    assert data["request"]["model"] == "DeepSeek-Coder-V2-Lite"
    assert {"text": "model: deepseek-v2", "reason": "other_setup"} in data["interpretation"]["ignored"]
    # 'X vs Y, which fits?' asks a comparison (s36-fixb): Y sized as DeepSeek-V2 (236B), not DeepSeek-Coder-V2
    data = answer_json("deepseek-coder-v2-lite vs deepseek-v2 on one A100, which fits?")
    assert data["request"]["model"] == "DeepSeek-Coder-V2-Lite"
    rows = [(r["model"], r["params_total"], r["fits"]) for r in data["report"]["compared_models"]]
    assert rows == [("DeepSeek-Coder-V2-Lite", 16e9, True), ("DeepSeek-V2", 236e9, False)]
