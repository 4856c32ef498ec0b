"""Number parsing (bot.parse.numbers): Arabic, Chinese numerals, magnitude words, percentages, money."""

from __future__ import annotations

import math

import pytest

from bot.parse.numbers import parse_chinese_numeral, parse_money, parse_number, scan_numbers


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("七十亿", 7e9),
        ("三千亿", 3e11),
        ("两千", 2000),
        ("一万亿", 1e12),
        ("千亿", 1e11),
        ("十万亿", 1e13),
        ("一百万", 1e6),
        ("两", 2),
        ("十", 10),
        ("二十五", 25),
        ("一千零五", 1005),
        ("一亿五千万", 1.5e8),
        ("三千五百万", 3.5e7),
        ("万", 1e4),
        ("一点五万亿", 1.5e12),
        ("一千", 1000),
        ("一万", 1e4),
    ],
)
def test_chinese_numerals(text: str, value: float) -> None:
    assert parse_chinese_numeral(text) == pytest.approx(value)


def test_chinese_numeral_rejects_other_text() -> None:
    assert parse_chinese_numeral("模型") is None
    assert parse_chinese_numeral("") is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,000", 1000),
        ("1.5", 1.5),
        ("2e12", 2e12),
        ("1万亿", 1e12),
        ("1.5万亿", 1.5e12),
        ("3000亿", 3e11),
        ("2万", 2e4),
        ("2.5万", 2.5e4),
        ("172万", 1.72e6),
        ("7B", 7e9),
        ("7b", 7e9),
        ("7 billion", 7e9),
        ("1T", 1e12),
        ("1.5 trillion", 1.5e12),
        ("300B", 3e11),
        ("500M", 5e8),
        ("8k", 8e3),
        ("32K", 32e3),
        ("100k", 1e5),
        ("15.6T", 15.6e12),
        ("40%", 0.4),
        ("百分之四十", 0.4),
        ("$10k", 1e4),
        ("four", 4),
        ("a million", 1e6),
    ],
)
def test_parse_number(text: str, value: float) -> None:
    assert parse_number(text) == pytest.approx(value)


def test_parse_number_none_and_nonfinite() -> None:
    assert parse_number("NaN") is None
    assert parse_number("no digits here") is None
    assert parse_number("") is None


def test_scan_keeps_positions_and_magnitudes() -> None:
    toks = scan_numbers("train 70b on 2t with 512 a100s")
    assert [t.value for t in toks][:3] == [70e9, 2e12, 512]
    assert toks[0].mag == "b" and toks[0].mag_scale == "B"
    assert toks[1].mag_scale == "T"
    assert toks[2].mag is None


def test_scan_chinese_in_sentence() -> None:
    toks = scan_numbers("语料大概2万亿token，手上有256张h800")
    assert [t.value for t in toks] == [2e12, 256]
    assert toks[0].mag == "万亿"


def test_scan_glued_units_are_not_magnitudes() -> None:
    # "1tb" is bytes and "10 months" is time, neither is a trillion or a million.
    assert [t.mag for t in scan_numbers("1tb of text")] == [None]
    assert [t.mag for t in scan_numbers("10 months")] == [None]


def test_scan_negative_and_huge() -> None:
    assert scan_numbers("-7b")[0].value == -7e9
    assert scan_numbers("qwen2.5-7b")[-1].value > 0  # a hyphen inside a name is not a sign
    big = scan_numbers("1e308")[0].value
    assert math.isfinite(big)
    assert scan_numbers("1e400") == []  # overflows to inf: dropped


@pytest.mark.parametrize(
    ("text", "amount", "currency", "per_hour"),
    [
        ("¥15", 15, "CNY", False),
        ("100万人民币", 1e6, "CNY", False),
        ("50万元", 5e5, "CNY", False),
        ("500块钱", 500, "CNY", False),
        ("$2.50/hr", 2.5, "USD", True),
        ("$2 per GPU-hour", 2, "USD", True),
        ("US$10k", 1e4, "USD", False),
        ("15元/小时", 15, "CNY", True),
        ("15元每卡时", 15, "CNY", True),
    ],
)
def test_parse_money(text: str, amount: float, currency: str, per_hour: bool) -> None:
    money = parse_money(text)
    assert money is not None
    assert money.amount == pytest.approx(amount)
    assert money.currency == currency
    assert money.per_gpu_hour is per_hour
