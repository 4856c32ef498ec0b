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
    """The headline's GPU-hours, its days and the cost are one value on the count it quotes. s24 (fused AdamW
    at ZeRO-0) let 2 GPUs skip full recomputation; since s36-left #1 a full fine-tune with no Megatron tool
    named runs ZeRO-3 data parallel (what TRL / the HF Trainer run), whose unsharded activations need full
    recompute on 2 H100s again: only the training passes pay it (10ND → 12ND, ×1.2; the rollouts decode), so
    the 70 count-free H100-hours (16.25 of them training) become 69.54 + 0.2 × 16.25 = 72.8 on 2 GPUs,
    1.5 days (72.8 ÷ 2 ÷ 24 = 1.52), billed 73."""
    data = answer_json(EN4)
    rep = data["report"]
    row = next(r for r in rep["days_table"] if r["gpus"] == rep["gpus_for_deadline"])  # 2 GPUs
    hours = rep["gpu_hours"]["likely"]
    training = rep["rollout"]["training_gpu_hours"]["likely"]
    assert row["gpus"] == 2
    assert row["gpu_hours"]["likely"] == pytest.approx(hours + 0.2 * training)  # recompute: training only
    row_hours = row["gpu_hours"]["likely"]
    assert row["likely"] * 24 * row["gpus"] == pytest.approx(row_hours)  # days = GPU-hours ÷ GPUs ÷ 24
    assert row["cost"]["billed_gpu_hours"] == round(row_hours + 0.5) == 73  # billed whole hours, rounded up
    head = ask(EN4, None, "text")[0].splitlines()[0]
    assert "≈ 73 H100-hours: about 2 GPUs for 1.5 days" in head
    assert f"the {round(hours)} GPU-hours below become 73" in head
