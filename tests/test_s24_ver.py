"""Session 24 (ver): figures that must agree with each other.

- Trial #5: at a count past the scale-out reference (estimator.training_rate.at_count: more GPUs cost more
  GPU-hours), the headline's GPU-hours, the GPU-hours line, the cost line and the days table are one value,
  GPUs × days × 24 (estimator.training_rate.priced_rows, estimator.shown_cost.shown_figures).
- Trial s23 #4: a stated average and longest sample length: the time at the average (samples × average),
  the memory at the longest, said in the reply (bot.parse.sample_range, reason ``sample_avg_max``).
"""

from __future__ import annotations

import json

from tests.cli_run import ask_quietly


def test_scaled_out_count_gpu_hours_are_gpus_times_days() -> None:
    """13B on 200B tokens within two weeks on H800: 56 GPUs (past the reference count), 16,885 GPU-hours
    in the headline's cost, the GPU-hours line and the days table alike (the reference count's 15,642
    beside '56 GPUs for 13 days' before, 56 × 13 × 24 = 17,472)."""
    text = ask_quietly("13B模型2000亿token，两周内训完，用H800")
    lines = text.splitlines()
    assert "约 56 张（7 台 8 卡）训 13 天" in lines[0] and "1.7万 H800·时" in lines[0]
    gh = next(ln for ln in lines if ln.startswith("• GPU 时长："))
    cost = next(ln for ln in lines if ln.startswith("• 费用："))
    assert gh.startswith("• GPU 时长：16,885 H800·时（MFU 25.9%")  # 28 % × 15,642 / 16,885
    assert "（16,885 卡·时 × ¥15–40/卡·时）" in cost
    report = json.loads(ask_quietly("13B模型2000亿token，两周内训完，用H800", "--format", "json"))["report"]
    row = next(r for r in report["days_table"] if r["gpus"] == 56)
    gh_56 = row["gpu_hours"]["likely"]
    assert abs(gh_56 - 56 * 24 * row["likely"]) < 1e-6 * gh_56  # its own GPUs × days × 24
    assert row["cost"]["billed_gpu_hours"] == 16885
    assert 16884 < gh_56 <= 16885  # billed as whole GPU-hours: 16,885


def test_average_and_longest_sample_lengths() -> None:
    """10k samples, average 800 tokens, max 4096: 8M tokens timed (10k × 800), memory at 4,096-token
    sequences, and the 4096 named as the longest sample (was 'a second value for the same setting')."""
    q = (
        "QLoRA fine-tune Llama-3-8B on 10k samples, average 800 tokens, max 4096 tokens per sample, one "
        "RTX 4090. How long and does it fit?"
    )
    data = json.loads(ask_quietly(q, "--format", "json"))
    assert data["request"]["seq_len"] == 4096
    assert data["request"]["tokens_per_sample"] == 800
    assert data["request"]["tokens"] == 8_000_000
    assert {"text": "4096", "reason": "sample_avg_max"} in data["interpretation"]["ignored"]
    text = ask_quietly(q)
    assert "(4,096-token sequences) on 8M tokens" in text.splitlines()[0]
    assert "fits at ≤ this many tokens a sample" in text
    assert "a second value for the same setting" not in text
