"""The message catalogs as the build parsed them: ``messages.marshal`` beside each ``messages.mo``.

Parsing a ``.mo`` (:class:`gettext.GNUTranslations`, a Python loop over ~1,200 messages) took ~4 ms of
``sizing-bot ask``'s start-up; the same catalog stored with :mod:`marshal` (as a ``.pyc`` stores
constants) loads in ~0.3 ms. The stored form is keyed by the ``.mo``'s bytes (length and CRC-32), so a
catalog recompiled after the store was written (``scripts/i18n.sh compile`` in a checkout) is parsed
from its ``.mo`` as before: a stale store is never used. Written by the build (``hatch_build.py``) and by
``scripts/i18n.sh compile``; the installed bot only reads it.

No import of the bot here: the build hook loads this file by its path.

:class:`Catalog` is the catalogs' class: :class:`gettext.GNUTranslations` with the two attributes
``babel.support.Translations`` adds that a reply's catalog carries (``domain``, ``files``); the parse,
``gettext``/``ngettext`` and the plural rule are the standard library's, which Babel's class inherits
unchanged (Babel 2.x ``babel/support.py``: ``ugettext = gettext.GNUTranslations.gettext``). Babel's
module is not imported for it: ``babel.support`` imports ``babel.dates`` (~1.0 MiB of the idle bot's RSS
and ~5M instructions of ``ask``'s start-up, measured 2026-12-04, bench/RESULTS.md session 24) for its
lazy formatting helpers, which the bot does not use.
"""

from __future__ import annotations

import gettext
import io
import marshal
import zlib
from pathlib import Path
from typing import Any

DOMAIN = "messages"
SUFFIX = ".marshal"
"""The stored form's file: ``messages.mo`` → ``messages.marshal``."""
_FORMAT = 1


class Catalog(gettext.GNUTranslations):
    """A parsed ``.mo`` (``fp``; empty without one) of message ``domain``: ``_catalog``, ``_info``,
    ``_charset`` and ``plural`` as :class:`gettext.GNUTranslations` parses them; ``files`` the file's
    name when ``fp`` has one (as ``babel.support.Translations``)."""

    def __init__(self, fp: Any = None, domain: str = DOMAIN) -> None:
        self._catalog: dict[Any, str] = {}
        self.plural: Any = lambda n: int(n != 1)  # until a header says otherwise (as Babel's class)
        super().__init__(fp)
        self.files = [name] if (name := getattr(fp, "name", None)) else []
        self.domain = domain


def _key(mo_bytes: bytes) -> tuple[int, int, int]:
    """What a stored catalog is valid for: this format, the ``.mo``'s length and its CRC-32."""
    return (_FORMAT, len(mo_bytes), zlib.crc32(mo_bytes))


def store(mo: Path) -> Path:
    """Parse the catalog ``mo`` (as :class:`babel.support.Translations` does) and write its parsed form
    beside it; returns the stored file's path. Raises OSError when ``mo`` cannot be read or the store
    written."""
    data = mo.read_bytes()
    parsed = Catalog(io.BytesIO(data), domain=DOMAIN)
    stored = {
        "key": _key(data),
        "info": dict(parsed._info),
        "charset": parsed._charset,
        "catalog": dict(parsed._catalog),
    }
    out = mo.with_suffix(SUFFIX)
    out.write_bytes(marshal.dumps(stored))
    return out


def store_all(locales: Path) -> list[Path]:
    """:func:`store` for every ``<locale>/LC_MESSAGES/*.mo`` under ``locales``."""
    return [store(mo) for mo in sorted(locales.glob("*/LC_MESSAGES/*.mo"))]


def load(mo: Path, mo_bytes: bytes) -> Catalog | None:
    """The catalog ``mo`` (whose bytes are ``mo_bytes``) from its stored form, the same as
    ``Catalog(open(mo, 'rb'))`` gives; None when nothing valid is stored for
    these bytes (absent, unreadable, damaged, or written for another ``.mo``)."""
    try:
        stored = marshal.loads(mo.with_suffix(SUFFIX).read_bytes())
        if not isinstance(stored, dict) or stored.get("key") != _key(mo_bytes):
            return None
        info, charset, catalog = stored["info"], stored["charset"], stored["catalog"]
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        return None
    translations = Catalog(domain=DOMAIN)
    translations._info, translations._charset, translations._catalog = info, charset, catalog
    forms = info.get("plural-forms")
    if forms:  # as GNUTranslations._parse reads the header
        translations.plural = gettext.c2py(forms.split(";")[1].split("plural=")[1])
    translations.files = [str(mo)]
    return translations
