"""One money style within a note (bot.render.notes.note_text, bot.render.fmt.needs_cents): when one amount of
a budget note is under 100, every amount of it carries cents — '¥75.00 – ¥200.00', never '¥75.00 – ¥200'
(read-through of session 25: the zh budget note mixed the two)."""

from __future__ import annotations

import re

import pytest

from tests.cli_run import ask_text

CASES = {
    "zh": (
        # 5000万 tokens (was 1亿): since s36-left #1 (ZeRO-3 data parallel, full recompute on 2 GPUs,
        # ×4/3) 1亿 tokens bill 7 H100-hours, ¥105 – ¥280, no amount under 100; 5000万: 2.4 × 4/3 =
        # 3.2 H100-hours, billed 4 × ¥15–40 = ¥60 – ¥160, one amount under 100, so every amount carries cents
        "预算5万块，Llama-3.1-8B全参微调5000万token，租什么卡几张",
        "预算够：需要 ¥60.00 – ¥160.00，预算 ¥50,000.00。",
    ),
    "en": (
        "budget $500, full fine-tune Llama-3.1-8B on 100M tokens, which GPUs and how many",
        # s36-left #1: 4.8 × 4/3 = 6.4 H100-hours (full recompute on 2 GPUs, ZeRO-3), billed 7 × $1.50–3.50
        "Within budget: $10.50 – $24.50 of your $500.00.",
    ),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_budget_note_writes_every_amount_in_one_style(lang: str) -> None:
    question, line = CASES[lang]
    text = ask_text(question)
    assert line in text  # billed H100-hours × the catalog's H100 range (¥15–40, $1.50–3.50 per GPU-hour)
    note = next(ln for ln in text.splitlines() if ln == line)
    amounts = re.findall(r"[¥$][\d,]+(?:\.\d+)?", note)
    assert len(amounts) == 3 and all("." in a for a in amounts)


def test_a_budget_note_over_100_keeps_whole_amounts() -> None:
    """Every amount at or over 100: no cents anywhere (1亿 tokens: 7 billed H100-hours × ¥15–40 = ¥105 –
    ¥280)."""
    text = ask_text("预算5万块，Llama-3.1-8B全参微调1亿token，租什么卡几张")
    assert "预算够：需要 ¥105 – ¥280，预算 ¥50,000。" in text
