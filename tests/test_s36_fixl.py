"""Session 36 fixl: the fine-tuning budget → model answer (bot.core.budget_finetune), after a design review.

Dense models are ranked apart from MoE ones (an MoE's total size costs like its active parameters); a row
is 'within budget' only when the top of the cost the single answer prints is (that answer's own words);
the row's cards are the detail's; the catalog's largest model of a kind fitting is said: the budget is
not the limit. Values are worked from the single answers for the same model and data (100,000 samples
× 1,024 tokens = 102,400,000 tokens)."""

from __future__ import annotations

import pytest

from bot.contract import to_json
from bot.core.budget_finetune import by_size, is_moe
from bot.core.pipeline import answer
from bot.render.renderer import render

TOKENS = 100_000 * 1024


def _rows(text: str) -> tuple[list[dict], str]:
    a = answer(text)
    reply = render(a, "text")
    return to_json(a, reply)["report"]["budget_finetune"], reply


def test_kinds_are_ranked_apart() -> None:
    assert not is_moe("Llama-3.1-405B") and is_moe("Kimi-K2") and is_moe("Phi-3.5-MoE")
    assert by_size(False)[0] == "Llama-3.1-405B" and by_size(True)[0] == "Kimi-K2"
    assert not any(is_moe(m) for m in by_size(False)) and all(is_moe(m) for m in by_size(True))


def test_a_budget_above_the_catalog_says_the_budget_is_not_the_limit_en() -> None:
    rows, reply = _rows("With a $10k budget, how big a model can I fine-tune?")
    assert [(r["method"], r["model"], r["moe"]) for r in rows] == [
        ("lora", "Llama-3.1-405B", False),
        ("lora", "Kimi-K2", True),
        ("full", "Llama-3.1-405B", False),
        ("full", "Kimi-K2", True),
    ]
    assert all(r["budget_not_limit"] for r in rows)
    assert rows[1]["params_active"] == 32e9 and rows[0]["params_active"] is None
    # the single answer 'LoRA Llama 3.1 405B on 102.4M tokens': 403 A100-hours × $1.20–2.50, about 16 GPUs
    assert (rows[0]["cost"]["low"], rows[0]["cost"]["high"]) == pytest.approx((483.6, 1007.5))
    assert rows[0]["gpus_shown"] == 16
    # Kimi K2 LoRA: about 32 GPUs, $1,292–2,692 (1,077 GPU-hours × $1.20–2.50), as its single answer prints;
    # s40: its experts run transformers' eager loop (no tool named: the fine-tuning stacks load HF model
    # code), so a step is at least a dense 1T model's (training_rate.eager_moe_slowdown); $60–125 before
    assert (rows[1]["cost"]["low"], rows[1]["cost"]["high"], rows[1]["gpus_shown"]) == pytest.approx(
        (1292.4, 2692.5, 32)
    )
    lines = reply.splitlines()
    assert "LoRA: Meta Llama 3.1 405B — " in lines[1] and "on 16 × A100 80G, $484 – $1,008" in lines[1]
    assert "the budget is not the limit: this is the catalog's largest dense model" in lines[1]
    assert "32B active per token" in lines[2] and "catalog's largest MoE model" in lines[2]
    assert "about 16 GPUs" in reply and "Within budget" in reply  # the detail agrees with the row


def test_a_small_budget_names_the_largest_of_each_kind_that_fits_zh() -> None:
    rows, reply = _rows("预算 750 元，能微调多大的模型")
    assert [(r["method"], r["moe"]) for r in rows] == [
        ("lora", False),
        ("lora", True),
        ("full", False),
        ("full", True),
    ]
    for r in rows:
        assert r["cost"]["high"] <= 750 and r["tokens"] == TOKENS and not r["budget_not_limit"]
    # Gemma 2 27B LoRA, its single answer: ≈ 25 A100-hours on 1 card, billed 25 × ¥15–30 = ¥375–750
    assert rows[0]["model"] == "Gemma-2-27B" and (rows[0]["cost"]["low"], rows[0]["cost"]["high"]) == (
        375,
        750,
    )
    lines = reply.splitlines()
    assert "LoRA：Google Gemma 2 27B——1 张 A100 80G，24.8 卡·时，¥375 – ¥750" in lines[1]
    # s40: an MoE fine-tuned on HF model code runs its experts in transformers' eager loop, a step at least a
    # dense model of all its parameters (estimator.training_rate.eager_moe_slowdown): gpt-oss-120b (24 A100,
    # ¥360–720 at the grouped-GEMM rate) no longer fits ¥750; DeepSeek-Coder-V2-Lite (15.7B, 2.4B active) on
    # its fewest 4 A100: 21.9 card-hours, billed 22 × ¥15–30 = ¥330–660
    assert rows[3]["model"] == "DeepSeek-Coder-V2-Lite" and "（每 token 激活 2.4B）" in lines[4]
    assert (rows[3]["gpus_shown"], rows[3]["cost"]["low"], rows[3]["cost"]["high"]) == (4, 330, 660)
    assert "预算不是限制" not in reply and "预算勉强" not in reply  # the rows and the detail agree: within
    assert "在预算内" in reply


@pytest.mark.parametrize(
    ("text", "ask"),
    [
        ("预算 750 元，能微调多大的模型", "{m} 微调 {model}，10 万条数据每条 1024 token，预算 750 元"),
        (
            "With a $300 budget, how big a model can I fine-tune?",
            "{m} {model} on 100,000 samples of 1,024 tokens, $300",
        ),
    ],
)
def test_each_row_costs_what_its_single_answer_prints(text: str, ask: str) -> None:
    # the assumed samples' 1,024 tokens are the sequence length, as in the single answer (not 2,048)
    a = answer(text)
    for r in [a.report, *a.compared_models]:
        m = "LoRA" if r.request.method.value == "lora" else ("全参" if "预算" in text else "full fine-tune")
        single = answer(ask.format(m=m, model=r.request.model)).report
        assert single.request.model == r.request.model and single.request.tokens == r.request.tokens == TOKENS
        assert (single.headline_cost.low, single.headline_cost.high) == (
            r.headline_cost.low,
            r.headline_cost.high,
        )
        assert single.gpus_for_deadline == r.gpus_for_deadline and r.request.seq_len == 1024
        assert (
            r.headline_cost.high <= r.request.budget
        )  # 'within budget' at the top, as the single answer says
