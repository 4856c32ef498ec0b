"""Trial s17 #1: a cost question on serving GPUs that do not carry the stated load is priced for the GPUs
that carry it (``Inference.cost_for_load``: the same price and hours × recommended ÷ the user's GPUs),
and the user's own GPUs' cost, when shown, is labelled as theirs — in both languages, by the month (with
the daily schedule) and over a rented month of hours ('一个月')."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

COMMAND = (
    "vllm serve Qwen/Qwen2.5-72B-Instruct-AWQ --quantization awq --tensor-parallel-size 2 "
    "--max-model-len 32768 --gpu-memory-utilization 0.92 --max-num-seqs 64\n"
)


def _ask(capsys, tmp_path, question: str, fmt: str) -> str:
    path = tmp_path / "serve.sh"
    path.write_text(COMMAND)
    main(["ask", "--format", fmt, "--config", str(path), question])
    return capsys.readouterr().out


MONTHLY = [
    (
        "按这个命令在 2 张 A100 80G 上跑，高峰 100 个并发，每天开 12 小时，每月费用大概多少？",
        "能承载这个负载的 20 张",
    ),
    (
        "Running this on two A100 80GB, 100 concurrent users at peak, 12 hours a day. "
        "What will it cost per month?",
        "20 × A100 80G, which carry this load",
    ),
]


@pytest.mark.parametrize(("question", "words"), MONTHLY)
def test_month_priced_for_what_carries_the_load(capsys, tmp_path, question, words):
    d = json.loads(_ask(capsys, tmp_path, question, "json"))
    inf = d["report"]["inference"]
    # s26 trfix #3: 20 (10 copies of TP 2 holding 10 each under vLLM V1's profile; V0's whole 32K pass: 24)
    assert (inf["serving_gpus"], inf["recommended_gpus"], inf["max_concurrency"]) == (2, 20, 10)
    own, load = inf["cost_per_month"], inf["cost_for_load"]
    # 12 of 24 hours: 365 h a month per GPU; 20 GPUs = 10 × the user's 2
    assert load["low"] == pytest.approx(own["low"] * 10) and load["high"] == pytest.approx(own["high"] * 10)
    assert own["low"] == pytest.approx(2 * 365 * (15.0 if d["lang"] == "zh" else 1.2))
    head = _ask(capsys, tmp_path, question, "text").splitlines()[0]
    assert words in head
    money = "¥109,500 – ¥219,000" if d["lang"] == "zh" else "$8,760 – $18,250"
    assert money in head and head.index(money) < head.index("10,950" if d["lang"] == "zh" else "876")


def test_rented_month_of_hours_priced_for_what_carries_the_load(capsys, tmp_path):
    question = "每天跑 12 小时，2 张 A100 80G，高峰 100 并发，一个月要多少钱？"
    d = json.loads(_ask(capsys, tmp_path, question, "json"))
    assert d["request"]["hours"] == 365  # the estimator's 730-hour month of 12-hour days (trial s17-2 #1)
    assert d["report"]["inference"]["cost_for_load"]["low"] == pytest.approx(20 * 365 * 15.0)  # s26 trfix #3
    lines = _ask(capsys, tmp_path, question, "text").splitlines()
    assert (
        lines[1] == "能承载这个负载的 20 张 A100 80G × 365 小时 = 7,300 卡·时 ≈ ¥109,500 – ¥219,000"
    )  # s26 trfix #3
    assert lines[2].startswith("你的 2 张 A100 80G（只容纳 100 条并发中的 10 条）× 365 小时 = 730 卡·时")


def test_gpus_that_carry_the_load_have_no_load_cost(capsys, tmp_path):
    d = json.loads(_ask(capsys, tmp_path, "2 张 A100 80G，8 个并发，4K 上下文，每月多少钱？", "json"))
    inf = d["report"]["inference"]
    assert inf["max_concurrency"] >= 8 and inf["cost_per_month"] is not None and inf["cost_for_load"] is None


# s37-billing: the money is the 16 GPUs' own (their days-table row: 1,055.1 GPU-hours with the scale-out,
# billed 1,056 × $1.20–2.50 = $1,267–2,640, × ¥15–30 = ¥15,840–31,680), and so are the hours it names;
# before, the count-free 971 GPU-hours were billed as if the 2 cards that cannot hold it ran the job
TRAINING = [
    # s43 fixans #1: the 16 GPUs' own layout recomputes fully (TP/ZeRO-3 on A100 80G), so their hours are
    # 1,056 × 8/6 = 1,407 (Korthikanti et al. 2022 §5), as the answer with no count says: $1,688 – $3,518
    ("Full fine-tune Qwen2.5-72B on 1B tokens with 2x A100 80GB. How much will it cost?",
     "Cost: $1,688 – $3,518 for these 1.4K GPU-hours, run on at least 16 GPUs that hold the job "
     "(your 2 do not)"),
    ("用 2 张 A100 80G 全参微调 Qwen2.5-72B，10 亿 token，要花多少钱？",
     "费用：¥21,105 – ¥42,210，即这 1,407 卡·时在至少 16 张放得下这个任务的卡上跑的费用（你的 2 张放不下）"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "line"), TRAINING)
def test_a_training_cost_on_too_few_gpus_is_said_of_those_that_hold_it(capsys, question, line):
    """971 GPU-hours × $1.20–2.50 (A100 80G USD) or ¥15–30: the job's GPU-hours, the same on the 16 GPUs
    that hold it (the days table has no count-specific GPU-hours there), never a cost of the 2 alone."""
    main(["ask", "--format", "json", question])
    d = json.loads(capsys.readouterr().out)
    assert d["report"]["memory"]["fits_requested"] is False and d["report"]["memory"]["min_gpus"] == 16
    assert d["report"]["cost"]["billed_gpu_hours"] == 971
    main(["ask", question])
    assert capsys.readouterr().out.splitlines()[1] == line
