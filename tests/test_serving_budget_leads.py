"""Trial report s10 A9: 'serve Mixtral-8x7B … budget $3k a month, which GPU' answered 4 × A100 (over
the budget) and named the INT4-on-2-GPUs option only lower down. A serving budget verdict that is over
or borderline now leads with the lighter weights that fit the budget (estimator.serving_budget:
GPUs × 730 h × the price range), then says what the unconstrained answer costs. Both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

ASK = {
    "en": "serve Mixtral-8x7B for 200 concurrent users at 4k context, budget $3k a month, "
    "which GPU and how many",
    "zh": "部署 Mixtral-8x7B，200 并发，4k 上下文，预算每月3万，用什么卡、几张",
}
LEAD = {
    "en": "For $3,000 a month: INT4 (GPTQ/AWQ) weights on 1 GPU of this type, $1,679 – $3,358 a month",
    "zh": "按每月 ¥30,000：同样的负载用 INT4 (GPTQ/AWQ) 权重，这种卡 2 张，每月 ¥21,900 – ¥43,800",
}
THEN = {
    "en": "this answer's GPUs (2) cost $3,358 – $6,716 a month",
    "zh": "这个方案的 4 张卡每月 ¥43,800 – ¥87,600",
}
PRICE = {"en": (2.30, 4.60), "zh": (15.0, 30.0)}
"""Per GPU-hour of the card the answer sizes. s25 trfix #4: 'which GPU and how many' for serving compares
A100, H100 and H200 and sizes the cheapest for the stated load: in USD the H200 (2 GPUs, $2.30–4.60 an hour,
the catalog's USD range), so INT4 needs 1 of them; in CNY the H200 has no price on file, so the A100 80G
(¥15–30, the seed article) as before, INT4 on 2."""
FIT_GPUS = {"en": 1, "zh": 2}


def ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_serving_budget_leads_with_what_fits_it(capsys, lang):
    out = ask(capsys, ASK[lang])
    note = next(n for n in out["report"]["warnings"] if n["code"] == "serving_over_budget")
    p, (low, high) = note["params"], PRICE[lang]
    n = FIT_GPUS[lang]
    assert (p["fit_precision"], p["fit_gpus"]) == ("int4", n)
    assert p["fit_cost_low"] == pytest.approx(n * 730 * low)
    assert p["fit_cost_high"] == pytest.approx(n * 730 * high)
    line = next(ln for ln in out["reply"].splitlines() if ln.startswith(LEAD[lang][:12]))  # after the rows
    assert line.startswith(LEAD[lang]) and THEN[lang] in line
    assert line.index(LEAD[lang]) < line.index(THEN[lang])


def test_no_lead_when_the_budget_fits_the_answer(capsys):
    """$10k a month covers 4 × A100 at $2.50 (≈ $7,300): within, nothing lighter is offered."""
    out = ask(capsys, ASK["en"].replace("$3k", "$10k"))
    note = next(n for n in out["report"]["warnings"] if n["code"] == "serving_within_budget")
    assert "fit_gpus" not in note["params"]
    assert "GPTQ/AWQ) weights on" not in out["reply"]
