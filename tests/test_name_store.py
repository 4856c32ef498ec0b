"""The stored index of catalog model names (bot.parse.name_store): the same index as the one built, or
none (issue 23 item 7, start-up)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.parse import models as pm
from bot.parse import name_store
from estimator import catalog


def _plain(index: pm._ModelIndex) -> tuple:
    keys = [(k.fam, k.ver, k.size, k.act, k.model_id) for k in index.keys]
    return list(index.names.items()), index.starts.pattern, keys, index.regex.pattern, index.families


@pytest.fixture
def stored(tmp_path: Path) -> str:
    path = str(tmp_path / "names.marshal")
    assert name_store.write(path) > 800  # every model's id and aliases: 909 compact names (2026-12-03)
    return path


def test_the_stored_index_is_the_built_one(stored: str) -> None:
    models = catalog.models()
    data = name_store.stored_model_index(models, stored)
    assert data is not None
    by_alias, starts, keys, regex, families = data
    built = _plain(pm.built_model_index(models))
    assert (list(by_alias.items()), starts, keys, regex, families) == built
    assert by_alias["qwen2.572binstruct"] == "Qwen2.5-72B"  # the catalog's alias of the base entry
    assert any(k[4] == "Llama-3-70B" for k in keys)


def test_the_index_in_use_is_the_built_one() -> None:
    assert _plain(pm._model_index()) == _plain(pm.built_model_index(catalog.models()))


def test_another_catalog_is_not_read_from_the_store(stored: str) -> None:
    models = dict(catalog.models())
    first = next(iter(models))
    models[first] = models[first].model_copy(update={"aliases": [*models[first].aliases, "my-own-name"]})
    assert name_store.stored_model_index(models, stored) is None
    del models[first]
    assert name_store.stored_model_index(models, stored) is None


def test_edited_code_is_not_read_from_the_store(stored: str, tmp_path: Path, monkeypatch) -> None:
    here = tmp_path / "parse"
    here.mkdir()
    for name in name_store.SOURCES:
        shutil.copy(Path(name_store._HERE, name), here / name)
    monkeypatch.setattr(name_store, "_HERE", str(here))
    assert name_store.stored_model_index(catalog.models(), stored) is not None
    for name in name_store.SOURCES:  # one byte more in any of them: built again
        original = (here / name).read_bytes()
        (here / name).write_bytes(original + b"\n")
        assert name_store.stored_model_index(catalog.models(), stored) is None
        (here / name).write_bytes(original)


def test_a_missing_or_broken_file_is_no_store(tmp_path: Path) -> None:
    assert name_store.stored_model_index(catalog.models(), str(tmp_path / "absent")) is None
    (tmp_path / "broken").write_bytes(b"\x00not marshal")
    assert name_store.stored_model_index(catalog.models(), str(tmp_path / "broken")) is None
