"""Session 43 part fixans: answers that disagreed with themselves (issue 24 items 3, 4; the s42 trial).

Item 1 (s42 trial, 'QLoRA Llama-3.1-70B on 2x RTX 4090 … how long?'): the user's 2 cards do not hold the
job, the headline quotes the fewest that do (4, whose layout runs full recompute: TP 1 × PP 1 × DP 4,
ZeRO-3) with 661 GPU-hours there, while the GPU-hours line, the cost and the days table stayed at the
rate that keeps the activations (441). Full recomputation costs (k + 2) / k of the compute, k = 4 for
adapters (Korthikanti et al. 2022 §5: one more forward pass), so 661 = 441 × 6/4 (rounded), and every
figure shown for those 4 GPUs is now that count's: the same as when no count is stated at all.
"""

from __future__ import annotations

import pytest

from bot.contract import to_json
from bot.core.pipeline import answer
from bot.render.renderer import render

QLORA_70B_4090 = [
    "QLoRA Llama-3.1-70B on 2x RTX 4090, 50k samples of 2k tokens, 2 epochs - how long?",
    "QLoRA 微调 Llama-3.1-70B，2 张 4090，5 万条 2k token 样本，2 个 epoch，要多久？",
]


@pytest.mark.parametrize("question", QLORA_70B_4090)
def test_unfit_count_every_figure_is_the_fewest_counts(question: str) -> None:
    a = answer(question)
    r = a.report
    assert r.request.gpu_count == 2 and r.memory.fits_requested is False and r.memory.min_gpus == 4
    assert r.memory.min_plan.recompute == "full"
    row = next(x for x in r.days_table if x.gpus == 4)
    # 4 GPUs × days × 24 h = the GPU-hours line: one figure for the count the headline quotes
    assert row.days.likely * 4 * 24 == pytest.approx(r.gpu_hours.likely, rel=1e-6)
    # QLoRA trains data parallel only: no count keeps the activations, every count pays (4 + 2) / 4
    free = answer(question.replace("2x RTX 4090", "RTX 4090s").replace("2 张 4090", "4090"))
    assert r.gpu_hours.likely == pytest.approx(free.report.gpu_hours.likely, rel=1e-6)
    assert round(r.gpu_hours.likely) == 660 and round(r.gpu_hours.likely / 1.5) == 440
    shown = to_json(a, render(a, "text"))["report"]["shown"]  # the public contract's field (s25)
    assert shown["gpus"] == 4 and shown["gpu_hours_quoted"] == 661


@pytest.mark.parametrize(
    ("question", "said", "unsaid"),
    [
        (QLORA_70B_4090[0], ("661 RTX 4090-hours there, full recompute included", "GPU-hours: 661 RTX",
                             "(661 GPU-hours ×", " 4 GPUs → 6.9 days"), ("441", "4.6 days")),
        (QLORA_70B_4090[1], ("661 RTX 4090·时，含全量重计算", "GPU 时长：661 RTX", "661 卡·时 ×",
                             " 4 张 → 6.9 天"), ("441", "4.6 天")),
    ],
)  # fmt: skip
def test_unfit_count_text_says_one_figure(
    question: str, said: tuple[str, ...], unsaid: tuple[str, ...]
) -> None:
    text = render(answer(question), "text")
    for s in said:
        assert s in text, s
    for s in unsaid:
        assert s not in text, s


@pytest.mark.parametrize(
    "question",
    [
        "LoRA Llama-3.1-8B on 1x A100 80GB, 50k samples of 2k tokens, 2 epochs - how long?",
        "LoRA 微调 Llama-3.1-8B，1 张 A100 80G，5 万条 2k token 样本，2 个 epoch，要多久？",
    ],
)
def test_a_count_that_fits_pays_no_recompute(question: str) -> None:
    r = answer(question).report
    assert r.request.gpu_count == 1 and r.memory.fits_requested is not False
    assert r.memory.plan.recompute != "full"
    assert not any(x.field.startswith("recompute_time") for x in r.assumptions)
    row = next(x for x in r.days_table if x.gpus == 1)
    assert row.days.likely * 24 == pytest.approx(r.gpu_hours.likely, rel=1e-6)


# Item 4 (s42 trial #16): the FLOPs-per-token line of a run derives the method's own k: full training
# 6ND (Kaplan et al. 2020: forward 2, backward 4 per parameter per token), adapters 4ND (no weight
# gradients for the frozen weights); GRPO adds 2ND for generation, and TRL's default beta = 0.0 loads no
# reference model (trl/trainer/grpo_config.py), so full GRPO is k = 8, LoRA GRPO k = 6 (unsaid: 6 is the
# default), LoRA SFT k = 4.
FLOPS_LINES = [
    ("GRPO with TRL on Qwen2.5-7B-Instruct, num_generations=16, max_completion_length=1024, 4 nodes of 8 "
     "H200, 50k prompts, 1 epoch. How long?", 8.0, "training every weight costs 6ND", "LoRA"),
    ("用 TRL 对 Qwen2.5-7B-Instruct 做 GRPO 全参训练，num_generations=16，4 个节点每个 8 张 H200，"
     "5 万条 prompt，1 个 epoch，要多久？", 8.0, "训练全部权重要 6ND", "LoRA"),
    ("LoRA fine-tune Llama-3.1-8B on 1x A100 80GB, 100M tokens, how long?", 4.0,
     "LoRA/QLoRA need no weight gradients for the frozen weights", "GRPO"),
    ("LoRA 微调 Llama-3.1-8B，1 张 A100 80G，1 亿 token，要多久？", 4.0,
     "LoRA/QLoRA 冻结的权重不需要权重梯度", "GRPO"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "k", "said", "unsaid"), FLOPS_LINES)
def test_flops_line_is_the_methods_own(question: str, k: float, said: str, unsaid: str) -> None:
    a = answer(question)
    got = next(x for x in a.report.assumptions if x.field == "flops_per_param_token")
    assert got.value == k
    line = next(
        x for x in render(a, "text").splitlines() if ("FLOPs per parameter" in x or "每参数每 token" in x)
    )
    assert said in line and unsaid not in line, line
