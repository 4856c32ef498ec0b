"""Translations and templates: located in both layouts, loaded once, selected per call.

Layouts:
- installed wheel: ``bot/templates`` and ``bot/locales`` inside the package (pyproject force-include);
- checkout: ``templates/`` and ``locales/`` at the repository root.

There is no global "current locale": every call names its language, and each (language,
format) pair has its own Jinja2 environment with that language's catalog installed
(asyncio serves many chats at once). Catalogs: ``locales/<locale>/LC_MESSAGES/messages.mo``
when present and not older than the ``.po``; otherwise the ``.po`` is compiled in memory.
"""

from __future__ import annotations

import logging
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from bot.render.fmt import locale_for

log = logging.getLogger(__name__)

DOMAIN = "messages"
_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # the bot package (templates and locales sit beside it)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now (translated at render time)."""
    return message


def _resource_dir(name: str) -> Path:
    """``bot/<name>`` in an installed package, else ``<repo>/<name>`` in a checkout."""
    for candidate in (_PACKAGE_DIR / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    return _PACKAGE_DIR.parent / name


@cache
def templates_dir() -> Path:
    return _resource_dir("templates")


@cache
def locales_dir() -> Path:
    return _resource_dir("locales")


def compile_po(po_path: Path, locale: str) -> Translations:
    """Compile a ``.po`` file in memory (no ``.mo`` on disk needed)."""
    with po_path.open("rb") as f:
        catalog = read_po(f, locale=locale, domain=DOMAIN)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@cache
def translations(lang: str) -> NullTranslations:
    """The catalog for a reply language (``zh``/``en``), loaded once.

    Uses the compiled ``.mo`` if it is at least as new as the ``.po``; otherwise compiles the
    ``.po`` in memory. A missing catalog gives identity translations (English msgids).
    """
    locale = locale_for(lang)
    base = locales_dir() / locale / "LC_MESSAGES"
    po, mo = base / f"{DOMAIN}.po", base / f"{DOMAIN}.mo"
    try:
        if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
            with mo.open("rb") as f:
                return Translations(f, domain=DOMAIN)
        if po.is_file():
            return compile_po(po, locale)
    except Exception:  # a broken catalog must not take the bot down: answer in English
        log.exception("cannot load catalog %s", base)
    log.warning("no catalog for %s in %s; using source strings", locale, base)
    return NullTranslations()


def translate(lang: str, message: str, **params: object) -> str:
    """Translate ``message`` for ``lang`` and substitute ``%(name)s`` parameters."""
    text = translations(lang).gettext(message)
    return text % params
