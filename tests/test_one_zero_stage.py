"""One source for the tool and the ZeRO stage shown (s8 fix item 5).

- DeepSpeed named beside its ZeRO stage: the stage is applied (DeepSpeed's own setting, Rajbhandari et
  al. 2020), so the tool is used — it was listed under "Not used: training_tool: DeepSpeed".
- GRPO of Qwen2.5-7B on 8 × H100: the first line said ZeRO-2 (the layout whose band's high end fits,
  estimator.fit_change.with_high_edge_plan) while the "Recommended 8 GPUs" layout said ZeRO-1 (the likely
  figure's); one GPU count has one layout now."""

from __future__ import annotations

import json
import re

import pytest

from bot.cli import main


def _ask(capsys, question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "question",
    [
        "full fine-tune Qwen2.5-7B with DeepSpeed ZeRO-3 on 8 A100, 1B tokens",
        "用 DeepSpeed ZeRO-3 全参微调 Qwen2.5-7B，8张A100，10亿token",
        "full fine-tune Qwen2.5-7B on 8 A100 with deepspeed zero stage 2, 1B tokens",
    ],
)
def test_deepspeed_with_its_zero_stage_is_used(capsys, question: str) -> None:
    answer = _ask(capsys, question)
    stage = answer["request"]["zero_stage"]
    assert stage in (2, 3) and answer["report"]["memory"]["plan"]["zero_stage"] == stage
    (named,) = [i for i in answer["interpretation"]["ignored"] if "DeepSpeed" in i["text"]]
    assert named == {"text": "training_tool: DeepSpeed", "reason": "settings_applied"}
    second = answer["reply"].splitlines()[1]
    # s24 review #2: the English 'Used' line names it "training framework: DeepSpeed" (not the JSON key)
    assert second.startswith(("Used: “training framework: DeepSpeed”", "已使用：“训练框架：DeepSpeed”"))
    assert "Not used" not in answer["reply"] and "未使用" not in answer["reply"]
    assert f"ZeRO-{stage}" in answer["reply"].splitlines()[0]


def test_deepspeed_without_settings_is_still_named(capsys) -> None:
    answer = _ask(capsys, "full fine-tune Qwen2.5-7B with DeepSpeed on 8 A100, 1B tokens")
    assert {"text": "training_tool: DeepSpeed", "reason": "no_field"} in answer["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("question", "recommended"),
    [
        ("GRPO Qwen2.5-7B on 8 H100 memory?", "Recommended 8 GPUs: TP 1 × PP 1 × DP 8, ZeRO-2"),
        ("GRPO 训练 Qwen2.5-7B，8张H100，显存够吗", "推荐 8 张：TP 1 × PP 1 × DP 8，ZeRO-2"),
    ],
)
def test_grpo_headline_and_layout_name_one_zero_stage(capsys, question: str, recommended: str) -> None:
    answer = _ask(capsys, question)
    mem = answer["report"]["memory"]
    assert mem["plan_gpus"] == mem["recommended_gpus"] == 8
    assert mem["plan"]["zero_stage"] == mem["recommended_plan"]["zero_stage"] == 2
    assert mem["recommended_per_gpu_bytes"] == mem["per_gpu_bytes"]
    head = answer["reply"].splitlines()[0]
    assert set(re.findall(r"ZeRO-\d", answer["reply"].split("DeepSpeed ZeRO")[0])) == {"ZeRO-2"}, head
    assert recommended in answer["reply"]


@pytest.mark.parametrize(
    ("question", "used"),
    [
        # s24 review #2: 'training framework: DeepSpeed' in the English reply (the JSON keeps training_tool)
        (
            "full fine-tune Qwen2.5-7B with ZeRO-3 on 8 A100, 1B tokens",
            "Used: “training framework: DeepSpeed”",
        ),
        ("用 ZeRO-3 全参微调 Qwen2.5-7B，8张A100，10亿token", "已使用：“训练框架：DeepSpeed”"),
    ],
)
def test_deepspeed_read_from_its_zero_stage_is_said_used(capsys, question: str, used: str) -> None:
    """Not named, read from its ZeRO stage: the JSON keeps 'tool_inferred'; the reply says it is used."""
    answer = _ask(capsys, question)
    assert {"text": "training_tool: DeepSpeed", "reason": "tool_inferred"} in answer["interpretation"][
        "ignored"
    ]
    assert used in answer["reply"] and "DeepSpeed”" not in answer["reply"].split(used)[1]
    assert "Not used" not in answer["reply"] and "未使用" not in answer["reply"]
