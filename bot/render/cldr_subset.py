"""The CLDR data a reply reads, stored at build time: ``sizing-bot ask`` loads a few kB instead of Babel's
locale chain (issue 23 item 7: "load only the Babel data used").

Babel loads a locale by unpickling its file and every parent's (``root`` → ``zh`` → ``zh_Hans`` →
``zh_Hans_CN``), merging them key by key (~1,500 merges), and reading its global data (~470 kB) for the
parent exceptions: ~10-15 ms of a ~300 ms start-up, for the handful of keys our formatters read
(:data:`KEYS`: number symbols, compact forms, currency symbols and names, the plural rule).

The build (``hatch_build.py``) stores those keys of each reply locale's merged data in :data:`SUBSET_FILE`,
with Babel's version. :func:`seed` puts them in Babel's own cache (``babel.localedata._cache``) before the
first ``Locale`` of that locale is made, as a :class:`PartialLocaleData`: any other key, an iteration or a
copy loads the whole locale as Babel does and answers from it, so every value read is the one Babel's
own data gives (tests/test_render_fast_paths.py). Without the file, or for another Babel version,
nothing is seeded: Babel loads its data as before.
"""

from __future__ import annotations

import pickle
import threading
from pathlib import Path
from typing import Any

SUBSET_FILE = Path(__file__).with_name("_cldr_subset.pickle")
"""Written by the build (gitignored), read by :func:`seed`."""

KEYS = (
    "compact_decimal_formats",
    "currency_names",
    "currency_names_plural",
    "currency_symbols",
    "decimal_formats",
    "number_symbols",
    "percent_formats",
    "currency_formats",
    "plural_form",
)
"""The locale data keys the reply formatters read (recorded over the corpus in both languages and
every format; a key not here is still answered, from the whole locale: :class:`PartialLocaleData`)."""

_lock = threading.Lock()
_stored: dict[str, dict[str, Any]] | None = None


class PartialLocaleData(dict):  # type: ignore[type-arg]
    """Some keys of one locale's merged CLDR data; the rest loaded on first need, as Babel loads them.

    Babel reads its cached locale data by ``data[key]`` (``LocaleDataDict``), which reaches
    :meth:`__missing__` for a key not stored; every other way in (iteration, ``get``, ``in``, ``copy``,
    length) completes the data first, so no reader can see a locale with keys missing."""

    def __init__(self, name: str, stored: dict[str, Any]) -> None:
        super().__init__(stored)
        self.name = name
        self.complete = False

    def _complete(self) -> None:
        if self.complete:
            return
        from babel import localedata

        with localedata._cache_lock:
            if not self.complete:
                held = localedata._cache.pop(self.name, None)  # this data, seeded (else: nothing, or other)
                try:
                    full = localedata.load(self.name)  # Babel's own load: parents, merge
                finally:  # Babel's cache as it was
                    if held is not None:
                        localedata._cache[self.name] = held
                    else:
                        localedata._cache.pop(self.name, None)
                for key, value in full.items():
                    if not dict.__contains__(self, key):
                        dict.__setitem__(self, key, value)
                self.complete = True

    def __missing__(self, key: str) -> Any:
        self._complete()
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        self._complete()
        return dict.__contains__(self, key)

    def __iter__(self) -> Any:
        self._complete()
        return dict.__iter__(self)

    def __bool__(self) -> bool:  # Babel's ``if not data`` on its cache: stored keys make it true as is
        return dict.__len__(self) > 0 or len(self) > 0

    def __len__(self) -> int:
        self._complete()
        return dict.__len__(self)

    def get(self, key: str, default: Any = None) -> Any:
        self._complete()
        return dict.get(self, key, default)

    def keys(self) -> Any:
        self._complete()
        return dict.keys(self)

    def items(self) -> Any:
        self._complete()
        return dict.items(self)

    def values(self) -> Any:
        self._complete()
        return dict.values(self)

    def copy(self) -> dict[str, Any]:
        self._complete()
        return dict(dict.items(self))

    def __reduce__(self) -> Any:  # pickled (a copy of a Locale): as the whole plain dict
        self._complete()
        return (dict, (dict(dict.items(self)),))


def _read_stored() -> dict[str, dict[str, Any]]:
    """The stored subsets by locale id; empty without the file or for another Babel version."""
    global _stored
    if _stored is None:
        import babel

        try:
            with SUBSET_FILE.open("rb") as fh:
                data = pickle.load(fh)  # our own build output, as Babel's .dat pickles
            ok = isinstance(data, dict) and data.get("babel") == babel.__version__
            _stored = data["locales"] if ok else {}
        except Exception:  # no file (a checkout not built) or an unreadable one: Babel's own data
            _stored = {}
    return _stored


def seed(locale_id: str) -> None:
    """Put the stored keys of ``locale_id`` (a CLDR file name: ``en``, ``zh_Hans_CN``) in Babel's cache,
    unless Babel has that locale already or nothing is stored for it."""
    from babel import localedata

    with _lock:
        if locale_id in localedata._cache:
            return
        stored = _read_stored().get(locale_id)
        if stored is not None:
            with localedata._cache_lock:
                localedata._cache.setdefault(locale_id, PartialLocaleData(locale_id, stored))


def subset(locale_id: str) -> dict[str, Any]:
    """The keys of :data:`KEYS` in Babel's merged data for ``locale_id`` (what the build stores)."""
    from babel import localedata

    data = localedata.load(locale_id)
    return {key: data[key] for key in KEYS if key in data}


def write_subsets(path: Path, locale_ids: tuple[str, ...]) -> None:
    """Store :func:`subset` of each locale, with Babel's version (the build hook)."""
    import babel

    payload = {"babel": babel.__version__, "locales": {name: subset(name) for name in locale_ids}}
    path.write_bytes(pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL))
