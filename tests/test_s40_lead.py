"""s40 lead: an MoE fine-tuned on Hugging Face model code (transformers' eager expert loop) takes at
least as long as a dense model of all its parameters (estimator.training_rate.eager_moe_slowdown;
sources: LLaMA-Factory#7921, ms-swift#6061, LLaMA-Factory#8038). Found by the s40 fresh-user trial:
'Qwen3-30B-A3B LoRA on 8 × H100, 100M tokens' was 14 minutes (1.9 H100-hours) beside 1.6 hours for
the dense Qwen3-32B, while users report the MoE slower than the dense model on the same setup."""

from __future__ import annotations

import pytest

from bot.cli import _ask
from estimator.efficiency import CALIBRATED

MOE = "Qwen3-30B-A3B 用 LoRA 微调，8张H100，数据 5万条，每条 2k token，要多久？"
DENSE = "Qwen3-32B 用 LoRA 微调，8张H100，数据 5万条，每条 2k token，要多久？"


def _report(question: str):
    return _ask(question, None, "json")[2].report


def _mfu(report):
    return next(a for a in report.assumptions if a.field == "mfu")


def test_an_moe_fine_tune_on_hf_code_is_no_faster_than_its_dense_total() -> None:
    moe, dense = _report(MOE), _report(DENSE)
    line = _mfu(moe)
    assert "mfu_eager_moe" in line.also
    total, active = moe.request.params_total, moe.request.params_active
    # H100 class: one calibrated level for every size, so the divisor is the MoE factor × total / active
    # = 0.7 × 30.5B / 3.3B ≈ 6.5 (Qwen3-30B-A3B config.json: 30.5B total, 3.3B active)
    assert line.params["eager_factor"] == round(CALIBRATED.moe_factor * total / active, 1) == 6.5
    assert line.params["total_b"] == 30.5
    # the same tokens: GPU-hours ∝ active FLOPs ÷ MFU = the dense 30.5B's, about the 32.8B dense model's
    ratio = moe.gpu_hours.likely / dense.gpu_hours.likely
    assert ratio == pytest.approx(30.5 / 32.8, rel=0.05)
    zh = _ask(MOE, None, "text")[0]
    assert "transformers 逐个专家循环计算" in zh and "LLaMA-Factory#7921" in zh


@pytest.mark.parametrize(
    "question",
    [
        "Qwen3-30B-A3B LoRA fine-tune with Megatron-LM on 8 H100, 100M tokens, how long",  # grouped GEMM
        "Qwen3-30B-A3B LoRA fine-tune with Unsloth on 1 H100, 100M tokens, how long",  # its own MoE kernels
        "pre-train Qwen3-30B-A3B from scratch on 64 H100, 100B tokens, how long",  # pre-training
        "Qwen3-32B LoRA fine-tune on 8 H100, 100M tokens, how long",  # dense
    ],
)
def test_no_eager_loop_where_the_experts_run_grouped_or_there_are_none(question: str) -> None:
    report = _report(question)
    assert "mfu_eager_moe" not in _mfu(report).also


def test_a_stated_tp_means_a_megatron_backend() -> None:
    report = _report("Qwen3-30B-A3B full fine-tune on 8 H100 with TP 2, 100M tokens, how long")
    assert "mfu_eager_moe" not in _mfu(report).also


@pytest.mark.parametrize(
    ("question", "offload_line", "headline"),
    [
        (
            "full fine-tune Qwen2.5-72B with deepspeed zero3 offload on 8 A800, host RAM 1TB, enough?",
            "relies on CPU offload",
            "does not fit on 8 × A800 80G as set",
        ),
        (
            "全参微调 Qwen2.5-72B，deepspeed zero3 offload，8 张 A800，机器内存 1T，够吗",
            "要靠 CPU offload",
            "按现在的设置 8 张 A800 80G 放不下",
        ),
    ],
)
def test_a_stated_ram_short_of_the_offload_is_not_also_called_borderline(
    question: str, offload_line: str, headline: str
) -> None:
    """The stated 1 TB holds less than the ≈ 1,745 GB the offload needs per machine: line 1 says it does not
    fit as set, and no later line calls the same plan borderline 'relying on CPU offload' (s40 trial #4)."""
    text = _ask(question, None, "text")[0]
    assert headline in text.splitlines()[0]
    assert offload_line not in text
