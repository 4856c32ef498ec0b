"""Issue 22 item 3: a fresh ``pip install .`` draws Chinese quotes and charts with no system font — the
Noto Sans CJK of the ``noto-cjk-sans-otc`` dependency — while an installed system font stays preferred;
and every exit code ``sizing-bot ask`` can return, as the README's Command line section lists them."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

import bot.quote.fonts as quote_fonts
import bot.render.chart as chart
from bot.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "presales.example.toml"
WALKTHROUGH = "Qwen2.5-72B 推理部署，200 并发，8K 上下文，要多少卡？每月多少钱？"


def _clear_font_caches() -> None:
    from matplotlib import font_manager

    for fn in (chart.font_manager_fresh, chart.find_cjk_font, chart._has_bold, quote_fonts.cjk_font):
        fn.cache_clear()
    font_manager.fontManager._findfont_cached.cache_clear()


@pytest.fixture
def system_fonts(monkeypatch):
    """Hide every system font: matplotlib's font list keeps only its own bundled fonts (DejaVu), its
    system scan (fontconfig's directories) finds nothing, no SIZING_BOT_CJK_FONT. Returns a list the
    test may fill with font files to show as installed."""
    import matplotlib
    from matplotlib import font_manager

    manager = font_manager.fontManager
    bundled = os.path.realpath(matplotlib.get_data_path())
    original = manager.ttflist
    shown: list[str] = []
    manager.ttflist = [f for f in original if os.path.realpath(f.fname).startswith(bundled)]
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda *a, **k: list(shown))
    monkeypatch.setattr(font_manager, "json_dump", lambda *a, **k: None)  # never write the real cache
    monkeypatch.delenv("SIZING_BOT_CJK_FONT", raising=False)
    _clear_font_caches()
    yield shown
    manager.ttflist = original
    _clear_font_caches()


def test_chinese_quote_and_chart_without_a_system_font(system_fonts, tmp_path, capsys) -> None:
    assert chart.find_cjk_font() == "Noto Sans CJK SC"  # the packaged font, nothing installed
    out, png = tmp_path / "quote.pdf", tmp_path / "chart.png"
    code = main(["ask", "--presales", str(EXAMPLE), "--quote", str(out), "--chart", str(png), WALKTHROUGH])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "no font" not in captured.err and "English labels" not in captured.err
    reader = PdfReader(io.BytesIO(out.read_bytes()))
    text = re.sub(r"[\s\u200b\x00]+", "", reader.pages[0].extract_text())  # NULs: see test_quote.flat
    for needle in ("报价单", "您的问题", re.sub(r"\s+", "", WALKTHROUGH), "张H800"):
        assert needle in text, needle
    names = [str(f.get_object()["/BaseFont"]) for f in reader.pages[0]["/Resources"]["/Font"].values()]
    assert any(re.match(r"/[A-Z]{6}\+NotoSansCJKSC", n) for n in names), names  # embedded as a subset
    assert chart.chart_lang("zh") == "zh" and png.read_bytes().startswith(b"\x89PNG")


def _tiny_cjk_font(path: Path, family: str) -> None:
    """A TrueType font named ``family`` with one Chinese glyph (中), as a system font would be."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def box():
        pen = TTGlyphPen(None)
        pen.moveTo((100, 0)), pen.lineTo((100, 800)), pen.lineTo((900, 800)), pen.lineTo((900, 0))
        pen.closePath()
        return pen.glyph()

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "zhong"])
    fb.setupCharacterMap({0x4E2D: "zhong"})
    fb.setupGlyf({".notdef": box(), "zhong": box()})
    fb.setupHorizontalMetrics({".notdef": (1000, 100), "zhong": (1000, 100)})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    fb.save(str(path))


def test_an_installed_system_font_stays_preferred(system_fonts, tmp_path) -> None:
    font = tmp_path / "wqy-microhei.ttf"
    _tiny_cjk_font(font, "WenQuanYi Micro Hei")
    system_fonts.append(str(font))
    assert chart.find_cjk_font() == "WenQuanYi Micro Hei"
    found = quote_fonts.cjk_font()
    assert found is not None and found.family == "WenQuanYi Micro Hei" and found.path == str(font)


def test_the_override_still_wins(system_fonts, tmp_path, monkeypatch) -> None:
    font = tmp_path / "mine.ttf"
    _tiny_cjk_font(font, "My Hei")
    monkeypatch.setenv("SIZING_BOT_CJK_FONT", str(font))
    found = quote_fonts.cjk_font()
    assert found is not None and found.family == "My Hei"
