"""A price per hour is a price per GPU-hour, never a 1-hour run ('H100 租金 12块一小时'), and a stated run
time the cards cannot meet is refused with the MFU it needs, never printed as a fact (fresh-user trial,
session 9)."""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process, ask_quietly

PRETRAIN = "7B 预训练 2T token"


@pytest.mark.parametrize(
    "question",
    [
        f"H100 租金 12块一小时，24张，{PRETRAIN} 多少钱",
        f"H100 一小时12块，24张，{PRETRAIN} 要多少钱",
        f"H100 12元每小时，24张，{PRETRAIN} 多少钱",
        f"H100 12块/小时，24张，{PRETRAIN} 多少钱",
        f"H100 每卡时 12 元，24张，{PRETRAIN} 多少钱",
    ],
)
def test_cny_per_hour_is_a_price_per_gpu_hour(capsys: pytest.CaptureFixture[str], question: str) -> None:
    data = ask_in_process(capsys, question)
    req, report = data["request"], data["report"]
    assert req["price_per_gpu_hour"] == 12.0 and req["currency"] == "CNY"
    assert req["gpu_count"] == 24 and req["hours"] is None
    # 6 · 7e9 · 2e12 = 8.4e22 FLOPs at the calibrated H100 MFU: 84,227 GPU-hours, 146 days on 24
    assert report["cost"]["billed_gpu_hours"] == 84227 and report["cost"]["low"] == 1010724.0
    assert round(report["days"]["likely"]) == 146


def test_an_hour_before_the_price_leaves_the_count_alone(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, f"H100 一小时12块，{PRETRAIN} 要多少钱")
    assert data["request"]["price_per_gpu_hour"] == 12.0
    assert data["request"]["gpu_count"] != 12 and data["request"]["hours"] is None
    assert data["report"]["cost"]["low"] == 1010724.0


def test_dollars_an_hour_is_a_price(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "H100 at $2 an hour, 24 of them, pretrain 7B on 2T tokens, cost?")
    assert data["request"]["price_per_gpu_hour"] == 2.0 and data["request"]["hours"] is None
    assert data["report"]["cost"]["low"] == 168454.0


def test_cards_counted_in_kuai_still_run_for_an_hour(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "8块A100 跑了2小时，7B 微调 100M token")
    assert data["request"]["gpu_count"] == 8 and data["request"]["hours"] == 2.0


def test_an_impossible_run_time_is_refused_zh(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, f"H100，24张，跑了1小时，{PRETRAIN} 多少钱")
    assert data["request"]["hours"] is None  # refused, not used
    assert round(data["report"]["days"]["likely"]) == 146
    codes = {n["code"]: n["params"] for n in data["report"]["warnings"]}
    assert codes["duration_impossible"] == {"gpu_count": 24, "hours": 1.0, "mfu": 982.6382}
    assert "implied_mfu" not in codes
    text = ask_quietly(f"H100，24张，跑了1小时，{PRETRAIN} 多少钱")
    assert "24 张卡 1 小时内做不完：那需要 MFU 98,263.8%" in text
    assert "约 1 小时" not in text and "（MFU 98,263.8%）" not in text


def test_an_impossible_run_time_is_refused_en() -> None:
    text = ask_quietly("we ran a 7B pretrain on 2T tokens on 24 H100 for 1 hour, what did it cost")
    assert "cannot be done in 1 hour on 24 GPUs: it needs an MFU of 98,263.8%" in text
    assert "≈ 146 days" in text


def test_a_possible_run_time_is_still_used(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask_in_process(capsys, "8块A100 跑了36小时，7B 微调 100M token")
    assert data["request"]["hours"] == 36.0
    codes = {n["code"] for n in data["report"]["warnings"]}
    assert "implied_mfu" in codes and "duration_impossible" not in codes
