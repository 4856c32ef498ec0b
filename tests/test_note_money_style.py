"""One money style within a note (bot.render.notes.note_text, bot.render.fmt.needs_cents): when one amount of
a budget note is under 100, every amount of it carries cents — '¥75.00 – ¥200.00', never '¥75.00 – ¥200'
(read-through of session 25: the zh budget note mixed the two)."""

from __future__ import annotations

import re

import pytest

from tests.cli_run import ask_text

CASES = {
    "zh": (
        "预算5万块，Llama-3.1-8B全参微调1亿token，租什么卡几张",
        "预算够：需要 ¥75.00 – ¥200.00，预算 ¥50,000.00。",
    ),
    "en": (
        "budget $500, full fine-tune Llama-3.1-8B on 100M tokens, which GPUs and how many",
        "Within budget: $7.50 – $17.50 of your $500.00.",
    ),
}


@pytest.mark.parametrize("lang", sorted(CASES))
def test_a_budget_note_writes_every_amount_in_one_style(lang: str) -> None:
    question, line = CASES[lang]
    text = ask_text(question)
    assert line in text  # 4.8 H100-hours × the catalog's H100 range (¥15–40, $1.56–3.65 … per GPU-hour)
    note = next(ln for ln in text.splitlines() if ln == line)
    amounts = re.findall(r"[¥$][\d,]+(?:\.\d+)?", note)
    assert len(amounts) == 3 and all("." in a for a in amounts)
