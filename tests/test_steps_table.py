"""With ``max_steps`` fixed and no GPU count, the GPUs → time table follows the steps (session 19, s19-fxc 1).

Trial 19b E8: LLaMA-Factory full fine-tuning of Llama-3.1-8B, ``max_steps: 5000``, per-device batch 4,
accumulation 4, cutoff 4,096, on H100s, no count. The plan's 4 GPUs train 5,000 × 4 × 4 × 4 = 320,000
samples. A Hugging Face step is micro-batch × accumulation × data-parallel GPUs sequences
(``TrainingArguments``), so 8 GPUs train 640,000 samples in the same 5,000 steps: before, the table kept the
tokens fixed ('8 GPUs → 7.9 h', half the plan's 16 h without recompute); now each row's GPU-hours and cost are
× n / 4 and its hours about constant, and the reply says so in one line.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

CONFIG = """
model_name_or_path: meta-llama/Llama-3.1-8B
finetuning_type: full
cutoff_len: 4096
per_device_train_batch_size: 4
gradient_accumulation_steps: 4
max_steps: 5000
bf16: true
"""
QUESTIONS = [
    "using LLaMA-Factory to fine-tune, config below, how long will this take on H100s?\n",
    "用LLaMA-Factory全参微调，配置如下，H100要多久？\n",
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_steps_fixed_table_keeps_the_steps(question: str) -> None:
    a = answer(question + CONFIG)
    assert a.report.request.num_samples == 320_000  # 5,000 × 4 × 4 × 4: the plan's 4 GPUs
    rows = {r.gpus: r for r in a.report.days_table}
    assert set(rows) >= {4, 8, 16}
    base = a.report.gpu_hours.likely  # 64 H100-hours at 28 % MFU for 320,000 × 4,096 tokens
    assert base == pytest.approx(64, rel=0.05)
    # 8 GPUs: twice the samples, no recompute: 2 × 64 GPU-hours over 8 GPUs = 16 h (was 7.9 h)
    assert rows[8].gpu_hours.likely == pytest.approx(2 * base, rel=0.01)
    assert rows[8].days.likely * 24 == pytest.approx(2 * base / 8, rel=0.01)
    assert rows[8].cost.billed_gpu_hours == pytest.approx(2 * base, abs=1)
    # 16 GPUs: four times the samples; the time stays within ±25 % of 8 GPUs' (not halved)
    assert rows[16].gpu_hours.likely >= 4 * base
    assert rows[16].days.likely == pytest.approx(rows[8].days.likely, rel=0.25)
    # the plan's row is what the headline says (21 h with full recompute on 4 GPUs)
    assert rows[4].days.likely * 24 == pytest.approx(21, abs=0.6)
    text = render(a, "text")
    line = next(
        t for t in text.splitlines() if "(5,000 steps on 4 GPUs)" in t or "（5,000 步，按 4 张卡）" in t
    )
    assert ("keeps the 5,000 steps" in line) or ("固定 5,000 步" in line)


def test_a_stated_count_keeps_the_tokens_table() -> None:
    """With 8 GPUs stated the samples are fixed (5,000 × 4 × 4 × 8 = 640,000): the table keeps the tokens."""
    a = answer("用 8 张 H100 训多久，LLaMA-Factory 配置如下\n" + CONFIG)
    assert a.report.request.num_samples == 640_000
    rows = {r.gpus: r for r in a.report.days_table}
    if 16 in rows:
        assert rows[16].days.likely < 0.6 * rows[8].days.likely  # more GPUs, same tokens: faster
    assert "keeps the" not in render(a, "text")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "using LLaMA-Factory, config below, we need it done in 12 hours on H100s, how many GPUs?\n",
            "≈ 16 hours at best (8 GPUs), past your 12 hours",
        ),
        (
            "用LLaMA-Factory全参微调，配置如下，要在12小时内训完，需要几张H100？\n",
            "最快约 16 小时（8 张卡），超出你的 12 小时",
        ),
    ],
)
def test_a_deadline_under_the_steps_time_is_not_met_by_more_gpus(question: str, said: str) -> None:
    """12 hours: every count takes ≥ 15.8 h for the 5,000 steps (8 GPUs, no recompute: 2 × 64 GPU-hours ÷ 8),
    so the answer stays on the plan's 4 GPUs (21 h) and says more GPUs do not meet it; before, the table's
    tokens-fixed '8 GPUs → 7.9 h' would have been read as meeting it."""
    a = answer(question + CONFIG)
    assert a.report.gpus_for_deadline == 4
    (note,) = [w for w in a.report.warnings if w.code == "steps_past_deadline"]
    assert (note.params["gpus"], note.params["deadline"]) == (8, 12)
    assert note.params["hours"] == pytest.approx(2 * a.report.gpu_hours.likely / 8, rel=0.01)
    text = render(a, "text")
    assert said in text
    assert "within your 12" not in text


def test_a_deadline_the_steps_meet_takes_the_fewest_such_gpus() -> None:
    """20 hours: 8 GPUs take ≈ 15.8 h (the fewest within it; 4 and 6 take 21 h with full recompute), and
    the headline names no recompute on 8 (its GPU-hours are its samples', not recomputation's)."""
    a = answer(
        "using LLaMA-Factory, config below, we need it done in 20 hours on H100s, how many GPUs?\n" + CONFIG
    )
    assert a.report.gpus_for_deadline == 8
    first = render(a, "text").splitlines()[0]
    assert "8 GPUs for 16 hours (within your 20 hours)" in first and "recompute" not in first
