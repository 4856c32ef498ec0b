"""Trial s16 #5: a named RL tool's own defaults, cited from its source, and notes that name the tool in
use, never another's: OpenRLHF PPO takes ``--generate_max_len`` 1024 (openrlhf/cli/train_ppo_ray.py), verl
``data.max_response_length`` 512 (verl/trainer/config/data/legacy_data.yaml), TRL GRPOConfig
``max_completion_length`` 256; the padding note names TRL in a TRL answer, not LLaMA-Factory."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


@pytest.mark.parametrize(
    ("question", "completion", "why", "source"),
    [
        (
            "PPO RLHF on Llama-3-13B with OpenRLHF on 16 A100 80GB, 50k prompts, how long and does it fit?",
            1024,
            "openrlhf_completion_default",
            "train_ppo_ray.py",
        ),
        (
            "用 OpenRLHF 做 PPO，Llama-3-8B，16 张 A100 80G，5 万条 prompt，要多久？",
            1024,
            "openrlhf_completion_default",
            "train_ppo_ray.py",
        ),
        ("GRPO Qwen2.5-7B with verl on 8 H100, 20k prompts?", 512, "verl_completion_default", "verl"),
        ("GRPO Qwen2.5-7B with TRL on 8 H100, 20k prompts, how long?", 256, "rl_completion_default", "trl"),
    ],
)
def test_rl_completion_default_is_the_tools_own(capsys, question, completion, why, source):
    d = ask(capsys, question)
    a = next(a for a in d["assumptions"] if a["field"] == "max_completion_length")
    assert (a["value"], a["why"]) == (completion, why)
    assert source in a["citation"]
    text = ask(capsys, question, "text")
    assert ("TRL" in text) == ("TRL" in question)  # never another tool's name


@pytest.mark.parametrize(
    ("question", "tool", "other"),
    [
        (
            "GRPO on Qwen2.5-3B-Instruct with TRL, 20k prompts, 4x A100 80GB, max_prompt_length 512, "
            "max_completion_length 1024. How long?",
            "TRL pads each batch",
            "LLaMA-Factory",
        ),
        (
            "用 LLaMA-Factory LoRA 微调 Qwen2.5-7B，cutoff_len: 4096，5 万条样本，2 张 A100，要多久？",
            "LLaMA-Factory 把每个批次只补齐",
            "TRL",
        ),
    ],
)
def test_padding_note_names_the_tool_in_use(capsys, question, tool, other):
    text = ask(capsys, question, "text")
    assert tool in text and other not in text
