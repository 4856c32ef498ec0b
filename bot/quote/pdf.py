"""The quote on one A4 page, drawn with fpdf2 (LGPL-3.0; https://py-pdf.github.io/fpdf2/).

Fonts are embedded as subsets (only the glyphs on the page): DejaVu Sans for Latin text, the CJK font
of :mod:`bot.quote.fonts` for Chinese (fpdf2's fallback fonts pick it per character). Sizes are chosen
for a phone that shows the whole page width (figures 12 pt, the total 21 pt).
"""

from __future__ import annotations

import datetime as dt
import re

from fpdf import FPDF
from fpdf.enums import WrapMode, XPos, YPos

from bot.quote import QuoteError
from bot.quote.content import QuoteContent
from bot.quote.fonts import FontFile, add_parsed_font, cjk_font, latin_font

MARGIN_MM = 16
INK = (33, 37, 41)
MUTED = (108, 117, 125)
ACCENT = (31, 95, 168)
RULE = (206, 212, 218)
BAND = (241, 245, 250)

_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")


def needs_cjk(content: QuoteContent) -> bool:
    texts = [content.question, content.answer, content.provider, content.note or "", content.contact or ""]
    texts += [v for row in content.rows for v in row] + content.assumptions
    return content.lang == "zh" or any(_CJK.search(t) for t in texts)


class _Page(FPDF):
    def __init__(self, cjk: FontFile | None, k: float = 1.0, lang: str = "en") -> None:
        super().__init__(orientation="portrait", unit="mm", format="A4")
        self.k_scale = k
        self.set_margins(MARGIN_MM, MARGIN_MM, MARGIN_MM)
        self.set_auto_page_break(auto=False)
        add_parsed_font(self, "body", "", latin_font())
        add_parsed_font(self, "body", "B", latin_font(bold=True))
        fallbacks = []
        if cjk is not None:
            add_parsed_font(self, "cjk", "", cjk)  # no bold face
            fallbacks = ["cjk"]
        self.set_fallback_fonts(fallbacks, exact_match=False)
        self.lang = lang

    def label_style(self, label: str) -> str:
        """Row labels in bold in English; in Chinese none is (Chinese has no bold face here)."""
        return "" if self.lang == "zh" else style(label, True)

    def text_block(
        self,
        w: float,
        h: float,
        text: str,
        *,
        size: float,
        bold: bool = False,
        color: tuple[int, int, int] = INK,
        align: str = "L",
        fill: bool = False,
    ) -> None:
        self.set_font("body", style(text, bold), size * self.k_scale)
        self.set_text_color(*color)
        text = laid_out(self, w, h * self.k_scale, text)
        self.multi_cell(w, h * self.k_scale, text, align=align, fill=fill, wrapmode=wrap(text),
                        new_x=XPos.LMARGIN, new_y=YPos.NEXT)  # fmt: skip


def wrap(text: str) -> WrapMode:
    """Lines break between words: :func:`breakable` makes every boundary at a Chinese character one."""
    return WrapMode.WORD


NO_BREAK_BEFORE = set("，。、；：！？）》」』”’,.;:!?)%")
NO_BREAK_AFTER = set("（《「『“‘(¥$")
ZWSP = "\u200b"


def breakable(text: str) -> str:
    """``text`` with a zero-width space at each place a Chinese line may break — next to a Chinese
    character, never before closing or after opening punctuation — so Latin words and numbers stay
    whole ("Llama", "¥1,022,910") while Chinese wraps anywhere, as it should (CJK line breaking,
    UAX #14, simplified)."""
    if not _CJK.search(text):
        return text
    out = []
    for here, nxt in zip(text, text[1:] + " ", strict=True):
        out.append(here)
        if (
            (_CJK.match(here) or _CJK.match(nxt))
            and not here.isspace()
            and not nxt.isspace()
            and nxt not in NO_BREAK_BEFORE
            and here not in NO_BREAK_AFTER
        ):
            out.append(ZWSP)
    return "".join(out).rstrip(ZWSP)


