"""Session 36 (s36-sprender): the render's and the estimate's frames written in place give the same texts.

Every corpus, working-split, paraphrase and field-case answer is byte-identical in json, text, html and
Markdown to main 3681b8c0 (``bench/answers_dump.py same``, bench/RESULTS.md); these pin the rewritten
paths on values worked by hand: CLDR's half-even rounding (the float tie test written out in Fmt.num),
the StrEnum values (``str()``, not ``.value``), the list separator per language, the GPUs ↔ days table's
band ends, and the calendar line gated on a stated daily schedule."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.fmt import Fmt, fmt_for
from bot.render.plan_text import plan_layout
from bot.render.renderer import render
from bot.render.sections import _days_rows
from estimator.models import Band, Currency, Precision

PRETRAIN = "Pre-train a 7B model on 1T tokens on 64 A100s: how many days?"


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (0.125, 2, "0.12"),  # an exact tie: half-even keeps the even 2
        (0.135, 2, "0.14"),  # repr's tie (the float is 0.13500000000000000888…): the decimal text rounds
        (2.5, 0, "2"),
        (3.5, 0, "4"),
        (1.25, 1, "1.2"),
        (1234.5678, 2, "1,234.57"),
        (1e-7, 2, "0"),  # an exponent repr: the Decimal steps, never "0.00"
        (7.0, 1, "7"),
    ],
)
def test_num_rounds_half_even_as_cldr(x: float, digits: int, text: str) -> None:
    assert fmt_for("en").num(x, digits) == text


def test_token_counts_are_the_compact_form() -> None:
    assert Fmt.tokens is Fmt.compact
    assert fmt_for("en").tokens(1e12) == "1T"
    assert fmt_for("zh").tokens(1e12) == "1万亿"


def test_str_enums_are_their_values() -> None:
    """``str()`` of a StrEnum member is its value in C (the rewritten ``.value`` reads)."""
    assert [str(c) for c in Currency] == [c.value for c in Currency]
    assert str(Precision.fp8) == "fp8" and f"{Currency.USD!s}" == "USD"


def test_the_price_assumption_and_the_lighter_weights_name_plain_values() -> None:
    report = answer(PRETRAIN).report
    prices = [a.value for a in report.assumptions if a.field == "price_per_gpu_hour"]
    assert prices == ["1.2–2.5 USD"]  # estimator/data price list, A100 80GB on-demand range
    inf = answer("Serve Llama-3-70B on A100 80GB for 100 users at 8k context").report.inference
    assert inf.weight_format == "bf16"
    assert [a.change for a in inf.alternatives] == ["fp8", "int4"]


def test_a_layout_joins_its_parts_with_the_languages_separator() -> None:
    plan = answer(PRETRAIN).report.memory.plan
    assert plan_layout(plan, "en") == "TP 1 × PP 1 × DP 64, ZeRO-1, selective recompute"
    assert plan_layout(plan, "zh") == "TP 1 × PP 1 × DP 64，ZeRO-1，选择性重计算"


def test_a_days_row_without_a_band_words_no_ends() -> None:
    report = answer(PRETRAIN).report
    f = fmt_for("en")
    banded = _days_rows(report, f)[0]
    assert (banded["gpus"].strip(), banded["band"]) == ("64", True)
    assert (banded["days"].strip(), banded["lo"], banded["hi"]) == ("61", "46", "98")
    flat = report.model_copy(
        update={
            "days_table": [
                r.model_copy(update={"days": Band(low=7.0, likely=7.0, high=7.0)}) for r in report.days_table
            ]
        }
    )
    row = _days_rows(flat, f)[0]
    assert (row["days"].strip(), row["band"], row["lo"], row["hi"]) == ("7", False, "", "")
    assert "64 GPUs → 7 days" in render(answer(PRETRAIN).model_copy(update={"report": flat}), "text")


def test_the_calendar_line_needs_a_stated_daily_schedule() -> None:
    said = render(answer(PRETRAIN.replace(": how", ", running 8 hours a day: how")), "text")
    assert "At 8 hours a day: ≈ 183 calendar days (61 days of round-the-clock running × 24 ÷ 8)" in said
    assert "calendar days" not in render(answer(PRETRAIN), "text")
