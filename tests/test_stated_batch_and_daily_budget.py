"""s11 understanding fixes, asserted through ``sizing-bot ask --format json``.

1. A stated gradient accumulation with a GPU count and no micro-batch ('QLoRA Mixtral 8x7B on one
   4090D, gradient_accumulation_steps 8') was named as not used and the batch line showed the answer's
   own accumulation (64, from Alpaca's 128 sequences per step); it is now used as stated (HF
   TrainingArguments gradient_accumulation_steps; global batch = micro × accumulation × DP, DeepSpeed's
   ``_batch_assertion``).
2. '微批次 2' / '微批 2' (the micro-batch per GPU) were not read in Chinese.
3. A budget per day ('预算一天 3000 元', '3000 yuan a day') was read as a one-off budget: the request's
   ``budget_period`` is now "day".
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, question: str) -> dict:
    capsys.readouterr()
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


ACCUMULATION = [
    ("QLoRA Mixtral 8x7B on one 4090D, gradient_accumulation_steps 8", 8, "× 8 accumulation ×"),
    ("LoRA fine-tune Qwen2.5-7B on 2 A100, gradient accumulation steps 4", 4, "× 4 accumulation ×"),
    ("full fine-tune Llama-3-8B on 8 H100, grad_accum 16", 16, "× 16 accumulation ×"),
    ("QLoRA Mixtral 8x7B 单卡 4090D，梯度累积 8", 8, "× 梯度累积 8 ×"),
    ("用 2 张 A100 做 Qwen2.5-7B 的 LoRA 微调，梯度累积步数 4", 4, "× 梯度累积 4 ×"),
    ("8 张 H100 全参微调 Llama-3-8B，gradient_accumulation_steps 16", 16, "× 梯度累积 16 ×"),
]


@pytest.mark.parametrize(("question", "steps", "line"), ACCUMULATION)
def test_a_stated_accumulation_with_gpus_is_shown_as_stated(capsys, question, steps, line) -> None:
    out = ask(capsys, question)
    assert out["request"]["gradient_accumulation"] == steps  # was None (named 'no_field')
    plan = out["report"]["memory"]["plan"]
    assert plan["gradient_accumulation"] == steps
    assert plan["global_batch_sequences"] == plan["micro_batch"] * steps * plan["dp"]
    assert not [i for i in out["interpretation"]["ignored"] if "accumulation" in i["text"]]
    assert line in out["reply"]


MICRO = [
    ("用 8 张 A100 做 Qwen2.5-7B 全参微调，微批次 2", 2),
    ("Qwen2.5-14B LoRA 微调，4 张 4090，微批 2", 2),
    ("单卡 A100 QLoRA 微调 Llama-3-8B，每卡微批次 4", 4),
    ("用 8 张 A100 做 Qwen2.5-7B 全参微调，微批次为 2", 2),
]


@pytest.mark.parametrize(("question", "micro"), MICRO)
def test_a_chinese_micro_batch_is_read(capsys, question, micro) -> None:
    out = ask(capsys, question)
    assert out["request"]["batch_size"] == micro  # was 1 (the default)
    assert out["report"]["memory"]["plan"]["micro_batch"] == micro
    assert not [a for a in out["assumptions"] if a["field"] == "micro_batch"]


DAILY = [
    ("用 H100 预训练 Llama-3-8B 1T token，预算一天 3000 元", 3000),
    ("从头预训练 7B 模型，2000 亿 token，H800，预算一天 5 万元", 50_000),
    ("8 张 A100 微调 Qwen2.5-72B，预算一天 3000 元，要多久", 3000),
    ("Pretrain Llama-3-8B on 1T tokens with H100, 3000 yuan a day", 3000),
    ("pretrain a 7B model on 200B tokens on H800, 50000 yuan a day", 50_000),
    ("fine-tune Qwen2.5-72B on 8 A100, we have 3000 yuan a day, how long?", 3000),
]


@pytest.mark.parametrize(("question", "budget"), DAILY)
def test_a_budget_per_day_is_read_with_its_period(capsys, question, budget) -> None:
    out = ask(capsys, question)
    request = out["request"]
    assert (request["budget"], request["currency"], request["budget_period"]) == (budget, "CNY", "day")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_daily_budget_is_a_rate(capsys, lang) -> None:
    """¥3,000 a day is a rate (s12, as the hourly budget of s11): ¥125 an hour around the clock rents
    floor(125 / 40) = 3 … floor(125 / 15) = 8 H100s at once (catalog ¥15 – ¥40 per GPU-hour), and the
    run's 48,310 GPU-hours take 48,310 / 8 … 48,310 / 3 hours on them — not a month's sum."""
    question = DAILY[0 if lang == "zh" else 3][0]
    note = next(n for n in ask(capsys, question)["report"]["warnings"] if n["code"] == "daily_budget")
    p = note["params"]
    assert (p["gpus_low"], p["gpus_high"]) == (3, 8)
    assert p["hours_low"] == pytest.approx(p["gpu_hours"] / 8)
    assert p["hours_high"] == pytest.approx(p["gpu_hours"] / 3)


@pytest.mark.parametrize(
    "question",
    [
        "用 H100 预训练 Llama-3-8B 1T token，预算两个月",  # a time budget, no money
        "Pretrain Llama-3-8B on 1T tokens with H100 at $2 an hour in 30 days",  # a price per hour
    ],
)
def test_no_budget_period_without_a_sum_per_day(capsys, question) -> None:
    assert ask(capsys, question)["request"]["budget_period"] is None
