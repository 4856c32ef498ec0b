"""The free CJK font that comes with the package, for Chinese charts and quotes on a machine without one.

Noto Sans CJK (Google and Adobe, SIL Open Font License 1.1; version 2.004) from the PyPI package
``noto-cjk-sans-otc`` — ``NotoSansCJK-Regular.ttc``, a dependency: 15.5 MB wheel, 19.5 MB installed.
It covers every CJK Unified Ideograph (user-typed names included), in Simplified-Chinese glyph forms
from its "Noto Sans CJK SC" face. An installed system font with Chinese glyphs stays preferred
(:data:`bot.render.chart.CJK_FAMILIES`, :data:`bot.quote.fonts.CJK_FAMILIES`); this one is the
fallback, so ``pip install .`` alone draws Chinese.
"""

from __future__ import annotations

import logging
import os
from functools import cache
from typing import Any

log = logging.getLogger(__name__)

PACKAGED_FAMILY = "Noto Sans CJK SC"
"""The face of the collection used: Simplified-Chinese glyph forms."""


@cache
def packaged_cjk_font() -> tuple[str, int] | None:
    """``(path, face index)`` of the packaged Noto Sans CJK SC, or None when the package is missing."""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        return None
    path = str(noto_cjk_sans_otc.FONT_PATH)
    if not os.path.isfile(path):
        return None
    from fontTools.ttLib import TTCollection

    try:
        faces = TTCollection(path, lazy=True).fonts
    except Exception:
        log.warning("the packaged CJK font %s cannot be read", path, exc_info=True)
        return None
    for i, face in enumerate(faces):
        if PACKAGED_FAMILY in {str(n) for n in face["name"].names if n.nameID in (1, 16)}:
            return path, i
    return path, 0


def is_packaged(path: str) -> bool:
    """Whether ``path`` is the packaged font's file."""
    found = packaged_cjk_font()
    return found is not None and os.path.realpath(path) == os.path.realpath(found[0])


def register_packaged(manager: Any) -> str | None:
    """Add the packaged font to matplotlib's font manager (this process only; the on-disk font cache
    is not rewritten) and return the family name to draw Chinese with, or None without the package."""
    found = packaged_cjk_font()
    if found is None:
        return None
    if not any(is_packaged(f.fname) for f in manager.ttflist):
        try:
            manager.addfont(found[0])
        except Exception:
            log.warning("matplotlib cannot read the packaged CJK font %s", found[0], exc_info=True)
            return None
    names = sorted({f.name for f in manager.ttflist if is_packaged(f.fname)})
    if PACKAGED_FAMILY in names:
        return PACKAGED_FAMILY
    return names[0] if names else None  # matplotlib < 3.9 reads only a collection's first face
