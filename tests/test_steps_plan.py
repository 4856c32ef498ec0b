"""A config's max_steps with no GPU count becomes samples on the plan's count (session 19, s19-fix item 8).

LLaMA-Factory YAML, max_steps 3000, per_device_train_batch_size 2, gradient_accumulation_steps 8,
cutoff_len 2048, no GPU count: Qwen2.5-7B LoRA fits one H100 (the plan's DP 1), so 3,000 × 2 × 8 × 1 =
48,000 samples × 2,048 tokens = 98.3M tokens, and the reply says the count was assumed. With 8 H100 stated,
3,000 × 2 × 8 × 8 = 384,000 samples (Hugging Face TrainingArguments: a step is per-device batch ×
accumulation × data-parallel GPUs; LLaMA-Factory trains through it).
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

YAML = """```yaml
model_name_or_path: Qwen/Qwen2.5-7B
stage: sft
finetuning_type: lora
max_steps: 3000
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
cutoff_len: 2048
bf16: true
```
"""


def _used(a) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(i.text, i.reason) for i in a.interpretation.ignored if i.text.startswith("max_steps")]


@pytest.mark.parametrize("question", ["how long on H100s?", "这个配置用 H100 训多久？"])
def test_max_steps_without_a_count_is_timed_on_the_plans_count(question: str) -> None:
    a = answer(YAML + question)
    assert a.report.request.num_samples == 48_000
    assert a.report.request.tokens == pytest.approx(48_000 * 2048)  # 98.3M tokens
    ((text, reason),) = _used(a)
    assert reason == "steps_per_device" and "× 1 GPU" in text and "= 48,000 samples" in text
    assert "max_steps" in render(a, "text")


def test_max_steps_with_a_count_uses_it() -> None:
    a = answer(YAML + "用 8 张 H100 训多久")
    assert a.report.request.num_samples == 384_000
    ((text, reason),) = _used(a)
    assert reason == "steps_per_device" and "× 8 GPUs" in text and "plan's" not in text
