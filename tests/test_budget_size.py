"""A budget and a data size without a model: the largest model the budget trains on that data."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.notes import why_text
from estimator import estimate
from estimator.models import Currency, SizingRequest, Stage


def test_budget_and_tokens_give_the_largest_model_the_budget_buys():
    """$50K on 1T tokens with H100s: the likely GPU-hours at the middle price spend the budget
    exactly (6·N·D = hours × 3600 × peak × MFU), so N ≈ 2.6B — not the Chinchilla D/20 = 50B."""
    r = estimate(
        SizingRequest(
            stage=Stage.pretrain, tokens=1e12, budget=50_000, currency=Currency.USD, gpu="H100-SXM5-80GB"
        )
    )
    mid_price = (r.cost.price_low + r.cost.price_high) / 2
    assert r.gpu_hours.likely * mid_price == pytest.approx(50_000, rel=1e-3)
    assert 1.5e9 < r.request.params_total < 4e9
    assert why_text("en", next(a for a in r.assumptions if a.field == "params_total")).startswith(
        "the largest model"
    )
    assert "budget_max_params" in {n.code for n in r.warnings}
    # sized at the middle price: the quoted range straddles the budget, and the reply says so
    assert "budget_borderline" in {n.code for n in r.warnings}


def test_budget_size_question_in_both_languages():
    en = answer("I have $50,000. What's the biggest model I can pretrain on 1T tokens with H100s?").report
    zh = answer("预算100万人民币，1万亿token能训多大的模型").report
    assert en.request.params_total < 5e9 and zh.request.params_total < 5e9
    # a model that is named keeps its size: the budget is then checked, not spent
    named = answer("13B模型1万亿token，预算100万人民币，用A100够吗").report
    assert named.request.params_total == pytest.approx(13e9)
    assert {"over_budget", "within_budget", "budget_borderline"} & {n.code for n in named.warnings}
