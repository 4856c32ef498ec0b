"""Trial s17-2 #4: an earlier run with no data size, then the same job on other cards, is timed from the
run: its GPU-hours × its card's dense BF16 peak ÷ the new card's (catalog: A800 312, H100 SXM 989.4
TFLOPS) ÷ the generations' likely-MFU ratio (A100-class 0.40 → H100-class 0.28: × 0.7, design review s17
#5), spread over the new count — not a request for the data size with '20' named as
a memory/speed figure."""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.render.renderer import render
from estimator import catalog, efficiency

A800, H100 = catalog.gpus()["A800-80GB"], catalog.gpus()["H100-SXM5-80GB"]


RATIO = 0.28 / 0.40
"""estimator/efficiency.py CALIBRATED: h100_mfu 0.28 ÷ a100_mfu 0.40 (a 14B dense job: no size factor)."""


def _hours(run_gpu_hours: float, new_gpus: int) -> float:
    return run_gpu_hours * A800.peak_flops_16bit / H100.peak_flops_16bit / RATIO / new_gpus


@pytest.mark.parametrize(
    ("text", "run_gpu_hours", "said"),
    [
        ("之前 8 张 A800 跑了 20 小时 Qwen2.5-14B 的全参微调，现在换成 16 张 H100，大概要多久？", 160,
         "→ 72.1 H100·时"),
        ("之前 2 台 8 卡 A800 跑了 20 小时 Qwen2.5-14B 的全参微调，现在换成 16 张 H100，大概要多久？", 320,
         "→ 144 H100·时"),
        ("We ran a full fine-tune of Qwen2.5-14B on 8 A800s for 20 hours. Now with 16 H100s, how long?", 160,
         "→ 72.1 H100-hours"),
    ],
)  # fmt: skip
def test_same_job_scaled_from_the_run(text: str, run_gpu_hours: float, said: str) -> None:
    assert A800.peak_flops_16bit == pytest.approx(312e12) and H100.peak_flops_16bit == pytest.approx(989.4e12)
    assert efficiency.generation_ratio(A800.mfu_class, H100.mfu_class, 14.7e9) == pytest.approx(RATIO)
    a = answer(text, Context())
    req = a.report.request
    assert (req.gpu, req.gpu_count) == ("H100-SXM5-80GB", 16)
    assert req.hours == pytest.approx(_hours(run_gpu_hours, 16), abs=0.01)
    reply = render(a, "text")
    assert said in reply
    assert "数据量" not in reply.splitlines()[0] and "data size" not in reply.splitlines()[0]
    assert "显存占用" not in reply and "memory use" not in reply.lower()


def test_scaled_reason_worded_in_chinese() -> None:
    text = "之前 8 张 A800 跑了 20 小时 Qwen2.5-14B 的全参微调，现在换成 16 张 H100，大概要多久？"
    reply = render(answer(text, Context()), "text")
    assert reply.splitlines()[0].startswith("16 张 H100 80G × 4.5 小时")  # 72.1 ÷ 16
    assert "按同一任务、由你的那次运行换算" in reply


def test_a_run_with_its_data_keeps_the_mfu_path() -> None:
    text = "之前 8 张 A800 跑了 20 小时 Qwen2.5-14B 的全参微调，1 亿 token，现在换成 16 张 H100，大概要多久？"
    a = answer(text, Context())
    assert a.report.request.hours is None and a.report.request.mfu is not None
