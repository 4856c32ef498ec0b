"""s11 trial item 18: a serving budget's lines agree with each other.

- Lighter weights lead the verdict only on fewer GPUs than the answer's: INT4 on the same 16 H20 cost the
  same, so it is no alternative (the reply gave the same range twice with two verdicts).
- Every cost is in the budget's own period: a budget a day is compared with the GPUs' cost a day
  (cost a month × 24 / 730), and what it rents is said of the budget as stated, not of "a month".
- Chinese keeps a space between an amount and the word after it ('每天 ¥2,000 以内').
Through ``sizing-bot ask --format json``, both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

V3 = {
    "en": [
        "Deploy DeepSeek-V3 671B with SGLang on 2 nodes of 8 H20 96G, 128k context, 50 concurrent: "
        "will it work? Budget ¥3000 per day",
        "Serve DeepSeek-V3 on 16 H20 96GB with SGLang at 128k context for 50 concurrent users; our budget is "
        "¥3000 per day",
        "We have 16 H20 (96G) for DeepSeek-V3 with SGLang, 128k context, 50 users, daily budget ¥3,000: "
        "enough?",
    ],
    "zh": [
        "DeepSeek-V3 671B 用 SGLang 部署，2机8卡 H20 96G，128k 上下文，50 并发，能跑吗？预算每天3000块",
        "16 张 H20 96G 用 SGLang 部署 DeepSeek-V3，128k 上下文，50 个并发，每天预算 3000 元，够吗？",
        "SGLang 跑 DeepSeek-V3，16 张 H20 96G，上下文 128k，并发 50，预算每天 3000 元，行不行？",
    ],
}
BUDGET_CODES = {"serving_within_budget", "serving_over_budget", "serving_budget_borderline"}
DAY = {"en": " a day", "zh": "每天 "}
MONTH = {"en": " a month", "zh": "每月"}


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


def budget_line(out: dict) -> str:
    return next(
        x for x in out["reply"].splitlines() if "3,000" in x and x is not out["reply"].splitlines()[0]
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("i", [0, 1, 2])
def test_a_day_budget_is_compared_a_day_with_no_same_count_alternative(capsys, lang, i):
    out = ask(capsys, V3[lang][i])
    req, inf = out["request"], out["report"]["inference"]
    assert (req["budget"], req["budget_period"], req["gpu_count"]) == (3000, "day", 16)
    [note] = [w for w in out["report"]["warnings"] if w["code"] in BUDGET_CODES]
    params = note["params"]
    assert "fit_gpus" not in params  # INT4 needs more H20, not fewer: no alternative
    # s24: SGLang's default plain TP keeps the whole MLA latent cache on every TP rank (5daee240), so INT4
    # needs 64 H20, not 16 (by hand: 8 stages of TP 8 hold 61/8 layers' latent cache each, 50 x 131,072 x
    # 70,272 B / 8 = 57.6 GB a GPU beside 5.3 GB of INT4 weights, under 74.3 GiB usable; 4 stages: 115 GB)
    assert [a["min_gpus"] for a in inf["alternatives"] if a["change"] == "int4"] == [64]
    line = budget_line(out)
    assert MONTH[lang] not in line
    low_day = params["cost_low"] * 24 / 730  # ¥15 × 16 × 24 h = ¥5,760 … the low end ¥2,688
    assert f"{low_day:,.0f}" in line and DAY[lang] in line
    assert line.count(f"{low_day:,.0f}") == 1  # one range, one verdict


@pytest.mark.parametrize(
    ("text", "lighter", "plan"),
    [
        ("部署 Qwen2.5-72B，预算每天2000元", "在每天 ¥2,000 以内：", "这个方案的 4 张卡每天 ¥1,440 – ¥2,880"),
        (
            "Serve Qwen2.5-72B on A100 80G, budget ¥2000 per day",
            "Within CN¥2,000 a day: INT4 (GPTQ/AWQ) weights on 1 GPU of this type, CN¥360 – CN¥720 a day",
            "this answer's GPUs (4) cost CN¥1,440 – CN¥2,880 a day",
        ),
    ],
)
def test_lighter_weights_on_fewer_gpus_lead_in_the_budgets_period(capsys, text, lighter, plan):
    """INT4 on 1 A100 (fewer than the answer's 4) leads: ¥10,950 – ¥21,900 a month = ¥360 – ¥720 a day
    (× 24 / 730); the answer's 4 A100 ¥43,800 – ¥87,600 a month = ¥1,440 – ¥2,880 a day."""
    out = ask(capsys, text)
    assert lighter in out["reply"] and plan in out["reply"]


def test_a_month_budget_keeps_its_month(capsys):
    out = ask(capsys, "部署 Qwen2.5-72B，预算每月5万元，需要几张 A100？")
    assert (
        "在每月 ¥50,000 以内：" in out["reply"] and "这个方案的 4 张卡每月 ¥43,800 – ¥87,600" in out["reply"]
    )
