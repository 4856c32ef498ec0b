"""'全量重计算' / 'full recompute' is the activation-recomputation setting, never the fine-tuning method or
stage (trial s14 #3: 'Megatron 训 13B，开全量重计算，64 张 A800 训 300B token' was sized as a 13B full
fine-tuning; 300B tokens from scratch on Megatron is a pre-training)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.parse import parse


def ask_json(capsys, question: str) -> dict:
    """``sizing-bot ask --format json QUESTION`` in this process (exit 0 required), parsed."""
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


PRETRAIN = [
    ("用 Megatron 训一个 13B，打开全量重计算，64 张 A800，300B token，几天？", "full"),
    ("Megatron 从头训 13B，全量激活重计算，A800 64 张，3000 亿 token 多久", "full"),
    ("Megatron 训 13B，不开全量重计算，64 张 A800 训 300B token 要多久", "selective"),
    ("Pretraining a 13B on Megatron with full recompute: 64 A800s, 300B tokens, how many days?", "full"),
    ("13B on Megatron, full activation recomputation, 64 x A800, 300B tokens — how long?", "full"),
    ("13B on Megatron with selective recompute, 64 x A800, 300B tokens — how long?", "selective"),
]


@pytest.mark.parametrize(("question", "mode"), PRETRAIN)
def test_full_recompute_words_are_the_recompute_setting(question: str, mode: str) -> None:
    req = parse(question).request
    assert (req.stage, req.recompute, req.gpu_count, req.tokens) == ("pretrain", mode, 64, 300e9)
    assert req.training_tool == "Megatron-LM"


@pytest.mark.parametrize(
    ("question", "method"),
    [
        ("Qwen2-7B 开全量 checkpoint，8 张 A100 LoRA 微调 1 亿 token 要多久", "lora"),
        ("LoRA on Qwen2-7B with full gradient checkpointing, 8 A100, 100M tokens, how long?", "lora"),
        ("Qwen2-7B 全量微调，开全量重计算，8 张 A100 1 亿 token 要多久", "full"),
    ],
)
def test_with_a_method_the_method_stays(question: str, method: str) -> None:
    req = parse(question).request
    assert (req.stage, req.method, req.recompute, req.methods) == ("finetune", method, "full", None)


def test_the_reply_says_pre_training(capsys) -> None:
    out = ask_json(capsys, "Megatron 训 13B，开全量重计算，64 张 A800 训 300B token 要多久")
    head = out["reply"].split("\n")[0]
    assert "预训练" in head and "微调" not in head
    out = ask_json(
        capsys, "Pretraining a 13B on Megatron with full recompute: 64 A800s, 300B tokens, how long?"
    )
    assert "pre-training" in out["reply"].split("\n")[0]
