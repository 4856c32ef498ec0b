"""GRPO with the completion length written number first (trial s21 #6, #7). Before: '1024 max completion
tokens' was named unread and the rollouts sized at 256 completion tokens; the headline's GPU-hours (16),
its days (2 GPUs × 8.8 h = 17.6) and the GPU-hours line (15) were three figures. Now the completion is
1,024 tokens, the sequence trained 512 + 1,024 = 1,536, and the headline's GPU-hours, days and cost are
the one row's figure (only the training passes pay full recompute; the rollouts decode). Sentences of
our own."""

from __future__ import annotations

import pytest

from bot.cli import ask
from tests.real_questions import answer_json

EN4 = (
    "We want to run GRPO on Qwen2.5-7B-Instruct with 8 generations per prompt, 1024 max completion tokens, "
    "20k prompts. How many H100s and how long?"
)


@pytest.mark.parametrize(
    "text",
    [EN4, "GRPO Qwen2.5-7B, 2k completion length, 8 generations, 10k prompts on H100"],
)
def test_number_first_completion_length(text: str) -> None:
    data = answer_json(text)
    completion = data["request"]["max_completion_length"]
    assert completion in (1024, 2048)
    assert data["request"]["seq_len"] == 512 + completion  # the prompt (TRL's 512) and its completion
    if data["report"]["rollout"] is not None:
        assert data["report"]["rollout"]["completion_tokens"] == completion
    assert not any(i["reason"] == "unread" for i in data["interpretation"]["ignored"])


def test_headline_hours_days_and_cost_agree() -> None:
    """The headline's GPU-hours, its days and the cost are one value on the count it quotes. Since s24
    (fused AdamW at ZeRO-0: no foreach copy of the moments in the likely) the 2 GPUs no longer pay full
    recomputation, so their row has no GPU-hours of its own: the count-free 70 H100-hours, 1.4 days on 2
    (70 ÷ 2 ÷ 24 = 1.46), billed 70; before, 2 GPUs recomputed and the headline said 'become N'."""
    data = answer_json(EN4)
    rep = data["report"]
    row = next(r for r in rep["days_table"] if r["gpus"] == rep["gpus_for_deadline"])  # 2 GPUs
    assert row["gpus"] == 2 and "gpu_hours" not in row
    hours = rep["gpu_hours"]["likely"]
    assert row["likely"] * 24 * row["gpus"] == pytest.approx(hours)  # days = GPU-hours ÷ GPUs ÷ 24
    assert rep["cost"]["billed_gpu_hours"] == round(hours + 0.5)  # billed whole hours, rounded up
    head = ask(EN4, None, "text")[0].splitlines()[0]
    assert f"≈ {round(hours)} H100-hours: about 2 GPUs for 1.4 days" in head and "become" not in head
