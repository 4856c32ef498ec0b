"""The render's fast paths of session 10 (issue 23 item 7) write what the code they replace wrote: the
memory bars from per-language label tables and a table of the 81 padded bars. Each is compared with the
former code, written out here, on the corpus answers' memory breakdowns and on made-up ones at the edges
(empty, one part, parts under the chart's floor, a zero total, fractions at each eighth's rounding)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.core.pipeline import answer
from bot.render.field_labels import MEMORY_PARTS
from bot.render.fmt import bar, display_width, fmt_for, ljust, rjust
from bot.render.i18n import translate
from bot.render.memory_text import _memory_bars, _padded_bar
from bot.render.wording import MIN_CHART_BYTES

QUESTIONS = [q["text"] for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text())]
GIB = 2**30


def _bars_before(m: SimpleNamespace, f: object) -> str:
    """``memory_text._memory_bars`` before session 10, as it was."""
    parts = [(k, v) for k, v in m.breakdown.items() if v >= MIN_CHART_BYTES]
    total = sum(v for _, v in parts) or m.per_gpu_bytes or 1.0
    labels = [translate(f.lang, MEMORY_PARTS[k]) if k in MEMORY_PARTS else k for k, _ in parts]  # type: ignore[attr-defined]
    w_label = max((display_width(lab) for lab in labels), default=0)
    values = [f.gib(v) for _, v in parts]  # type: ignore[attr-defined]
    w_val = max((len(v) for v in values), default=0)
    return "\n".join(
        f"{ljust(lab, w_label)} {ljust(bar(v / total, 10), 10)} {rjust(val, w_val)}"
        for lab, (_, v), val in zip(labels, parts, values, strict=True)
    )


def _made_up() -> list[SimpleNamespace]:
    rng = random.Random(10)
    keys = [*MEMORY_PARTS, "an unknown part", "其他"]
    out = [
        SimpleNamespace(plan=None, breakdown={}, per_gpu_bytes=0.0),
        SimpleNamespace(plan=None, breakdown={"weights": 0.0}, per_gpu_bytes=80 * GIB),
        SimpleNamespace(plan=None, breakdown={"weights": MIN_CHART_BYTES / 2}, per_gpu_bytes=0.0),
        SimpleNamespace(plan=None, breakdown={"weights": 14 * GIB}, per_gpu_bytes=14 * GIB),
        SimpleNamespace(
            plan=None, breakdown={"an unknown part": 3 * GIB, "weights": 1e12}, per_gpu_bytes=0.0
        ),
    ]
    for _ in range(300):
        chosen = rng.sample(keys, rng.randint(1, len(keys)))
        out.append(
            SimpleNamespace(
                plan=None,
                breakdown={k: rng.choice([0.0, MIN_CHART_BYTES, rng.uniform(0, 200) * GIB]) for k in chosen},
                per_gpu_bytes=rng.uniform(0, 100) * GIB,
            )
        )
    return out


def _corpus() -> list[object]:
    reports = [answer(q).report for q in QUESTIONS]
    return [r.memory for r in reports if r is not None and r.memory is not None]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_memory_bars_as_before(lang: str) -> None:
    f = fmt_for(lang)
    memories = [*_corpus(), *_made_up()]
    assert len(memories) > 350
    for m in memories:
        assert _memory_bars(m, f) == _bars_before(m, f)  # type: ignore[arg-type]


def test_padded_bar_as_before() -> None:
    rng = random.Random(8)
    edges = [e / 80 + d for e in range(81) for d in (-1e-12, 0.0, 1e-12)]
    halves = [(e + 0.5) / 80 for e in range(80)]  # where round() goes half to even
    fractions = [*edges, *halves, -1.0, -1e-9, 1e-9, 1.5, float("inf"), *(rng.random() for _ in range(9_999))]
    for x in fractions:
        assert _padded_bar(x) == ljust(bar(x, 10), 10)


# --- the CLDR subset (bot.render.cldr_subset) ------------------------------------------------------------

FORMATS_SCRIPT = """
import json, sys
import bot.render.cldr_subset as cs
if sys.argv[1] == "babel":
    cs.seed = lambda locale_id: None  # before bot.render.fmt binds it: Babel loads its own data
