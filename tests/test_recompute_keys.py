"""Recompute written as config keys in prose (issue 24 item 2, part U2): HF ``--gradient_checkpointing
false`` is no recompute; NeMo ``activations_checkpoint_granularity=selective`` is selective. CLI, zh/en."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        (
            "3 张 A100 用 swift sft 做 Qwen2.5-7B 的 LoRA：--gradient_checkpointing false --deepspeed zero2",
            "none",
        ),
        ("LoRA of Qwen2.5-7B on 3 A100s: --gradient_checkpointing false --deepspeed zero2", "none"),
        ("NeMo 在 8 张 A100 上预训练 LLaMA 13B：activations_checkpoint_granularity=selective", "selective"),
        (
            "NeMo pre-training of LLaMA 13B on 8 A100: activations_checkpoint_granularity=selective",
            "selective",
        ),
        ("LoRA of Qwen2.5-7B on 3 A100s: --gradient_checkpointing true", "full"),
    ],
)
def test_recompute_keys_with_their_values(capsys, text, mode):
    main(["ask", "--format", "json", text])
    assert json.loads(capsys.readouterr().out)["request"]["recompute"] == mode
