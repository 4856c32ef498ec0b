"""Session 13 review finding 7: the DeepSpeed comment beside ``deepspeed: ds_config.json`` (as the bot's
own LLaMA-Factory recipe writes it) gives the ZeRO stage, and offload only when it says so — the bot's
'+ CPU offload', or offload turned off in words; 'no CPU offload' was read as offload on."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

YAML = """### method
stage: sft
finetuning_type: lora
deepspeed: ds_config.json
# ds_config.json: {comment}
cutoff_len: 4096
"""

COMMENTS = [
    ("ZeRO-3 + CPU offload", 3, True),  # the bot's own recipe, offload on
    ("ZeRO-3, no CPU offload", 3, False),
    ("ZeRO-2 (offload disabled)", 2, False),
    ("ZeRO-3 without offload", 3, False),
    ("ZeRO-3", 3, None),  # says nothing about offload: unstated, not "off"
    ("ZeRO-3, offload the optimizer to NVMe", 3, None),  # not the CPU offload the sizing models
]


@pytest.mark.parametrize(("comment", "stage", "offload"), COMMENTS)
@pytest.mark.parametrize(
    "question",
    [
        "LoRA Qwen2.5-14B on 2 A100 80GB, 200M tokens, how long?",
        "2 张 A100 80GB LoRA 微调 Qwen2.5-14B，2 亿 token，要多久？",
    ],
)
def test_a_deepspeed_comment_gives_offload_only_when_it_says_so(
    capsys, question, comment, stage, offload
) -> None:
    capsys.readouterr()
    assert main(["ask", "--format", "json", question + "\n" + YAML.format(comment=comment)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["request"]["zero_stage"] == stage
    assert out["request"]["offload"] is offload
    assert not [u for u in out["stack_config"]["unused"] if u.startswith("deepspeed:")]
