"""Issue 22 item 7: the price per million tokens is at the load the GPUs hold when the user states
none (not at the 16 sequences assumed for the speed figures), the load is named in the line that gives
the price, and a stated load is the one priced. Expected figures are rebuilt from the estimator's
formulas (decode roofline, :func:`estimator.inference.decode_speed`; price per token =
GPUs × price per GPU-hour / tokens per hour) and the price catalog — not copied from a reply."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.inference import decode_speed
from estimator.ledger import Ledger, price_range
from estimator.models import Currency, SizingRequest


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _expected_per_million(inf: dict, model: str, gpu_id: str, currency: Currency, batch: int) -> tuple:
    """(low, high) per million output tokens for ``batch`` sequences on the answer's layout."""
    spec, gpu = catalog.model(model), catalog.gpu(gpu_id)
    params = spec.params_total
    speed = decode_speed(
        spec, params, spec.params_active or params, gpu, inf["tp"], inf["bytes_per_param"],
        inf["kv_bytes_per_sequence"], batch, comm=True,  # issue 25 item 3: the TP all-reduce
    )  # fmt: skip
    low, high, _, _ = price_range(SizingRequest(currency=currency), gpu, Ledger())
    per_hour = speed.aggregate * 3600.0
    return inf["serving_gpus"] * low / per_hour * 1e6, inf["serving_gpus"] * high / per_hour * 1e6


@pytest.mark.parametrize(
    ("question", "currency"),
    [
        ("What does it cost per million tokens to serve Qwen2.5-72B on H100?", Currency.USD),
        ("用H100部署Qwen2.5-72B，每百万token多少钱？", Currency.CNY),
    ],
)
def test_price_per_token_is_at_the_load_the_gpus_hold(capsys, question, currency):
    d = ask(capsys, question)
    inf = d["report"]["inference"]
    gpu_id = d["request"]["gpu"]
    assert inf["replicas"] == 1 and inf["concurrency"] == 16  # the speed figures keep the assumed 16
    assert inf["max_concurrency"] > inf["concurrency"]  # 4 × H100 hold many more than 16
    assert inf["priced_concurrency"] == inf["max_concurrency"]
    low, high = _expected_per_million(inf, "Qwen2.5-72B", gpu_id, currency, inf["max_concurrency"])
    cpm = inf["cost_per_million_tokens"]
    assert cpm["low"] == pytest.approx(low, rel=1e-9) and cpm["high"] == pytest.approx(high, rel=1e-9)
    at_16 = _expected_per_million(inf, "Qwen2.5-72B", gpu_id, currency, 16)
    assert at_16[0] > 3 * low  # what the reply used to quote: several times too high
    # the headline (line 1, issue 22 item 10) gives the price and the load it is at
    line = d["reply"].splitlines()[0]
    assert str(inf["max_concurrency"]) in line
    assert ("the most these GPUs hold" if currency == Currency.USD else "最多能容纳") in line
    text = ask(capsys, question, "text")
    assert text.splitlines()[0] == line


@pytest.mark.parametrize(
    ("question", "currency"),
    [
        ("What does it cost per million tokens to serve Qwen2.5-72B on 4 H100 with 40 concurrent users?",
         Currency.USD),
        ("4张H100部署Qwen2.5-72B，40并发，每百万token多少钱？", Currency.CNY),
    ],
)  # fmt: skip
def test_a_stated_load_is_the_one_priced(capsys, question, currency):
    d = ask(capsys, question)
    inf = d["report"]["inference"]
    assert inf["concurrency"] == 40 and inf["priced_concurrency"] == 40
    low, high = _expected_per_million(inf, "Qwen2.5-72B", d["request"]["gpu"], currency, 40)
    cpm = inf["cost_per_million_tokens"]
    assert cpm["low"] == pytest.approx(low, rel=1e-9) and cpm["high"] == pytest.approx(high, rel=1e-9)
    line = d["reply"].splitlines()[0]
    assert "40" in line and ("concurrent" in line or "并发" in line)
    assert "the most these GPUs hold" not in line and "最多能容纳" not in line


def test_comparison_rows_name_the_load_of_their_price(capsys):
    text = ask(capsys, "serve Qwen2.5-72B on H100 vs A100, cost per million tokens", "text")
    rows = [line for line in text.splitlines() if line.startswith("• ") and "per million" in line]
    assert len(rows) == 2
    assert all("(16 concurrent)" in r and "the most they hold" in r for r in rows)
