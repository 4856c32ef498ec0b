"""Unknown tool words in a tool's slot (s20-fixb item 8): 'trained with q27', 'use ds4 to fine-tune', 'with
ROLL', 'RL with slime on Qwen3-8B', '用 ROLL 做 GRPO' — named as typed and not modelled (tool_slots' shapes
widened: four capitals, a short name ending in digits; the lower-case slot: 'use X to', '<job> … with X on
<a model or a count>'); never a GGUF format, a setting word or an English word. Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "item"),
    [
        (
            "trained with q27 on 8 A100s, Llama-3-8B full fine-tune, how long for 1B tokens?",
            "training_tool: q27",
        ),
        ("We use ds4 to fine-tune Qwen2.5-7B on 4 H100", "training_tool: ds4"),
        ("GRPO on Qwen3-8B with ROLL, 8 H100s", "training_tool: ROLL"),
        ("RL with slime on Qwen3-8B, 8 H100s, GRPO", "training_tool: slime"),
        ("用 ROLL 做 GRPO，Qwen3-8B，8 张 H800", "training_tool: ROLL"),
        ("用 slime 训练 Qwen3-8B 的 GRPO，8 张 H100", "training_tool: slime"),
        ("用 q27 跑 Qwen2.5-7B 推理，一张 4090", "runtime: q27"),
    ],
)
def test_the_tool_is_named_as_typed(text: str, item: str) -> None:
    ignored = answer_json(text)["interpretation"]["ignored"]
    assert [i["reason"] for i in ignored if i["text"] == item] in (["no_field"], ["runtime_not_modelled"])


@pytest.mark.parametrize(
    "text",
    [
        "用 q4 跑 Qwen2.5-7B 推理，一张 4090",
        "fine-tuned with lora on 8 A100s, Llama-3-8B",
        "SFT with ease on 8 A100s of Llama-3-8B",
        "trained with care on 8 A100s, Llama-3-8B, 1B tokens",
    ],
)
def test_no_tool_where_none_is(text: str) -> None:
    ignored = answer_json(text)["interpretation"]["ignored"]
    assert not [i for i in ignored if i["reason"] in ("no_field", "runtime_not_modelled")]
