"""Charts: one PNG per kind of answer, in both languages, the CLI's --chart, the no-CJK-font fallback."""

from __future__ import annotations

import io
import logging
import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")
Image = pytest.importorskip("PIL.Image")

from bot.cli import main  # noqa: E402
from bot.core.pipeline import answer  # noqa: E402
from bot.render import chart  # noqa: E402

QUESTIONS = {
    ("training", "zh"): "7B模型1万亿token要多少A100",
    ("training", "en"): "How many A100s to train a 7B model on 1T tokens in 30 days?",
    ("fitting", "zh"): "全参微调7B要几张A100",
    ("fitting", "en"): "How many A100s to fully fine-tune a 7B model?",
    ("serving", "zh"): "部署70B推理需要几张A100",
    ("serving", "en"): "How many A100s to serve a 70B model?",
}
SIZE = (1000, 700)


def _open(png: bytes):
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize(("kind", "lang"), sorted(QUESTIONS))
def test_chart_for_each_kind_and_language(kind, lang):
    result = answer(QUESTIONS[kind, lang])
    assert result.lang == lang
    assert chart.chart_kind(result.report) == kind
    png = chart.render_chart(result)
    assert png and png.startswith(b"\x89PNG")
    img = _open(png)
    assert img.format == "PNG"
    assert img.size == SIZE
    # not a blank canvas: a chart has many colours
    assert len(img.convert("RGB").getcolors(maxcolors=1_000_000) or []) > 50


def test_not_understood_has_no_chart():
    result = answer("hello there")
    assert not result.understood
    assert chart.render_chart(result) is None


def test_zh_labels_need_a_cjk_font(monkeypatch, caplog):
    """Without a CJK font a Chinese chart is drawn with English labels: no error, no tofu."""
    monkeypatch.setattr(chart, "find_cjk_font", lambda: None)
    chart._warn_no_cjk_font.cache_clear()
    assert chart.chart_lang("zh") == "en"
    with caplog.at_level(logging.WARNING, logger="bot.render.chart"):
        png = chart.render_chart(answer(QUESTIONS["training", "zh"]))
        chart.render_chart(answer(QUESTIONS["serving", "zh"]))
    assert png is not None
    assert _open(png).size == SIZE
    warnings = [r for r in caplog.records if "Chinese" in r.getMessage()]
    assert len(warnings) == 1  # logged once, not per chart
    chart._warn_no_cjk_font.cache_clear()


def test_lang_override_and_labels_cover_both_languages():
    from bot.render.chart_labels import CHART_LABELS
    from bot.render.i18n import translations

    zh = translations("zh").gettext  # every label has a Chinese catalog entry (most differ from English)
    assert sum(zh(m) != m for m in CHART_LABELS.values()) >= 0.9 * len(CHART_LABELS)
    png = chart.render_chart(answer(QUESTIONS["fitting", "zh"]), lang="en")
    assert png is not None and _open(png).size == SIZE


def test_zh_draws_with_the_cjk_font_when_installed():
    if chart.find_cjk_font() is None:
        pytest.skip("no CJK font installed here (charts fall back to English)")
    assert chart.chart_lang("zh") == "zh"
    assert chart._families("zh")[-1] == chart.find_cjk_font()


def test_cli_writes_the_chart(tmp_path, capsys):
    out = tmp_path / "out.png"
    code = main(["ask", "--chart", str(out), QUESTIONS["training", "zh"]])
    assert code == 0
    assert "A100" in capsys.readouterr().out  # the reply is still printed
    assert _open(out.read_bytes()).size == SIZE


def test_cli_nothing_to_chart_is_a_note(tmp_path, capsys):
    out = tmp_path / "out.png"
    code = main(["ask", "--chart", str(out), "hello there"])
    assert code == 2  # the normal "not understood" code
    assert not out.exists()
    assert "nothing to chart" in capsys.readouterr().err


def test_cli_without_chart_does_not_import_matplotlib():
    code = (
        "import sys; from bot.cli import main; main(['ask', '7B模型1万亿token要多少A100']); "
        "sys.exit(3 if 'matplotlib' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
