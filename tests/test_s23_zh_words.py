"""Chinese answers without English words (s22 trial #11): a catalog name's architecture note and a request
field echoed in the 'Used:' line are worded in Chinese; English answers keep them as before."""

from __future__ import annotations

from bot.render.model_name_zh import localized_model_name
from tests.cli_run import ask_quietly


def test_the_architecture_note_of_a_name_in_chinese() -> None:
    name = "DeepSeek-R1 (671B MoE, V3 architecture)"
    assert localized_model_name(name, "zh") == "DeepSeek-R1（671B MoE，V3 架构）"
    assert localized_model_name(name, "en") == name
    assert localized_model_name("DeepSeek-V3 (671B MoE)", "zh") == "DeepSeek-V3 (671B MoE)"  # no note


def test_a_chinese_serving_headline_has_no_english_note() -> None:
    line = ask_quietly("部署DeepSeek-R1 671B，用vLLM，8张H20够不够，并发50").splitlines()[0]
    # s24 review #6: sized on vLLM's default plain TP, the 8 H20 do not hold the 50 × 32K. s26: with vLLM's V1
    # start-up profile (s26-trfix, a smaller workspace) they hold 1 of the 50: the short-of-load headline
    assert line.startswith(
        "DeepSeek-R1（671B MoE，V3 架构） fp8（vLLM） 推理，8 张 H20：不够 —— 上下文 32K 时只能容纳 1 条并发"
    )
    assert "architecture" not in line


def test_the_used_line_says_the_tool_field_by_its_label_zh() -> None:
    text = ask_quietly("72B全参微调，ZeRO-3，128张A100 80G，100亿token")
    assert "已使用：“训练框架：DeepSpeed”（没有点名，是从它的设置推断的" in text
    assert "training_tool" not in text


def test_the_used_line_says_the_tool_field_by_its_label_en() -> None:
    """s24 review #3: English said 'training_tool: DeepSpeed' (the JSON key) where Chinese says 训练框架."""
    text = ask_quietly("72B full fine-tune, ZeRO-3, 128 A100 80G, 10B tokens")
    assert "Used: “training framework: DeepSpeed”" in text
    assert "training_tool" not in text
