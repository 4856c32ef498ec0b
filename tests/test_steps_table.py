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
    # 64 H100-hours at 28 % MFU for 320,000 × 4,096 tokens, × 4/3 for full recompute: s24 (trfix2), LLaMA-
    # Factory runs data parallel only and no count keeps micro-batch 4 × 4,096 activations without full
    # recompute (the memory's no_full_recompute alternative has no count), so every count pays it
    base = a.report.gpu_hours.likely
    assert base == pytest.approx(64 * 4 / 3, rel=0.05)
    # 8 GPUs: twice the samples at the same recompute: 2 × 85 GPU-hours over 8 GPUs = 21 h (was 7.9 h)
    assert rows[8].gpu_hours.likely == pytest.approx(2 * base, rel=0.01)
    assert rows[8].days.likely * 24 == pytest.approx(2 * base / 8, rel=0.01)
    assert rows[8].cost.billed_gpu_hours == pytest.approx(2 * base, abs=1)
    # 16 GPUs: four times the samples (past the scale-out reference: a little more); the time within ±25 %
    assert rows[16].gpu_hours.likely >= 4 * base
    assert rows[16].days.likely == pytest.approx(rows[8].days.likely, rel=0.25)
    # the plan's row is what the headline says (21 h with full recompute on 4 GPUs), as 8's (s24)
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
            "≈ 21 hours at best (4 GPUs), past your 12 hours",
        ),
        (
            "用LLaMA-Factory全参微调，配置如下，要在12小时内训完，需要几张H100？\n",
            "最快约 21 小时（4 张卡），超出你的 12 小时",
        ),
    ],
)
def test_a_deadline_under_the_steps_time_is_not_met_by_more_gpus(question: str, said: str) -> None:
    """12 hours: every count takes ≈ 21 h for the 5,000 steps (s24: every count pays full recompute, so 8
    GPUs take 2 × 85 GPU-hours ÷ 8 = 21 h as 4 do; was 15.8 h on 8 without recompute), so the answer stays on
    the plan's 4 GPUs and says more GPUs do not meet it; before s19, the table's tokens-fixed '8 GPUs → 7.9 h'
    would have been read as meeting it."""
    a = answer(question + CONFIG)
    assert a.report.gpus_for_deadline == 4
    (note,) = [w for w in a.report.warnings if w.code == "steps_past_deadline"]
    assert (note.params["gpus"], note.params["deadline"]) == (4, 12)
    assert note.params["hours"] == pytest.approx(a.report.gpu_hours.likely / 4, rel=0.01)
    text = render(a, "text")
    assert said in text
    assert "within your 12" not in text


def test_a_deadline_past_every_counts_steps_time_says_so() -> None:
    """20 hours: s19 had 8 GPUs at ≈ 15.8 h (no recompute) meeting it; since s24 every count pays full
    recompute (data parallel only: no count keeps the activations), so every count takes ≈ 21 h and the
    answer stays on the plan's 4 GPUs with the steps-past-deadline warning (was 8 GPUs for 16 hours)."""
    a = answer(
        "using LLaMA-Factory, config below, we need it done in 20 hours on H100s, how many GPUs?\n" + CONFIG
    )
    assert a.report.gpus_for_deadline == 4
    (note,) = [w for w in a.report.warnings if w.code == "steps_past_deadline"]
    assert (note.params["gpus"], note.params["deadline"]) == (4, 20)
    assert "≈ 21 hours at best (4 GPUs), past your 20 hours" in render(a, "text")
