"""Trial report s10 B4: '预算每月5万' for a 61-day pre-training job was compared as a one-off ¥50,000.
A training budget per period is the period's sum × the run's months (estimator.budget_check.run_budget:
billed GPU-hours ÷ the stated GPUs ÷ 730 h a month, 8,760 h ÷ 12). Both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.budget_check import run_budget
from estimator.models import SizingRequest

QUESTION = {
    "zh": "2机8卡H800，从头预训练一个13B模型，数据3000亿token，大概要训多少天？预算每月5万够吗",
    "en": "pretrain a 13B model on 2 nodes of 8 H800, 300B tokens, how many days? "
    "budget 50k RMB a month, enough?",
}
LINE = {
    "zh": "超过你每月 ¥50,000 在整个训练 2 个月里合计的 ¥100,000",
    "en": "more than the CN¥100,000 that CN¥50,000 a month comes to over the run's 2 months",
}


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_monthly_budget_is_summed_over_the_runs_months(capsys, lang):
    """23,463 H800-hours on 16 GPUs = 61 days = 2.0 months of 730 h: the budget is ¥50,000 × 2.0."""
    out = ask(capsys, QUESTION[lang])
    note = next(n for n in out["report"]["warnings"] if n["code"] == "over_budget")
    assert note["params"]["per_month"] == 50_000
    assert note["params"]["months"] == 2.0
    assert note["params"]["budget"] == 100_000
    assert out["request"]["budget"] == 50_000 and out["request"]["budget_period"] == "month"
    assert not [i for i in out["interpretation"]["ignored"] if i["reason"] == "period_as_total"]
    assert LINE[lang] in out["reply"]


def test_run_budget_terms():
    """The terms: 730 h a month (8,760 / 12); a budget with no period is the run's sum unchanged; no GPU
    count → the deadline's days."""
    month = SizingRequest(budget=50_000, budget_period="month", gpu_count=16)
    assert run_budget(month, 16 * 730 * 3) == (150_000, {"per_month": 50_000, "months": 3.0})
    assert run_budget(SizingRequest(budget=50_000, gpu_count=16), 16 * 730 * 3) == (50_000, {})
    week = SizingRequest(budget=10_000, budget_period="week", deadline_days=73)  # 73 d = 2.4 months
    budget, extra = run_budget(week, 1.0)
    assert extra["months"] == 2.4 and extra["per_month"] == pytest.approx(10_000 * 730 / 168)
    assert budget == pytest.approx(10_000 * 730 / 168 * 2.4)


@pytest.mark.parametrize(
    "question",
    [
        "7B 模型 LoRA 微调，1亿 token，8 张 A100，预算每月5万，够吗",
        "LoRA of a 7B on 100M tokens, 8 A100, budget 50k RMB a month, enough?",
    ],
)
def test_a_run_inside_one_month_has_that_months_budget(capsys, question: str) -> None:
    """6.2 A100-hours on 8 GPUs is under an hour: the run's budget is the month's ¥50,000, not
    ¥50,000 × 0.0 months (it was told ¥0 was over budget)."""
    out = ask(capsys, question)
    note = next(n for n in out["report"]["warnings"] if n["code"] in ("within_budget", "over_budget"))
    assert note["code"] == "within_budget"
    assert (note["params"]["months"], note["params"]["budget"]) == (1.0, 50_000)
