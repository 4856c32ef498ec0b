"""Catalogs: complete zh_CN translation, matching placeholders, .pot in sync with the sources,
runtime loading (.mo when fresh, else the .po compiled in memory), both resource layouts."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # checkout layout without install

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from bot.render import i18n

ROOT = Path(__file__).resolve().parents[1]
POT = ROOT / "locales" / "messages.pot"
PO = {loc: ROOT / "locales" / loc / "LC_MESSAGES" / "messages.po" for loc in ("zh_CN", "en")}

# %(name)s / %(name)d, {name}; "%%" is a literal percent sign, not a placeholder
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sdrfi]|(?<!\{)\{(\w+)\}(?!\})")


def _catalog(path: Path, locale: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _placeholders(s: str) -> list[str]:
    return sorted(a or b for a, b in _PLACEHOLDER.findall(s.replace("%%", "")))


def _msgids(path: Path) -> set[str]:
    return {m.id for m in _catalog(path) if m.id}


def test_zh_cn_translates_every_msgid():
    pot_ids = _msgids(POT)
    zh = _catalog(PO["zh_CN"], "zh_CN")
    by_id = {m.id: m for m in zh if m.id}
    missing = sorted(pot_ids - by_id.keys())
    empty = sorted(i for i in pot_ids & by_id.keys() if not by_id[i].string)
    fuzzy = sorted(i for i in pot_ids & by_id.keys() if by_id[i].fuzzy)
    assert not missing, f"not in zh_CN: {missing[:5]}"
    assert not empty, f"untranslated in zh_CN: {empty[:5]}"
    assert not fuzzy, f"fuzzy in zh_CN: {fuzzy[:5]}"


def test_zh_cn_is_chinese():
    zh = [m for m in _catalog(PO["zh_CN"], "zh_CN") if m.id]
    chinese = [m for m in zh if re.search(r"[\u4e00-\u9fff]", m.string)]
    assert len(chinese) >= 0.85 * len(zh)  # the rest are terms kept as is ("GPU", "logits")


def test_en_catalog_covers_every_msgid():
    assert _msgids(POT) <= _msgids(PO["en"])


@pytest.mark.parametrize("locale", ["zh_CN", "en"])
def test_placeholders_match(locale):
    bad = []
    for m in _catalog(PO[locale], locale):
        if not m.id or not m.string:
            continue
        if _placeholders(m.id) != _placeholders(m.string):
            bad.append((m.id, m.string))
        # a single "%" would break %-formatting: literal percent signs must be doubled
        if re.search(r"%(?!\(\w+\)[sdrfi]|%)", m.string.replace("%%", "")):
            bad.append((m.id, m.string))
    assert not bad, bad[:3]


def test_pot_is_up_to_date_with_sources(tmp_path):
    """Re-extract with babel.cfg (as scripts/i18n.sh does) and compare the msgid sets."""
    out = tmp_path / "messages.pot"
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        CommandLineInterface().run(
            ["pybabel", "-q", "extract", "-F", "babel.cfg", "-k", "N_", "--no-location", "-o", str(out), "."]
        )
    finally:
        os.chdir(cwd)
    fresh, stored = _msgids(out), _msgids(POT)
    assert fresh == stored, (
        f"run scripts/i18n.sh: new {sorted(fresh - stored)[:5]}, stale {sorted(stored - fresh)[:5]}"
    )


def test_translate_formats_and_falls_back():
    assert i18n.translate("zh", "pre-training") == "预训练"
    assert i18n.translate("en", "pre-training") == "pre-training"
    assert i18n.translate("fr", "pre-training") == "pre-training"  # unknown language → English
    assert (
        i18n.translate(
            "zh", "MFU %(mfu)s is outside the usual 30–50%% band: please double-check it.", mfu="80%"
        )
        == "MFU 80% 超出常见的 30–50% 区间，请再确认一下。"
    )
    assert i18n.translate("zh", "a msgid nobody wrote") == "a msgid nobody wrote"


def test_languages_are_independent_per_call():
    """No global current locale: interleaved calls each get their own language."""
    seq = [i18n.translate(lang, "inference") for lang in ("zh", "en", "zh", "en")]
    assert seq == ["推理", "inference", "推理", "inference"]


def test_compiled_catalogs_match_their_po():
    """The bot loads only compiled catalogs (hatch_build.py compiles them at install): what it loads
    says what the .po says (after editing a .po, run scripts/i18n.sh compile)."""
    for locale, lang in (("zh_CN", "zh"), ("en", "en")):
        po = {m.id: m.string for m in _catalog(PO[locale], locale) if m.id and m.string}
        loaded = i18n.translations(lang)
        stale = [msgid for msgid, text in po.items() if loaded.gettext(msgid) != text]
        assert not stale, f"{locale}: .mo older than .po (run scripts/i18n.sh compile): {stale[:3]}"


def test_a_missing_catalog_answers_in_english_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "locales_dir", lambda: tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translate("zh", "inference") == "inference"
        assert list(tmp_path.iterdir()) == []  # nothing compiled, nothing written
    finally:
        i18n.translations.cache_clear()


def test_resource_dirs_in_checkout_and_installed_layouts(tmp_path, monkeypatch):
    assert i18n.templates_dir() == ROOT / "templates"
    assert i18n.locales_dir() == ROOT / "locales"
    pkg = tmp_path / "site-packages" / "bot"
    (pkg / "templates").mkdir(parents=True)
    (pkg / "locales").mkdir()
    monkeypatch.setattr(i18n, "_PACKAGE_DIR", pkg)
    assert i18n._resource_dir("templates") == pkg / "templates"  # installed wheel: inside the package
    assert i18n._resource_dir("locales") == pkg / "locales"


def test_every_ledger_reason_has_a_sentence_translated_for_zh():
    """Every reason the estimator can give (estimator.reasons) has a sentence in
    bot/render/ledger_texts.py, and every sentence reads in Chinese: adding a reason without wording,
    or wording without a translation, fails here."""
    from babel.messages.pofile import read_po

    from bot.render.ledger_texts import WHY_TEXTS
    from bot.render.word_texts import WORD_TEXTS
    from estimator.reasons import Why, Word

    assert set(WHY_TEXTS) == {w.value for w in Why}
    assert set(WORD_TEXTS) == {w.value for w in Word}
    with PO["zh_CN"].open("rb") as fh:
        zh = {m.id: m.string for m in read_po(fh, locale="zh_CN") if m.id}
    untranslated = [t for t in (*WHY_TEXTS.values(), *WORD_TEXTS.values()) if not zh.get(t)]
    assert not untranslated, untranslated


def test_ledger_citations_stay_as_written():
    from bot.render.notes import why_text
    from estimator.models import Assumption

    cite = "Qwen2.5 7B: Qwen/Qwen2.5-7B config.json; Qwen2.5 model card (7.61B, 6.53B non-embedding)"
    a = Assumption(field="params_total", value=7.61e9, why="release_count", params={"model": "Qwen2.5 7B"},
                   citation=cite)  # fmt: skip
    assert "Qwen2.5 7B" in why_text("zh", a) and cite not in why_text("zh", a)  # the citation is apart
    one_pass = Assumption(field="epochs", value=1, why="epochs_finetune")
    assert why_text("en", one_pass).startswith("one pass")
    assert why_text("zh", one_pass) != why_text("en", one_pass)


def test_catalogs_compile_cleanly():
    """What the Dockerfile's `pybabel compile` checks: msgid and msgstr placeholders agree (a literal
    "8 % of" in a message reads as a %-conversion and fails the build)."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[1] / "locales"
    for po in sorted(root.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as fh:
            catalog = read_po(fh)
        problems = [(m.id, errors) for m, errors in catalog.check()]
        assert not problems, f"{po}: {problems[:3]}"