from bot.render.fmt import Fmt
import babel.localedata as bl
out = []
numbers = [0, 0.04, 0.5, 1, 7, 12.25, 99.95, 950, 1234.5, 9999, 12345, 93483, 1e6, 2.5e7, 9.3e8, 1.2e10]
numbers += [4.2e12, 3e15]
for lang in ("en", "zh"):
    for cents in (False, True):
        f = Fmt(lang, cents)
        for x in numbers:
            out += [f.int(x), f.num(x), f.num(x, 2), f.compact(x), f.percent(x / 1e4)]
            out += [f.gib(x * 2**30), f.storage(x * 1e9)]
            for cur in ("USD", "CNY", "EUR", "JPY", "HKD"):
                out += [f.money(x, cur), f.price(x, cur, cents), f.money_compact(x, cur)]
                out.append(f.price_range(x, 2 * x + 1, cur))
held = {k: getattr(v, "complete", "babel") for k, v in bl._cache.items()}
print(json.dumps([out, held], ensure_ascii=False))
"""


def _formats(mode: str) -> list[object]:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", FORMATS_SCRIPT, mode], cwd=root, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_formats_from_the_subset_as_from_babel() -> None:
    """Every formatter, both languages, five currencies: the same text from the stored keys (when the
    build stored them) as from Babel's whole locale data; the subset answered them without loading it."""
    from bot.render.cldr_subset import SUBSET_FILE

    seeded, loaded = _formats("seeded")
    babel_own, _ = _formats("babel")
    assert len(seeded) > 1000
    assert seeded == babel_own
    if SUBSET_FILE.exists():
        assert loaded == {"en": False, "zh_Hans_CN": False}  # seeded, never completed


def _fresh(name: str) -> dict:
    """Babel's merged data for ``name`` loaded anew (whatever its cache holds is put back)."""
    from babel import localedata

    held = localedata._cache.pop(name, None)
    try:
        return localedata.load(name)
    finally:
        if held is not None:
            localedata._cache[name] = held


def _plain(value: object) -> object:
    """A locale data value with Babel's wrappers opened (their own repr is an address)."""
    from collections.abc import Mapping

    if isinstance(value, Mapping):
        return {k: _plain(value[k]) for k in value}
    return repr(value)


@pytest.mark.parametrize("name", ["en", "zh_Hans_CN"])
def test_partial_data_answers_every_key_as_babel(name: str) -> None:
    """A key outside the stored ones (or a look at the whole) loads the locale as Babel does: every key
    reads the same, through Babel's own alias-resolving wrapper."""
    from babel.localedata import LocaleDataDict

    from bot.render.cldr_subset import KEYS, PartialLocaleData

    full = _fresh(name)
    partial = PartialLocaleData(name, {k: full[k] for k in KEYS if k in full})
    assert bool(partial) and not partial.complete
    assert partial["number_symbols"] is full["number_symbols"] and not partial.complete
    whole, part = LocaleDataDict(full), LocaleDataDict(partial)
    for key in ("territories", "languages", "date_formats", "scientific_formats", "unit_patterns"):
        assert _plain(part[key]) == _plain(whole[key])
    assert partial.complete and set(partial) == set(full)
    assert all(partial[k] == full[k] or repr(partial[k]) == repr(full[k]) for k in full)
    with pytest.raises(KeyError):
        partial["no such key"]


def test_stored_subset_is_babels_data() -> None:
    """The build's file holds this Babel's version and, for each reply locale, exactly the keys of
    Babel's merged data (the same pickled bytes)."""
    import pickle

    import babel

    from bot.render.cldr_subset import KEYS, SUBSET_FILE

    if not SUBSET_FILE.exists():
        pytest.skip("no CLDR subset in this checkout (built by hatch_build.py)")
    stored = pickle.loads(SUBSET_FILE.read_bytes())
    assert stored["babel"] == babel.__version__
    assert set(stored["locales"]) == {"en", "zh_Hans_CN"}
    for name, keys in stored["locales"].items():
        full = _fresh(name)
        assert set(keys) == {k for k in KEYS if k in full}
        for key, value in keys.items():
            assert pickle.dumps(value) == pickle.dumps(full[key]), (name, key)
