"""The catalogs' parsed form (bot.render.catalog_store): what the build stores beside each ``.mo`` reads
back as exactly the catalog parsing that ``.mo`` gives, and a store written for another ``.mo`` (a
catalog recompiled since) is never used."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from bot.render import catalog_store, i18n

ROOT = Path(__file__).resolve().parents[1]


def _same(a: Translations, b: Translations) -> None:
    assert a._catalog == b._catalog and len(a._catalog) > 900  # ~1,000 messages per language
    assert a._info == b._info and a._charset == b._charset == "utf-8"
    assert [a.plural(n) for n in range(6)] == [b.plural(n) for n in range(6)]


def test_the_stored_catalogs_are_the_parsed_mo_files() -> None:
    """The checkout's (``pip install -e`` and ``scripts/i18n.sh compile`` write them) and what the bot
    loads: the same messages, header, charset and plural rule as parsing the ``.mo``."""
    for locale, lang in (("zh_CN", "zh"), ("en", "en")):
        mo = ROOT / "locales" / locale / "LC_MESSAGES" / "messages.mo"
        data = mo.read_bytes()
        parsed = Translations(io.BytesIO(data), domain="messages")
        stored = catalog_store.load(mo, data)
        assert stored is not None, f"{locale}: no stored catalog (run scripts/i18n.sh compile)"
        _same(stored, parsed)
        _same(i18n.translations(lang), parsed)  # type: ignore[arg-type]
    assert i18n.translate("zh", "inference") == "推理"


def _mo(folder: Path, text: str) -> Path:
    catalog = Catalog(locale="zh_CN", domain="messages")
    catalog.add("inference", text)
    mo = folder / "zh_CN" / "LC_MESSAGES" / "messages.mo"
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as fh:
        write_mo(fh, catalog)
    return mo


def test_a_store_for_another_mo_is_not_used(tmp_path, monkeypatch) -> None:
    """A ``.mo`` recompiled after its store was written (an edited ``.po``): its own text is read."""
    mo = _mo(tmp_path, "旧的")
    catalog_store.store(mo)
    assert catalog_store.load(mo, mo.read_bytes()).gettext("inference") == "旧的"  # type: ignore[union-attr]
    _mo(tmp_path, "新的")
    assert catalog_store.load(mo, mo.read_bytes()) is None
    monkeypatch.setattr(i18n, "locales_dir", lambda: tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translate("zh", "inference") == "新的"
    finally:
        i18n.translations.cache_clear()


def test_a_damaged_store_is_not_used(tmp_path) -> None:
    mo = _mo(tmp_path, "推理")
    mo.with_suffix(".marshal").write_bytes(b"\x00not marshal")
    assert catalog_store.load(mo, mo.read_bytes()) is None
