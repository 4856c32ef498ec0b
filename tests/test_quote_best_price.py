"""Issue 22 item 5 for training jobs, through the CLI: the quote's total is the best price (renting by the
month or a reserved term the job covers, when cheaper than by the GPU-hour), the reply marks the same
line, and the GPU-hours range under the total is at the best price of each end. Prices are those of
presales.example.toml: H800 ¥21 per GPU-hour, ¥12,800 per GPU-month, terms 1/3/12 months at −5/12/25%."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from bot.cli import main

EXAMPLE = Path(__file__).resolve().parent.parent / "presales.example.toml"
HOURLY, MONTHLY, TERMS = 21.0, 12_800.0, {1: 0.05, 3: 0.12, 12: 0.25}


def run(tmp_path: Path, capsys, question: str) -> tuple[str, str, dict]:
    """(the reply, the quote's text without spaces, the JSON offer) for one question."""
    out = tmp_path / "quote.pdf"
    assert main(["ask", "--presales", str(EXAMPLE), "--quote", str(out), question]) == 0
    reply = capsys.readouterr().out
    page = re.sub(r"[\s\u200b\x00]+", "", PdfReader(io.BytesIO(out.read_bytes())).pages[0].extract_text())
    assert main(["ask", "--presales", str(EXAMPLE), "--format", "json", question]) == 0
    return reply, page, json.loads(capsys.readouterr().out)


def best(on_demand: float, gpu_hours: float, gpus: int) -> float:
    """The cheapest way to pay for a job: by the GPU-hour, a term its days cover, or whole months."""
    days = gpu_hours / gpus / 24
    options = [on_demand, gpus * math.ceil(days / 30) * MONTHLY]
    options += [on_demand * (1 - d) for m, d in TERMS.items() if days >= 30 * m]
    return min(options)


def test_by_the_month_is_the_total_of_a_two_month_pretraining(tmp_path, capsys) -> None:
    reply, page, data = run(tmp_path, capsys, "7B模型1万亿token用32张H800要训多久")
    p, cost, band = data["offer"]["pricing"], data["report"]["cost"], data["report"]["gpu_hours"]
    assert p["gpus"] == 32 and p["subtotal_low"] == cost["low"] == cost["billed_gpu_hours"] * HOURLY
    assert p["best"] == "monthly" and p["best_months"] == 2 and p["total_likely"] == 32 * 2 * MONTHLY
    # figures from issue 25's refit (H100-class MFU 26 % → 28 %; ¥952,413, ¥667,746–¥1,344,346 before)
    assert p["total_likely"] < p["subtotal_low"]  # ¥819,200 < ¥884,394 by the GPU-hour
    assert p["total_low"] == best(cost["low_with_mfu"], band["low"], 32)  # 32,174 GPU-hours: −5% term
    assert p["total_high"] == best(cost["high_with_mfu"], band["high"], 32)  # 88 days: 3 months
    assert p["total_low"] < p["total_likely"] < p["total_high"]
    # the quote: one total, the best price, the way to pay it and the range under it
    assert "合计¥819,200包月：32张×2个月×¥12,800/卡·月=¥819,200卡·时区间内：¥641,891–¥1,228,800" in page
    assert "合计（区间）" not in page and "¥675,675–¥1,418,550" not in page
    # the reply marks the same price as the best
    assert "• 最省——包月：32 张 × 2 个月 × ¥12,800/卡·月 = ¥819,200" in reply


def test_a_reserved_term_is_the_total_when_it_beats_the_month(tmp_path, capsys) -> None:
    # 1.7T tokens (1.6T before issue 25's refit, which made that job 88 days: under the 3-month term)
    reply, page, data = run(tmp_path, capsys, "How long to pretrain a 7B model on 1.7T tokens with 32 H800s?")
    p, cost = data["offer"]["pricing"], data["report"]["cost"]
    assert 90 < p["days"] < 120  # four months by the month cost more than three months' term
    assert p["best"] == "term" and p["best_months"] == 3
    assert p["total_likely"] == p["discounts"][1]["total"]
    assert p["total_likely"] == pytest.approx(cost["low"] * (1 - 0.12), rel=1e-12)  # float product
    assert p["monthly"] is None  # 4 × 32 × ¥12,800 = ¥1,638,400 > ¥1,503,453 by the GPU-hour: not offered
    assert "By the month" not in reply and "Bythemonth" not in page
    assert "• Best price — 3-month term (−12% off the hourly price): CN¥1,323,039" in reply
    assert "TotalCN¥1,323,0393-monthterm(−12%offthehourlyprice):CN¥1,323,039OvertheGPU-hoursrange:" in page


def test_a_job_cheapest_by_the_hour_keeps_its_range(tmp_path, capsys) -> None:
    reply, page, data = run(tmp_path, capsys, "QLoRA微调Qwen2.5-72B，10亿token")
    p = data["offer"]["pricing"]
    # 406 billed GPU-hours (292 before s13 C3's QLoRA × 1.39; 315 before issue 25's refit)
    assert p["best"] == "on_demand" and p["total_likely"] == p["subtotal_low"] == 406 * HOURLY
    assert "最省——" not in reply and "包月" not in page
