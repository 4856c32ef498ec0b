"""Trial s17 #2: L4 and A10G had no rental price, so 'what does a month cost?' on them answered no cost.
Each now has a USD range from AWS's on-demand list (us-east-1, the instance price ÷ its GPUs: G6 for L4,
G5 for A10G), with its source; no CNY list is on file for either, so a CNY answer still says none."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog


@pytest.mark.parametrize(
    ("gpu", "low", "high", "instance"),
    [("L4", 0.8, 1.67, "g6.xlarge $0.8048"), ("A10G", 1.0, 2.04, "g5.xlarge $1.006")],
)
def test_price_range_from_the_aws_list(gpu, low, high, instance):
    entry = catalog.prices()[gpu]
    assert (entry.usd_low, entry.usd_high) == (low, high)
    assert entry.cny_low is None and instance in entry.source and entry.as_of


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def test_l4_month_is_priced(capsys):
    d = _ask(
        capsys,
        "We want Mistral-7B on L4 cards for 12 users at once, 8k context, 6 hours a day. Cost a month?",
    )
    inf = d["report"]["inference"]
    gpus = inf["serving_gpus"]
    hours = 730 * 6 / 24
    assert inf["cost_per_month"]["low"] == pytest.approx(gpus * hours * 0.8)
    assert inf["cost_per_month"]["high"] == pytest.approx(gpus * hours * 1.67)


def test_a10g_month_is_priced(capsys):
    d = _ask(capsys, "How much per month to serve Qwen2.5-7B on 2x A10G for 10 concurrent chats?")
    assert d["report"]["inference"]["cost_per_month"]["low"] == pytest.approx(2 * 730 * 1.0)