def laid_out(pdf: FPDF, w: float, h: float, text: str) -> str:
    """``text`` broken into the lines fpdf2 lays out at :func:`breakable`'s break points (the current font,
    width ``w`` mm), joined by newlines with the zero-width spaces dropped: the PDF's text layer then holds
    no U+200B between Chinese characters (s41 trial #14: 264 in one quote, '销 U+200B 售'); the same lines."""
    if not _CJK.search(text):
        return text
    lines = pdf.multi_cell(w, h, breakable(text), wrapmode=WrapMode.WORD, dry_run=True, output="LINES")
    return "\n".join(line.replace(ZWSP, "") for line in lines)


def style(text: str, bold: bool) -> str:
    """Bold only for text without Chinese: the CJK fonts have no bold face, and half-bold lines (bold
    digits among regular characters) read worse than none."""
    return "B" if bold and not _CJK.search(text) else ""


SCALES = (1.0, 0.92, 0.84, 0.76)
"""Type scales tried in turn until the quote fits on one page (a long question, many terms)."""


def draw(content: QuoteContent, today: dt.date | None = None) -> bytes:
    """The PDF bytes of one quote page."""
    cjk = cjk_font()
    if cjk is None and needs_cjk(content):
        raise QuoteError(
            "no font with Chinese glyphs is installed (e.g. apt-get install fonts-wqy-microhei, or set "
            "SIZING_BOT_CJK_FONT to a .ttf/.ttc file)"
        )
    for k in SCALES:
        pdf = _layout(content, cjk, k, today)
        if pdf is not None:
            return bytes(pdf.output())
    raise QuoteError("the quote does not fit on one page")


def _layout(content: QuoteContent, cjk: FontFile | None, k: float, today: dt.date | None) -> FPDF | None:
    """The page at type scale ``k``, or None when it runs past the page."""
    pdf = _Page(cjk, k, content.lang)
    day = today or dt.date.fromisoformat(content.date)
    pdf.set_creation_date(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC))
    pdf.set_title(f"{content.title} {content.number} — {content.provider}")
    pdf.set_author(content.provider)
    pdf.set_creator("sizing-bot")
    pdf.add_page()
    for part in (_header, _question, _figures, _total, _assumptions, _foot):
        part(pdf, content, pdf.epw, k)
    if pdf.page_no() > 1 or pdf.get_y() > pdf.h - MARGIN_MM / 2:
        return None
    return pdf


def _sep(content: QuoteContent) -> str:
    return "：" if content.lang == "zh" else ": "


