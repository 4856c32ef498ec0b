"""s26 trial #6: TRL's GRPO loads no reference model unless ``beta`` > 0 — GRPOConfig ``beta`` defaults to 0.0
(huggingface/trl v1.9.0 trl/trainer/grpo_config.py L671; grpo_trainer.py L955–957 ``if self.beta == 0.0:
self.ref_model = None``). Sized before with a reference (its bf16 copy in the memory, 10ND); now 8ND (policy
forward + backward 6ND + rollouts 2ND) and no reference under TRL at its default, 10ND with one when a beta
> 0 is stated (used, no longer 'Not used: beta: 0.04 (it does not change …)'), and the published algorithm's
reference (10ND) with no tool named or another tool (verl's GRPO examples turn use_kl_loss on)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.compute import flops_per_param_token

GRPO_CONFIG = """training_args = GRPOConfig(
    output_dir="qwen3-8b-grpo",
    learning_rate=1e-6,{beta}
    per_device_train_batch_size=4,
    gradient_accumulation_steps=4,
    num_generations=8,
    max_prompt_length=512,
    max_completion_length=2048,
    bf16=True,
    gradient_checkpointing=True,
)
model = "Qwen/Qwen3-8B", dataset 12k prompts, 8x A100 80GB. How long will this take?"""


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def test_k_without_a_reference_drops_its_forward() -> None:
    assert flops_per_param_token(True, "grpo") == 10.0  # policy 6 + reference 2 + generation 2
    assert flops_per_param_token(True, "grpo", reference=False) == 8.0
    assert flops_per_param_token(False, "grpo", reference=False) == 6.0  # LoRA: 4 + generation 2
    assert flops_per_param_token(True, "sft", reference=False) == 6.0


@pytest.mark.parametrize(
    ("question", "formula", "reference"),
    [
        (
            "GRPO on Qwen2.5-3B with TRL on 2x RTX 4090, 16 generations per prompt, 5000 prompts, "
            "max completion 1024. How long?",
            "8ND",
            False,
        ),
        (
            "用 TRL 做 GRPO 训练 Qwen2.5-3B，2 张 RTX 4090，每个 prompt 16 条生成，5000 条 prompt，要多久",
            "8ND",
            False,
        ),
        (GRPO_CONFIG.format(beta=""), "8ND", False),
        (GRPO_CONFIG.format(beta="\n    beta=0.04,"), "10ND", True),
        (
            "GRPO on Qwen2.5-3B on 2x RTX 4090, 16 generations per prompt, 5000 prompts, "
            "max completion 1024. How long?",
            "10ND",
            True,
        ),
    ],
)
def test_trl_grpo_reference_follows_beta(
    capsys: pytest.CaptureFixture[str], question: str, formula: str, reference: bool
) -> None:
    d = ask(capsys, question)
    report = d["report"]
    assert report["flops_formula"] == formula
    assert ("reference" in report["memory"]["breakdown"]) is reference


def test_a_stated_beta_is_used_not_named(capsys: pytest.CaptureFixture[str]) -> None:
    question = GRPO_CONFIG.format(beta="\n    beta=0.04,")
    assert ask(capsys, question)["request"]["kl_beta"] == 0.04
    assert "beta" not in ask(capsys, question, "text").split("\n\n")[0]
