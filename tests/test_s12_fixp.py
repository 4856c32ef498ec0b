"""Session 12 review of the merge (s12-int at 7450af9), parser findings: a recompute the user turns off
(2), a model described as trained with reinforcement learning (3), ms-swift GRPO's completion default (4),
the 'at N tokens' sequence (17). Each case failed on 7450af9."""

from __future__ import annotations

import pytest

from bot.parse import parse
from tests.cli_run import ask_in_process


@pytest.mark.parametrize(
    "text",
    [
        "全参微调 7B，8 张 A100，seq 4096，不需要重计算",
        "全参微调 7B，8 张 A100，seq 4096，无需重计算",
        "全参微调 7B，8 张 A100，seq 4096，别开重计算",
        "全参微调 7B，8 张 A100，seq 4096，不必开重计算",
        "全参微调 7B，8 张 A100，seq 4096，关了重计算",
        "全参微调 7B，8 张 A100，seq 4096，重计算关了",
        "full fine-tune 7B on 8 A100, seq 4096, no need for gradient checkpointing",
        "full fine-tune 7B on 8 A100, seq 4096, we don't need gradient checkpointing",
    ],
)
def test_a_recompute_turned_off_is_none(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was 'full' ('your setting') on 7450af9: the bare '重计算' read past the negation."""
    data = ask_in_process(capsys, text)
    assert data["request"]["recompute"] == "none"


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("全参微调 7B，8 张 A100，seq 4096，开重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，重计算", "full"),
        ("全参微调 7B，8 张 A100，seq 4096，不开完全重计算", "selective"),
        ("full fine-tune 7B on 8 A100, seq 4096, with gradient checkpointing", "full"),
    ],
)
def test_a_recompute_turned_on_stays(text: str, mode: str) -> None:
    assert parse(text).request.recompute == mode


@pytest.mark.parametrize(
    "text",
    [
        "How many H100 to serve DeepSeek-R1-Distill-Llama-70B, a model trained with reinforcement learning, "
        "for 50 users?",
        "How many H100 to serve a Llama-3-70B trained via RLHF for 50 users?",
        "部署一个用强化学习训练出来的 Llama-3-70B，50个并发，要几张H100？",
        "部署一个经过RLHF训练的 Llama-3-70B，50个并发，要几张H100？",
    ],
)
def test_a_model_made_with_rl_is_served(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """Was stage 'finetune' (and, with RLHF, algorithm 'ppo') with the 50 users ignored on 7450af9: how
    the model was made is not the job."""
    data = ask_in_process(capsys, text)
    assert data["request"]["stage"] == "inference"
    assert data["request"]["concurrency"] == 50
    assert data["request"]["algorithm"] is None


@pytest.mark.parametrize(
    ("text", "algorithm"),
    [
        ("RL on Qwen2.5-7B with 8 H100", None),
        ("强化学习训练 Qwen2.5-7B，8张A100", None),
        ("GRPO training of Qwen2.5-7B on 8 H100, then serve it for 50 users", "grpo"),
    ],
)
def test_rl_training_is_still_fine_tuning(text: str, algorithm: str | None) -> None:
    request = parse(text).request
    assert request.stage == "finetune"
    assert request.algorithm == algorithm
