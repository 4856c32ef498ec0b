"""The stored index of catalog model names (bot.parse.name_store): the same index as the one built, or
none (issue 23 item 7, start-up)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.parse import model_index, name_store
from estimator import catalog


def _plain(index: model_index._ModelIndex) -> tuple:
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
    built = _plain(model_index.built_model_index(models))
    assert (list(by_alias.items()), starts, keys, regex, families) == built
    assert by_alias["qwen2.572binstruct"] == "Qwen2.5-72B"  # the catalog's alias of the base entry
    assert any(k[4] == "Llama-3-70B" for k in keys)


def test_the_index_in_use_is_the_built_one() -> None:
    assert _plain(model_index._model_index()) == _plain(model_index.built_model_index(catalog.models()))


def test_another_catalog_is_not_read_from_the_store(stored: str) -> None:
    models = dict(catalog.models())
    first = next(iter(models))
    models[first] = models[first].model_copy(update={"aliases": [*models[first].aliases, "my-own-name"]})
    assert name_store.stored_model_index(models, stored) is None
    del models[first]
    assert name_store.stored_model_index(models, stored) is None


def test_edited_code_is_not_read_from_the_store(stored: str, tmp_path: Path, monkeypatch) -> None:
    here = tmp_path / "bot" / "parse"  # a copy of the sources, laid out as the packages are
    here.mkdir(parents=True)
    (tmp_path / "estimator").mkdir()
    for name in (*name_store.SOURCES, *name_store.GPU_SOURCES):
        shutil.copy(Path(name_store._HERE, name), Path(here, name))
    monkeypatch.setattr(name_store, "_HERE", str(here))
    for sources, read in (
        (name_store.SOURCES, lambda: name_store.stored_model_index(catalog.models(), stored)),
        (name_store.GPU_SOURCES, lambda: name_store.stored_gpu_index(catalog.gpus(), stored)),
    ):
        assert read() is not None
        for name in sources:  # one byte more in any of them: built again
            path = Path(here, name)
            original = path.read_bytes()
            path.write_bytes(original + b"\n")
            assert read() is None
            path.write_bytes(original)
            assert read() is not None


def test_a_missing_or_broken_file_is_no_store(tmp_path: Path) -> None:
    assert name_store.stored_model_index(catalog.models(), str(tmp_path / "absent")) is None
    (tmp_path / "broken").write_bytes(b"\x00not marshal")
    assert name_store.stored_model_index(catalog.models(), str(tmp_path / "broken")) is None


def test_the_stored_gpu_index_is_the_built_one(stored: str) -> None:
    from bot.parse import gpus as pg

    data = name_store.stored_gpu_index(catalog.gpus(), stored)
    assert data is not None
    assert data == pg.built_gpu_names(catalog.gpus())
    names, alternatives, families, _ = data
    assert names["a100"] == "A100-SXM4-80GB"  # the family's default card
    assert len(alternatives[0][1]) >= len(alternatives[-1][1])
    index = pg._gpu_index()
    assert (index.names, index.alternatives, index.families) == (names, alternatives, families)


def test_another_gpu_catalog_is_not_read_from_the_store(stored: str) -> None:
    gpus = dict(catalog.gpus())
    a100 = gpus["A100-SXM4-80GB"]
    gpus["A100-SXM4-80GB"] = a100.model_copy(update={"default_for_family": not a100.default_for_family})
    assert name_store.stored_gpu_index(gpus, stored) is None
    assert name_store.stored_model_index(catalog.models(), stored) is not None
