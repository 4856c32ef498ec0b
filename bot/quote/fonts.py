"""Fonts for the PDF quote: Latin text in DejaVu Sans (shipped inside matplotlib, a dependency), Chinese
in a CJK font with a free licence. Only the glyphs used are embedded (a subset).

The CJK font is looked up once per process: ``SIZING_BOT_CJK_FONT`` (a .ttf/.ttc/.otf path), else
the first installed family of :data:`CJK_FAMILIES` — TrueType-outline families first — found by
matplotlib's font manager (which reads fontconfig's directories), else Noto Sans CJK SC from the
``noto-cjk-sans-otc`` dependency (SIL OFL 1.1; :mod:`bot.render.cjk_font`). The Docker image installs
WenQuanYi Micro Hei (``fonts-wqy-microhei``: Apache-2.0 or GPL-3 with the font embedding exception).
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.render.cjk_font import PACKAGED_FAMILY, is_packaged, packaged_cjk_font

log = logging.getLogger(__name__)

ENV_FONT = "SIZING_BOT_CJK_FONT"

CJK_FAMILIES = (
    "WenQuanYi Micro Hei",  # Apache-2.0 / GPL-3 + font exception; TrueType outlines
    "WenQuanYi Zen Hei",  # GPL-2 + font exception
    "Droid Sans Fallback",  # Apache-2.0
    "LXGW WenKai",  # OFL-1.1
    "Noto Sans CJK SC",  # OFL-1.1 (CFF outlines)
    "Noto Sans SC",
    "Source Han Sans SC",  # OFL-1.1
    "Source Han Sans CN",
    "AR PL UMing CN",  # Arphic Public License
)
"""Free-licence fonts with Simplified Chinese glyphs, in order of preference."""


@dataclass(frozen=True)
class FontFile:
    """A font file and, for a collection (.ttc), the face to use."""

    path: str
    index: int = 0
    family: str = ""


def latin_font(bold: bool = False) -> FontFile:
    """DejaVu Sans from matplotlib's own data (always installed with the package)."""
    import matplotlib

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
    return FontFile(str(path), 0, "DejaVu Sans")


def _face_index(path: str, family: str | None) -> tuple[int, str] | None:
    """The face of ``path`` whose family is ``family`` (any face with CJK glyphs when None)."""
    from fontTools.ttLib import TTCollection, TTFont

    try:
        fonts = (
            TTCollection(path).fonts if path.lower().endswith((".ttc", ".otc")) else [TTFont(path, lazy=True)]
        )
    except Exception:
        return None
    for i, font in enumerate(fonts):
        names = {str(n) for n in font["name"].names if n.nameID in (1, 16)}
        cmap = font.getBestCmap() or {}
        if (family is None or family in names) and 0x4E2D in cmap:  # 中
            return i, family or next(iter(sorted(names)), "")
    return None


@cache
def cjk_font() -> FontFile | None:
    """A font with Chinese glyphs (see the module docstring): an installed one first, else the packaged
    Noto Sans CJK SC; None only when neither is there."""
    from bot.config import current_if_set

    settings = current_if_set()
    override = settings.cjk_font if settings is not None else None
    if override:
        found = _face_index(override, None)
        if found is not None:
            return FontFile(override, found[0], found[1])
        log.warning(
            "%s=%s has no Chinese glyphs or cannot be read; looking for an installed font", ENV_FONT, override
        )
    from bot.render.chart import font_manager_fresh

    manager = font_manager_fresh()
    by_family: dict[str, list[str]] = {}
    for entry in manager.ttflist:
        by_family.setdefault(entry.name, []).append(entry.fname)
    for family in CJK_FAMILIES:
        for path in sorted(set(by_family.get(family, []))):
            if is_packaged(path):
                continue  # registered for charts: not a system font
            found = _face_index(path, family)
            if found is not None:
                return FontFile(path, found[0], family)
    packaged = packaged_cjk_font()
    return FontFile(packaged[0], packaged[1], PACKAGED_FAMILY) if packaged is not None else None


@cache
def _parsed(path: str, index: int, fontkey: str, style: str) -> Any:
    """fpdf2's parsed font (``TTFFont``: cmap, widths, glyph ids; 0.3 s for DejaVu Sans, 2 s for a CJK
    collection on a loaded 2-core machine) once per process, or None for a font fpdf2 patches while
    parsing (no ``.notdef`` glyph): that one is parsed per document. Its fontTools font is dropped:
    every document subsets a fresh one (fontTools subsets in place)."""
    from fpdf import FPDF
    from fpdf.fonts import TTFFont

    font = TTFFont(FPDF(), Path(path), fontkey, style, None, None, None, index)
    if "glyf" in font.ttfont and ".notdef" not in font.ttfont["glyf"]:
        return None
    font.ttfont = None
    font.subset = None
    return font


def add_parsed_font(pdf: Any, family: str, style: str, font: FontFile) -> None:
    """``pdf.add_font(family, style, font)`` with the parsing done once per process (:func:`_parsed`):
    a copy of the parsed font with this document's own state (number, fontTools font opened lazily,
    glyph subset, missing glyphs). The PDF bytes are the same as with ``add_font``."""
    from fontTools import ttLib
    from fpdf.fonts import SubsetMap, get_color_font_object

    fontkey = f"{family.lower()}{style}"
    parsed = _parsed(font.path, font.index, fontkey, style)
    if parsed is None:
        pdf.add_font(family, style=style, fname=font.path, collection_font_number=font.index)
        return
    fresh = copy.copy(parsed)
    fresh.i = len(pdf.fonts) + 1
    fresh.ttfont = ttLib.TTFont(font.path, recalcTimestamp=False, fontNumber=font.index, lazy=True)
    fresh._hbfont = None
    fresh.biggest_size_pt = 0
    fresh.missing_glyphs = []
    fresh.cw = copy.copy(parsed.cw)  # a defaultdict: reading a missing character adds it
    fresh.subset = SubsetMap(fresh)
    fresh.color_font = (
        get_color_font_object(pdf, fresh, fresh.palette_index) if pdf.render_color_fonts else None
    )
    pdf.fonts[fontkey] = fresh
    if fresh.is_cff and fresh.is_cid_keyed:
        pdf._set_min_pdf_version("1.6")
