"""Translations and templates: located in both layouts, loaded once, selected per call.

Layouts:
- installed wheel: ``bot/templates`` and ``bot/locales`` inside the package (pyproject force-include);
- checkout: ``templates/`` and ``locales/`` at the repository root.

There is no global "current locale": every call names its language, and each (language,
format) pair has its own Jinja2 environment with that language's catalog installed
(asyncio serves many chats at once). Catalogs are the compiled
``locales/<locale>/LC_MESSAGES/messages.mo``, built with the package (``hatch_build.py``) or by
``scripts/i18n.sh compile``: nothing is compiled or written at run time. Each is read from the parsed
form the build stored beside it when that is the ``.mo``'s (:mod:`bot.render.catalog_store`).
"""

from __future__ import annotations

import io
from functools import cache
from gettext import NullTranslations
from pathlib import Path

from bot.lazylog import lazy_logger
from bot.render import catalog_store
from bot.render.fmt import locale_for

log = lazy_logger(__name__)

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


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog for a reply language (``zh``/``en``), loaded once. A missing or broken
    catalog gives identity translations (English msgids) and one warning: the bot keeps answering."""
    locale = locale_for(lang)
    mo = locales_dir() / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        data = mo.read_bytes()
        stored = catalog_store.load(mo, data)  # the build's parsed form, when it is this .mo's
        return stored if stored is not None else catalog_store.Catalog(io.BytesIO(data), domain=DOMAIN)
    except FileNotFoundError:
        log.warning("no compiled catalog %s (run scripts/i18n.sh compile); using source strings", mo)
    except Exception:  # a broken catalog must not take the bot down: answer in English
        log.exception("cannot load catalog %s", mo)
    return NullTranslations()


MAX_LOOKED_UP = 4096
"""Most messages :func:`translate` keeps looked up per language (then it starts afresh)."""

_LOOKED_UP: dict[str, tuple[NullTranslations, dict[str, str]]] = {}
"""Language → (its catalog, message → the catalog's text): each message looked up once per catalog (a
table of the catalog's own texts, not of any reply; a swapped catalog starts with none). A reply
translates ~12 messages, each a Python-level ``gettext`` call otherwise."""


def translate(lang: str, message: str, **params: object) -> str:
    """Translate ``message`` for ``lang`` and substitute ``%(name)s`` parameters. Raises what ``%``
    raises when a parameter is missing (``KeyError``) or of the wrong kind (``TypeError``, ``ValueError``)."""
    catalog = translations(lang)
    looked_up = _LOOKED_UP.get(lang)
    if looked_up is None or looked_up[0] is not catalog:
        looked_up = _LOOKED_UP[lang] = (catalog, {})
    texts = looked_up[1]
    text = texts.get(message)
    if text is None:
        if len(texts) >= MAX_LOOKED_UP:
            texts.clear()
        text = texts[message] = catalog.gettext(message)
    return text % params
