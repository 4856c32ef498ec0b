"""Session 32 fix I: optimizer steps asked of a budget of GPUs × days are given (fresh-user trial item 1).

Steps = tokens ÷ (global batch × sequence length): the global batch the estimator sized (stated, micro-batch ×
accumulation × data-parallel GPUs, or assumed and said so).
"""

from __future__ import annotations

import re

import pytest

from bot.cli import main
from bot.parse import parse
from estimator import estimate


def _ask(capsys, question: str) -> str:
    main(["ask", "--format", "text", "--", question])
    return capsys.readouterr().out


def _steps(head: str) -> int:
    m = re.search(r"([\d,]+) (?:optimizer steps|个优化步)", head)
    assert m, head
    return int(m.group(1).replace(",", ""))


def _expected(question: str, batch: int, seq: int) -> int:
    tokens = estimate(parse(question).request).tokens_for_budget
    assert tokens is not None
    return round(tokens.likely / (batch * seq))


@pytest.mark.parametrize(
    "question",
    [
        "how many optimizer steps can I do in 24 hours fine-tuning Llama 3 8B on 8 H100s",
        "Fine-tune Qwen2.5 7B on 8 A100 80G for one day: how many steps per day?",
        "full fine-tune of Mistral 7B, 16 H100 for 2 days, steps/day?",
        "用 GRPO 训 Qwen2.5-14B，8 张 H100 一天能跑多少步",
        "Llama 3 8B 全参微调，8 张 A100 训一天，能跑多少个 step",
        "Qwen2.5-7B SFT，16 张 H800 跑 3 天，步数大概多少",
    ],
)
def test_steps_asked_with_assumed_batch(capsys, question):
    lines = _ask(capsys, question).splitlines()
    head = lines[0]
    assert _steps(head) == _expected(question, 128, 2048)  # Alpaca's 128 sequences × 2,048 tokens assumed
    assert "128" in head and "2,048" in head
    assert "128" in lines[1] and ("assumed" in lines[1] or "假设" in lines[1])


@pytest.mark.parametrize(
    ("question", "batch", "seq"),
    [
        (
            "fine-tune Llama 3 8B on 8 H100 for 1 day, global batch 256, seq len 4096, how many steps a day",
            256,
            4096,
        ),
        (
            "预训练 1B 模型，8 张 H100 跑一天，micro batch 4，梯度累积 16，序列长度 4096，能跑几个 step",
            512,
            4096,
        ),
    ],
)
def test_steps_asked_with_stated_batch(capsys, question, batch, seq):
    lines = _ask(capsys, question).splitlines()
    assert _steps(lines[0]) == _expected(question, batch, seq)
    assert f"{batch:,}" in lines[0] and f"{seq:,}" in lines[0]
    assert "assumed" not in lines[1] and "假设" not in lines[1]


@pytest.mark.parametrize(
    "question",
    [
        "梯度累积步数 8，Qwen2.5-7B 微调 8 张 H100 跑一天能训多少 token",
        "fine-tune Llama 3 8B with 100 warmup steps on 8 H100 for a day: how many tokens?",
    ],
)
def test_setting_steps_are_not_a_steps_question(capsys, question):
    assert not parse(question).asks_steps
    head = _ask(capsys, question).splitlines()[0]
    assert "optimizer steps" not in head and "优化步" not in head
