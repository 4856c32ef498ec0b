"""s41-fixt2: a fresh user's trial of main 93604637 on training plans and time (s41 trial_report.md).

2. an adapter fine-tune (LoRA / QLoRA) on PCIe cards whose frozen base fits one card is laid out as plain
   DDP (only the adapters' gradients all-reduced), not ZeRO-3 gathering the whole base over PCIe every
   forward and backward pass (estimator.adapter_ddp); the reason says so, the DeepSpeed recipe follows.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.adapter_ddp import gather_seconds, recompute_seconds

SEVEN_B_LORA_ZH = "用8张4090做Qwen2.5-7B的LoRA微调，数据5万条，每条1000 token，训3个epoch要多久？"
SEVEN_B_LORA_EN = "LoRA fine-tune Qwen2.5-7B on 8x RTX 4090, 50k samples of 1000 tokens, 3 epochs, how long?"


def ask(capsys: pytest.CaptureFixture[str], question: str, fmt: str = "text", *extra: str):
    main(["ask", "--format", fmt, *extra, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


# --- 2. adapter fine-tunes on PCIe cards: plain DDP where the frozen base fits one card -----------------


def test_gather_and_recompute_seconds_real_values() -> None:
    # Qwen2.5-7B bf16 base: 7.61B parameters × 2 bytes (Qwen2.5 model card) over 8 GPUs, received twice
    # (forward and backward all-gather, ZeRO §7.2.2) at 25 GB/s (PCIe 4.0 x16 pinned copies)
    assert gather_seconds(15.22e9, 8) == pytest.approx(2 * 15.22e9 * 7 / 8 / 25e9)  # ≈ 1.07 s
    assert gather_seconds(15.22e9, 8) == pytest.approx(1.0654, rel=1e-3)
    # one more forward, 2·N·T, of 1,000 tokens at the RTX 4090's 165.2 TFLOPS dense bf16 (Ada whitepaper)
    # × 30 %
    assert recompute_seconds(7.61e9, 1000, 165.2e12) == pytest.approx(2 * 7.61e9 * 1000 / (165.2e12 * 0.3))
    assert recompute_seconds(7.61e9, 1000, 165.2e12) == pytest.approx(0.3071, rel=1e-3)


@pytest.mark.parametrize("question", [SEVEN_B_LORA_ZH, SEVEN_B_LORA_EN])
def test_lora_7b_on_8_4090_is_plain_ddp(capsys: pytest.CaptureFixture[str], question: str) -> None:
    plan = ask(capsys, question, "json")["report"]["memory"]["plan"]
    assert (plan["tp"], plan["pp"], plan["dp"], plan["zero_stage"]) == (1, 1, 8, 0)
    # the bf16 base (14.2 GiB) no longer sharded: activations kept only by full recompute on a 24 GiB card
    assert plan["recompute"] == "full"


def test_lora_7b_on_8_4090_reason_en(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, SEVEN_B_LORA_EN)
    assert "TP 1 × PP 1 × DP 8, plain DDP (no ZeRO), full recompute" in out
    assert "only the adapters' gradients are all-reduced" in out
    assert "no NVLink, so ZeRO-3" not in out
    assert "8 × RTX 4090 ≈ 4.8 hours" in out  # 26 GPU-hours × (4 + 2) / 4 for the extra forward: 39


def test_lora_7b_on_8_4090_reason_zh(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, SEVEN_B_LORA_ZH)
    assert "TP 1 × PP 1 × DP 8，纯 DDP（不用 ZeRO），完全重计算" in out
    assert "只对适配器的梯度做 all-reduce" in out
    assert "没有 NVLink，所以用 ZeRO-3" not in out
    assert "约 4.8 小时（39 RTX 4090·时）" in out


def test_lora_deepspeed_recipe_follows_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    out = ask(capsys, SEVEN_B_LORA_ZH, "text", "--recipe", "deepspeed")
    config = out[out.index('"zero_optimization"') :]
    assert '"stage": 0' in config[:200]


@pytest.mark.parametrize(
    "question",
    [
        # full fine-tune: the base has gradients and optimizer states, ZeRO-3 shards them
        "Full fine-tune Qwen2.5-7B on 8x RTX 4090, 50k samples of 1000 tokens, how long?",
        "用8张4090全参微调Qwen2.5-7B，数据5万条，每条1000 token，要多久？",
        # the user's own ZeRO-3 is kept (a stated setting is used)
        "LoRA Qwen2.5-7B with DeepSpeed ZeRO-3 on 8x RTX 4090, 50k samples of 1000 tokens, how long?",
        "用8张4090、DeepSpeed ZeRO-3 做Qwen2.5-7B的LoRA微调，数据5万条，每条1000 token，要多久？",
    ],
)
def test_not_switched_to_ddp(capsys: pytest.CaptureFixture[str], question: str) -> None:
    plan = ask(capsys, question, "json")["report"]["memory"]["plan"]
    assert plan["zero_stage"] == 3


@pytest.mark.parametrize(
    "question",
    [
        # 32B QLoRA: a 4-bit base of ≈ 18 GB with activations does not fit one 24 GB card within headroom
        "QLoRA Qwen2.5-32B on 4x RTX 4090, 50k samples of 1000 tokens, how long?",
        "用4张4090做Qwen2.5-32B的QLoRA微调，数据5万条，每条1000 token，要多久？",
    ],
)
def test_base_too_large_for_one_card_keeps_zero3(capsys: pytest.CaptureFixture[str], question: str) -> None:
    out = ask(capsys, question, "json")
    plan = out["report"]["memory"]["plan"]
    assert (plan["dp"], plan["zero_stage"]) == (4, 3)


# --- 3. a budget per hour or per day: the answer quotes the GPUs it rents -----------------------------

HOURLY_EN = "LoRA 70B on H100, 200M tokens, budget $40 per hour, how long?"
HOURLY_ZH = "LoRA 微调 70B，用 H100，2亿 token，预算每小时 300 元，多久能训完？"


def test_hourly_budget_headline_en(capsys: pytest.CaptureFixture[str]) -> None:
    # $40 an hour at the catalog's high $3.50 per H100-hour surely rents floor(40 / 3.5) = 11 GPUs
    r = ask(capsys, HOURLY_EN, "json")["report"]
    assert r["gpus_for_deadline"] == 11
    out = ask(capsys, HOURLY_EN)
    head, budget = out.splitlines()[:2]
    assert head.endswith("≈ 59 H100-hours: about 11 GPUs for 5.3 hours")
    assert "rents 11 – 26 GPUs" in budget and "run's 59 GPU-hours" in budget
    assert "(59 GPU-hours × $1.50–3.50 per GPU-hour)" in out  # the cost line bills the same hours
    assert "1.8 days" not in head and "85 H100-hours" not in out  # not the fewest 2, recomputing


def test_hourly_budget_headline_zh(capsys: pytest.CaptureFixture[str]) -> None:
    # ¥300 an hour at ¥40 per H100-hour (the high end) rents floor(300 / 40) = 7 GPUs
    r = ask(capsys, HOURLY_ZH, "json")["report"]
    assert r["gpus_for_deadline"] == 7
    head, budget = ask(capsys, HOURLY_ZH).splitlines()[:2]
    assert "约 7 张训" in head and "可同时租 7 – 20 张卡" in budget


@pytest.mark.parametrize(
    "question, count",
    [
        # a stated count is the user's: the budget line weighs it, the headline stays on their 4
        ("Full fine-tune Qwen2.5-7B on 4x A100, 1B tokens, budget $20 per hour, how long?", 4),
        ("用4张A100全参微调Qwen2.5-7B，10亿 token，预算每小时 150 元，要多久？", 4),
        # a stated deadline picks the count that meets it (3 A100s in 2 days), not the budget's 8
        ("Full fine-tune Qwen2.5-7B on A100, 1B tokens, budget $20 per hour, within 2 days?", 3),
    ],
)
def test_hourly_budget_leaves_stated_counts_and_deadlines(
    capsys: pytest.CaptureFixture[str], question: str, count: int
) -> None:
    r = ask(capsys, question, "json")["report"]
    shown = r["days"]["gpus"] if r["days"] else r["gpus_for_deadline"]
    assert shown == count


@pytest.mark.parametrize(
    "question",
    ["Qwen2.5-7B 全参微调，用 A100，10亿 token，预算每天 2000 元，要多久？",
     "Full fine-tune Qwen2.5-7B on A100, 1B tokens, budget $200 a day, how long?"],
)  # fmt: skip
def test_daily_budget_quotes_the_gpus_it_rents_around_the_clock(
    capsys: pytest.CaptureFixture[str], question: str
) -> None:
    # ¥2,000 ÷ 24 h ÷ ¥30 (A100 high) = 2.8 → 2 GPUs; $200 ÷ 24 h ÷ $2.50 = 3.3 → 3
    r = ask(capsys, question, "json")["report"]
    assert r["gpus_for_deadline"] == (2 if "元" in question else 3)