def _header(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """Provider on the left, the quote's title, number and dates on the right, a rule below."""
    top = pdf.get_y()
    pdf.set_xy(MARGIN_MM, top)
    pdf.text_block(width * 0.6, 9, content.provider, size=18, bold=True, color=ACCENT)
    for line in (content.website, content.contact):
        if line:
            pdf.text_block(width * 0.6, 5.2, line, size=9.5, color=MUTED)
    left_bottom = pdf.get_y()
    pdf.set_xy(MARGIN_MM + width * 0.6, top)
    pdf.set_font("body", style(content.title, True), 18)
    pdf.set_text_color(*INK)
    pdf.cell(width * 0.4, 9, content.title, align="R", new_x=XPos.LEFT, new_y=YPos.NEXT)
    labels, sep = content.labels, _sep(content)
    for key, value in (("number", content.number), ("date", content.date), ("valid", content.valid_until)):
        pdf.set_x(MARGIN_MM + width * 0.6)
        pdf.set_font("body", "", 9.5)
        pdf.set_text_color(*MUTED)
        pdf.cell(width * 0.4, 5.2, f"{labels[key]}{sep}{value}", align="R", new_x=XPos.LEFT, new_y=YPos.NEXT)
    pdf.set_y(max(left_bottom, pdf.get_y()) + 3)
    _rule(pdf)


def _question(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """The customer's question and the answer's headline."""
    labels = content.labels
    pdf.ln(3 * k)
    pdf.text_block(width, 6, labels["question"], size=10.5, bold=True, color=MUTED)
    pdf.text_block(width, 7, content.question, size=12.5)
    pdf.ln(2 * k)
    pdf.text_block(width, 6, labels["answer"], size=10.5, bold=True, color=MUTED)
    pdf.text_block(width, 7, content.answer, size=12.5, bold=True)
    pdf.ln(4 * k)


def _figures(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """The figures: label | value, one row each."""
    label_w = width * 0.3
    for i, (label, value) in enumerate(content.rows):
        _row(pdf, label, value, label_w, width - label_w, shaded=i % 2 == 0)
    pdf.ln(2 * k)


def _total(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """The total, between an accent line and a rule."""
    pdf.set_fill_color(*BAND)
    y = pdf.get_y()
    pdf.set_draw_color(*ACCENT)
    pdf.set_line_width(0.6)
    pdf.line(MARGIN_MM, y, MARGIN_MM + width, y)
    pdf.ln(1.5 * k)
    pdf.text_block(width, 6.5, content.total_label, size=11.5, bold=True, color=MUTED)
    first, _, rest = content.total.partition("\n")
    pdf.text_block(width, 11, first, size=21, bold=True, color=ACCENT)
    if rest:
        pdf.text_block(width, 6.5, rest, size=12, color=INK)
    pdf.ln(3 * k)
    _rule(pdf)


def _assumptions(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """Key assumptions and the method."""
    labels = content.labels
    pdf.ln(3 * k)
    pdf.text_block(width, 6, labels["assumptions"], size=10.5, bold=True, color=MUTED)
    for line in content.assumptions:
        pdf.text_block(width, 5.2, f"• {line}", size=9.5)
    pdf.ln(2 * k)
    pdf.text_block(width, 6, labels["method"], size=10.5, bold=True, color=MUTED)
    pdf.text_block(width, 5.2, content.method, size=9.5)


def _foot(pdf: _Page, content: QuoteContent, width: float, k: float) -> None:
    """Foot of the page: the provider's note, the disclaimer, the contact (never over the content)."""
    foot = [t for t in (content.note, content.footer) if t]
    bottom = pdf.get_y()
    foot_h = 2 + sum(_height(pdf, width, t, 9, 4.8) for t in foot) + (5.5 * k if content.contact else 0)
    pdf.set_y(max(pdf.h - MARGIN_MM - foot_h, bottom + 4))  # never over the content
    _rule(pdf)
    pdf.ln(1.5 * k)
    for text in foot:
        pdf.text_block(width, 4.8, text, size=9, color=MUTED)
    if content.contact:
        pdf.text_block(
            width, 5.5, f"{content.labels['contact']}{_sep(content)}{content.contact}", size=10, bold=True
        )


def _height(pdf: _Page, width: float, text: str, size: float, line_h: float) -> float:
    k = pdf.k_scale
    text = breakable(text)
    pdf.set_font("body", "", size * k)
    lines = pdf.multi_cell(width, line_h * k, text, wrapmode=wrap(text), dry_run=True, output="LINES")
    return len(lines) * line_h * k


def _rule(pdf: FPDF) -> None:
    y = pdf.get_y()
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.3)
    pdf.line(MARGIN_MM, y, pdf.w - MARGIN_MM, y)


def _row(pdf: _Page, label: str, value: str, label_w: float, value_w: float, *, shaded: bool) -> None:
    """One line of the figures: the label in a fixed column, the value wrapped beside it."""
    k = pdf.k_scale
    line_h = 6.8 * k
    x, y = MARGIN_MM, pdf.get_y()
    pdf.set_font("body", "", 12 * k)
    lines = pdf.multi_cell(
        value_w - 3, line_h, breakable(value), wrapmode=wrap(value), dry_run=True, output="LINES"
    )
    pdf.set_font("body", pdf.label_style(label), 11 * k)
    label_lines = pdf.multi_cell(
        label_w - 3, line_h, breakable(label), wrapmode=wrap(label), dry_run=True, output="LINES"
    )
    height = max(len(lines), len(label_lines), 1) * line_h + 2 * k
    if shaded:
        pdf.set_fill_color(*BAND)
        pdf.rect(x, y, label_w + value_w, height, style="F")
    pdf.set_xy(x + 2, y + k)
    pdf.set_font("body", pdf.label_style(label), 11 * k)
    pdf.set_text_color(*MUTED)
    pdf.multi_cell(
        label_w - 3, line_h, laid_out(pdf, label_w - 3, line_h, label), align="L", wrapmode=wrap(label)
    )
    pdf.set_xy(x + label_w, y + k)
    pdf.set_font("body", "", 12 * k)
    pdf.set_text_color(*INK)
    pdf.multi_cell(
        value_w - 3, line_h, laid_out(pdf, value_w - 3, line_h, value), align="L", wrapmode=wrap(value)
    )
    pdf.set_xy(x, y + height)
