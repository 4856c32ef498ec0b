"""Issue 23 item 7: fonts are parsed once per process for PDF quotes (a warm quote spent 71 % of its
time re-parsing font files), and the PDF bytes are exactly those of a quote parsed afresh."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from fpdf.fonts import TTFFont

import bot.quote.fonts as fonts
from bot.core.pipeline import Context, answer
from bot.quote import quote_pdf
from bot.settings.presales import load_presales

EXAMPLE = Path(__file__).resolve().parents[1] / "presales.example.toml"
DAY = dt.date(2025, 6, 2)
QUESTIONS = ("7B模型1万亿token要多少卡", "How many GPUs to serve Llama 3 70B for 200 concurrent users?")


def _quotes() -> list[bytes]:
    presales = load_presales(EXAMPLE)
    return [quote_pdf(answer(q, Context(), None, presales), q, today=DAY) for q in QUESTIONS]


def test_a_quote_with_cached_fonts_is_byte_identical_and_parses_no_font_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fonts._parsed.cache_clear()
    monkeypatch.setattr(fonts, "_parsed", lambda *a: None)  # every document parses its fonts (before)
    fresh = _quotes()
    monkeypatch.undo()
    parsed: list[str] = []
    real_init = TTFFont.__init__

    def counting(self: TTFFont, *args: object, **kwargs: object) -> None:
        parsed.append(str(args[1]))
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(TTFFont, "__init__", counting)
    fonts._parsed.cache_clear()
    first = _quotes()
    after_first = len(parsed)
    again = _quotes() + _quotes()
    assert first == fresh and again == fresh * 2  # same bytes, Chinese and English quotes
    assert after_first == len(set(parsed)) and len(parsed) == after_first  # each font file parsed once
    assert 2 <= after_first <= 3  # DejaVu Sans regular and bold (+ the CJK font when one is installed)
