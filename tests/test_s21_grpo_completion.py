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
    """The headline's GPU-hours, its days and the cost are one value on the count it quotes. Since s37-grpo a
    GRPO job with no rollout engine named generates as TRL's GRPOTrainer does by default (use_vllm False: the
    trainer's own model.generate, eager decode): the rollouts, 164M completion tokens at ≈ 214 tokens/s per
    GPU, take 164e6 ÷ 214 ÷ 3600 ≈ 213 of the 229.4 H100-hours (16.25 training). On 2 GPUs the layout is
    TP 2 with selective recompute (no full recompute), so the row adds no GPU-hours of its own: 229.4 ÷ 2 ÷ 24
    = 4.8 days, billed 230 (whole hours, rounded up). Before s37-grpo no generation engine was modelled (the
    rollouts decoded at a compiled engine's speed), 72.8 hours on 2 GPUs."""
    data = answer_json(EN4)
    rep = data["report"]
    row = next(r for r in rep["days_table"] if r["gpus"] == rep["gpus_for_deadline"])  # 2 GPUs
    hours = rep["gpu_hours"]["likely"]
    training = rep["rollout"]["training_gpu_hours"]["likely"]
    assert row["gpus"] == 2
    assert "gpu_hours" not in row  # no full recompute on 2 GPUs: the row is the headline's figure
    assert hours - training == pytest.approx(164e6 / 214 / 3600, rel=0.01)  # the rollouts' share
    assert row["likely"] * 24 * row["gpus"] == pytest.approx(hours)  # days = GPU-hours ÷ GPUs ÷ 24
    assert rep["cost"]["billed_gpu_hours"] == round(hours + 0.5) == 230  # billed whole hours, rounded up
    head = ask(EN4, None, "text")[0].splitlines()[0]
    assert "≈ 230 H100-hours: about 2 GPUs for 4.8 days" in head
