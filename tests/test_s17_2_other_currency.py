"""Trial s17-2 #2: a cost question on a card with no rental price in the reply's currency (the L4 has no
CNY list on file, only AWS's USD one) is priced in the currency that has one, labelled with it and its
source — never "no price" and nothing, while English prices the same card."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

ZH = "L4 上部署 Qwen2.5-7B，30 并发，每天只用 8 小时，一个月多少钱？"
EN = "Serve Qwen2.5-7B on L4, 30 concurrent, only 8 hours a day. How much a month?"


def _ask(capsys, question: str, fmt: str) -> str:
    main(["ask", "--format", fmt, question])
    return capsys.readouterr().out


@pytest.mark.parametrize("question", [ZH, EN])
def test_l4_month_priced_in_usd(capsys, question):
    d = json.loads(_ask(capsys, question, "json"))
    inf = d["report"]["inference"]
    month, gpus = inf["cost_per_month"], inf["serving_gpus"]
    # AWS g6 list: $0.80–1.67 per L4-hour (catalog range); the GPUs served × 730 × 8 ÷ 24 h
    assert month["currency"] == "USD"
    assert month["low"] == pytest.approx(0.80 * gpus * 730 * 8 / 24)
    assert month["high"] == pytest.approx(1.67 * gpus * 730 * 8 / 24)


def test_zh_reply_says_which_currency(capsys):
    text = _ask(capsys, ZH, "text")
    assert "没有 L4 的 CNY 租用价格：费用以 USD 计，按已收录的 USD 价格表计算" in text
    assert "US$390 – US$815" in text.splitlines()[1]  # 2 L4 carry 30 concurrent: 487 GPU-hours
    assert "暂不估算费用" not in text
    d = json.loads(_ask(capsys, ZH, "json"))
    assert not [n for n in d["report"]["warnings"] if n["code"] == "no_price"]


def test_budget_keeps_its_currency(capsys):
    d = json.loads(_ask(capsys, "L4 上部署 Qwen2.5-7B，30 并发，预算每月 5000 元，够吗？", "json"))
    assert [n for n in d["report"]["warnings"] if n["code"] == "price_other_currency"] == []
