"""Issue 25, item 2: FP8 and int8 training stated by the user are timed as such, through ``sizing-bot
ask`` in English and Chinese. int8 training is read as int8 GEMMs in the linear layers (SwitchBack,
Wortsman et al. 2023: 13–25 % faster end to end than bf16 → ×1.19), credited only on cards with an INT8
tensor-core peak in the catalog; an 8-bit optimizer is named as saving memory, not time."""

from __future__ import annotations

import pytest
from cli_run import ask_json, ask_text

from estimator import catalog, validation_kinds
from estimator.efficiency import CALIBRATED
from estimator.validation_kinds import report_kinds

JOB_EN = "pretrain a 7B model on 1T tokens{precision} on 64 {gpu}"
JOB_ZH = "用 64 张 {gpu}{precision}训练 7B 模型 1T tokens 要多久"


def _ask(question: str) -> dict:
    return ask_json(question)


def _precision(reply: dict) -> dict | None:
    return next((a for a in reply["assumptions"] if a["field"] == "training_precision"), None)


def test_int8_factor_is_the_fit_of_the_measured_speedups():
    """Geometric mean of SwitchBack's ×1.13 and ×1.25; Jetfire's ×1.42 (held apart) lands inside."""
    assert validation_kinds.fit_int8() == CALIBRATED.int8_factor == 1.19
    text = report_kinds()
    assert (
        "int8 training factor (int8 GEMMs ÷ bf16 speed): shipped ×1.19, refitted ×1.19 on ×1.13, ×1.25"
        in text
    )
    assert "held apart: jetfire-block ×1.42: GPU-hours ×0.84 of ours, in" in text


def test_int8_training_on_a100_is_timed_on_int8_gemms():
    """A100: INT8 624 TOPS dense (datasheet) ≥ 1.5 × 312: the bf16 time ÷ 1.19, said in the reply."""
    assert catalog.gpu("A100-SXM4-80GB").peak_tops_int8 == 624.0
    bf16 = _ask(JOB_EN.format(precision="", gpu="A100"))["report"]["gpu_hours"]["likely"]
    reply = _ask(JOB_EN.format(precision=" with int8 training", gpu="A100"))
    assert reply["report"]["gpu_hours"]["likely"] == pytest.approx(bf16 / 1.19, rel=1e-3)
    used = _precision(reply)
    assert used["value"] == "int8" and used["params"] == {"factor": 1.19, "peak_tops": 624.0}
    assert "An 8-bit optimizer (bitsandbytes) saves memory, not time." in used["source"]
    assert reply["interpretation"]["ignored"] == []


def test_int8_training_in_chinese():
    text = ask_text(JOB_ZH.format(gpu="A100", precision=" int8 "))
    assert "约需 51 天（共 7.9万 A100·时）" in text
    assert "训练精度：int8 — int8 训练按线性层的 int8 矩阵乘法计" in text
    assert "8-bit 优化器（bitsandbytes）只省显存，不省时间" in text
    assert "未使用" not in text


def test_int8_on_a_card_without_an_int8_peak_is_bf16_and_said():
    """V100: no INT8 tensor-core peak in the catalog — never credited with one."""
    assert catalog.gpu("V100-SXM2-32GB").peak_tops_int8 is None
    bf16 = _ask(JOB_EN.format(precision="", gpu="V100"))["report"]["gpu_hours"]["likely"]
    reply = _ask(JOB_EN.format(precision=" with int8 training", gpu="V100"))
    assert reply["report"]["gpu_hours"]["likely"] == pytest.approx(bf16)
    assert _precision(reply) is None
    assert reply["interpretation"]["ignored"] == [{"text": "precision: int8", "reason": "no_int8"}]
    assert {"code": "int8_not_supported", "params": {"gpu": "NVIDIA Tesla V100 SXM2 32GB"}} in (
        reply["report"]["warnings"]
    )
    text = ask_text(JOB_ZH.format(gpu="V100", precision=" int8 "))
    assert "未使用：“精度：int8”（这张卡在我的目录里没有 INT8 张量核心峰值：按 bf16 计时）" in text


@pytest.mark.parametrize(
    "question",
    [JOB_EN.format(precision=" in FP8", gpu="H100"), JOB_ZH.format(gpu="H100", precision=" FP8 ")],
)
def test_fp8_training_is_timed_on_the_fp8_peak(question):
    """FP8 on H100: ×1.35 the bf16 rate on the FP8 peak (1,978.9 TFLOPS); 42,114 → 31,496 H100-hours
    (the FP8 job's reference count is smaller, so 64 GPUs scale out a little: ×1.337, not ×1.35)."""
    reply = _ask(question)
    used = _precision(reply)
    assert used["value"] == "fp8" and used["params"]["factor"] == 1.35
    assert used["params"]["peak_tflops"] == 1978.9
    assert reply["report"]["gpu_hours"]["likely"] == pytest.approx(31_496, rel=1e-3)
    assert reply["interpretation"]["ignored"] == []
