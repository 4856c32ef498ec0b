"""Prompt and completion lengths next to a max length (issue 24, part U2): the max length sets the
sequence; the parts are named as not used, never dropped silently. Through the CLI, both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    "text",
    [
        "DPOTrainer 加 LoRA 爆显存：lora_r 64，max_prompt_length 256，max_length 512，单张 A100，Qwen2.5-7B",
        "DPOTrainer with LoRA OOMs: lora_r 64, max_prompt_length 256, max_length 512, one A100, Qwen2.5-7B",
    ],
)
def test_prompt_length_inside_a_max_length_is_named(capsys, text):
    main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert data["request"]["seq_len"] == 512
    assert {"text": "max_prompt_length: 256", "reason": "no_field"} in data["interpretation"]["ignored"]


@pytest.mark.parametrize(
    "text",
    [
        "verl 做 Qwen2-7B 的 GRPO，8 张 A100 80G：data.max_prompt_length=512，data.max_response_length=1024",
        "GRPO of Qwen2-7B with verl on 8 A100s: data.max_prompt_length=512, data.max_response_length=1024",
    ],
)
def test_prompt_and_completion_alone_make_the_sequence(capsys, text):
    main(["ask", "--format", "json", text])
    assert json.loads(capsys.readouterr().out)["request"]["seq_len"] == 512 + 1024
