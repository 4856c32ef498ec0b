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


def test_budget_without_a_price_gets_the_highest_price_it_covers():
    """A budget beside a job on a card with no rental price ("预算200w … MI300X … 够吗"): the answer is
    the break-even price, budget ÷ the high end of the GPU-hours band, never silence (trial 2026-12-02)."""
    from bot.cli import ask

    zh = answer("预算200w，想在MI300X上用DPO训qwen3 14b，10万条偏好数据，够吗").report
    note = next(n for n in zh.warnings if n.code == "budget_no_price")
    assert zh.cost is None and zh.request.budget == 2_000_000
    assert note.params["max_price"] == pytest.approx(2_000_000 / zh.gpu_hours.high)
    assert note.params["gpu_hours"] == pytest.approx(zh.gpu_hours.high) and note.params["currency"] == "CNY"
    # 10万条偏好数据 under DPO: each record is a chosen and a rejected response (TRL's DPO dataset rows)
    assert zh.request.samples_are_pairs and "pairs_to_tokens" in {n.code for n in zh.warnings}
    text, _ = ask("预算200w，想在MI300X上用DPO训qwen3 14b，10万条偏好数据，够吗", None, "text")
    assert "预算 ¥2,000,000 够用" in text.splitlines()[1] and "每卡·时" in text.splitlines()[1]
    # s43 fixans #5: the RTX 5090 now has a sourced USD range; the L20 (China-only) has no USD price
    en = answer("budget $20k, pretrain a 1B model on 100B tokens with 8 L20, enough?").report
    note = next(n for n in en.warnings if n.code == "budget_no_price")
    assert (
        note.params["max_price"] == pytest.approx(20_000 / en.gpu_hours.high)
        and note.params["currency"] == "USD"
    )
    text, _ = ask("budget $20k, pretrain a 1B model on 100B tokens with 8 L20, enough?", None, "text")
    assert text.splitlines()[1].startswith("Your budget of $20,000 covers this run")
