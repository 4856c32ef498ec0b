"""TRL steps and use_vllm (trial s18 #4, issue 24): a step count with TRL's per-device batch and the GPUs
stated is the prompts trained (HF accumulation 1 by default; GRPO: the global batch ÷ num_generations), and
'use_vllm=True' with no vllm_mode says how the engine is sized. Sentences of our own; values hand-computed."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json

CASES = [
    # inline GRPOConfig: 1000 steps × 4 per device × 8 GPUs = 32,000 completions ÷ 16 = 2,000 prompts;
    # tokens = 2,000 × 16 × (512 + 2048) = 81.92M
    (
        "GRPOConfig(per_device_train_batch_size=4, num_generations=16, max_completion_length=2048, "
        "max_prompt_length=512, use_vllm=True, bf16=True) Qwen2.5-Math-7B on 8 H100, "
        "how long for 1000 steps?",
        2_000,
    ),
    # prose: 500 × 8 × 4 GPUs ÷ 8 = 2,000 prompts
    (
        "TRL GRPO on Qwen2.5-7B, per_device_train_batch_size 8, num_generations 8, "
        "max_completion_length 1024, 4 x A100 80G, how long for 500 steps?",
        2_000,
    ),
    # Chinese: 300 × 2 × 8 ÷ 8 = 600 prompts
    (
        "用 TRL 做 GRPO，Qwen2.5-7B，per_device_train_batch_size=2，num_generations=8，"
        "max_completion_length=1024，8 张 H100，跑 300 步要多久？",
        600,
    ),
    # SFT with TRL (no completions per prompt): 200 × 4 × 2 accumulation × 8 GPUs = 12,800 samples
    (
        "TRL SFTTrainer, Llama-3-8B full fine-tune, per_device_train_batch_size 4, "
        "gradient_accumulation_steps 2, seq len 2048, 8 H100, 200 steps: how long?",
        12_800,
    ),
]


@pytest.mark.parametrize(("text", "samples"), CASES)
def test_steps_with_per_device_batch(text: str, samples: int) -> None:
    data = answer_json(text)
    assert data["request"]["num_samples"] == samples
    reasons = {i["reason"] for i in data["interpretation"]["ignored"]}
    assert "steps_need_batch" not in reasons


def test_inline_grpo_config_times_and_names_vllm() -> None:
    data = answer_json(CASES[0][0])
    # C = 10 × N × D with D = 2,000 × 16 × 2,560 = 8.192e7 tokens
    assert data["request"]["num_samples"] * 16 * 2_560 == 81_920_000
    named = {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}
    assert named.get("use_vllm: True") == "vllm_server_default"
    said = next(t for t, why in named.items() if why == "steps_per_device")
    assert said.endswith("÷ 16 completions per prompt = 2,000 prompts")
    assert "use_vllm" in data["reply"].split("\n\n")[0]  # said where the reply names what it used


def test_vllm_mode_stated_is_not_the_default_note() -> None:
    text = (
        "GRPOConfig(per_device_train_batch_size=4, num_generations=8, use_vllm=True, vllm_mode='colocate') "
    )
    data = answer_json(text + "Qwen2.5-7B on 8 H100, memory per GPU?")
    assert data["request"]["rollout_colocated"] is True
    assert "vllm_server_default" not in {i["reason"] for i in data["interpretation"]["ignored"]}
