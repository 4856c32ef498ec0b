"""Review findings left from session 14 (issue 23 items 2 and 5, issue 24), asserted through
``sizing-bot ask``: each with sentences of this file's own, in both languages.

MEDIUM 5. The fewest GPUs that fit pay full recomputation ((k + 2) / k of the compute): the estimator gives
          that count's GPU-hours and cost (its days-table row), so the headline's GPU-hours and the cost
          line bill the same hours (it read "66 A100-hours: one GPU" above "44 GPU-hours × price").
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main


def ask(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert main(["ask", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def text(capsys, *args: str) -> str:
    capsys.readouterr()
    assert main(["ask", *args]) == 0
    return capsys.readouterr().out


FEWEST_PAY = [
    "How long and how much to QLoRA Qwen2.5-72B on 30M tokens with 8k sequences?",
    "用 QLoRA 微调 Qwen2.5-72B，3000 万 token，序列长度 8k，要多久、多少钱？",
]


@pytest.mark.parametrize("question", FEWEST_PAY)
def test_the_headline_count_pays_its_own_gpu_hours_and_cost(capsys, question) -> None:
    out = ask(capsys, question)
    report = out["report"]
    (assumed,) = [a for a in out["assumptions"] if a["field"] == "recompute_time_fewest"]
    assert assumed["value"] == pytest.approx(1.5)  # QLoRA: k = 4, (4 + 2) / 4
    keep = assumed["params"]["keep_from"]
    n = report["gpus_for_deadline"]
    row = next(r for r in report["days_table"] if r["gpus"] == n)
    base = report["gpu_hours"]["likely"]
    assert row["gpu_hours"]["likely"] == pytest.approx(base * 1.5)
    assert row["likely"] == pytest.approx(row["gpu_hours"]["likely"] / n / 24)
    billed = row["cost"]["billed_gpu_hours"]
    assert billed == int(-(-base * 1.5 // 1))  # whole hours, never rounded down
    assert row["cost"]["low"] == pytest.approx(billed * report["cost"]["price_low"])
    assert report["cost"]["billed_gpu_hours"] < billed  # the count-free figure stays the calibrated rate
    kept = [r for r in report["days_table"] if r["gpus"] >= keep]
    assert all("gpu_hours" not in r for r in kept)  # these keep the activations
    assert all("gpu_hours" in r for r in report["days_table"] if r["gpus"] < keep)
    reply = text(capsys, question)
    lines = reply.splitlines()
    cost = next(x for x in lines if ("Cost" in x or "费用" in x) and "×" in x)
    assert f"（{billed} 卡·时 ×" in cost or f"({billed} GPU-hours ×" in cost
    assert f"≈ {billed} A100" in lines[0]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("and with 8B, how many do we need?", True),
        ("那换成 H100 要几张卡？", True),
        ("what about 8 H100?", False),
        ("那 8 张 H100 呢", False),
    ],
)
def test_the_count_cue_rides_on_the_parse(question: str, asks: bool) -> None:
    """MEDIUM 6: 'how many do I need' without the noun is read by the parser (``count_cue``), not by
    core's follow-up from the text."""
    from bot.parse import parse

    assert parse(question).count_cue is asks
