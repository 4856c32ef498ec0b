"""Issue 23 item 7, start-up: modules a usual answer does not need are imported where they are used
(difflib for unknown names, importlib.resources for a recipe's flag list or a zipped install); the
suggestions for unknown names and the catalog folder are the same."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from estimator import catalog
from tests.startup_probe import ask_loaded

ROOT = Path(__file__).resolve().parents[1]
LATER = ("difflib", "importlib.resources", "zipfile")


def _ask(question: str) -> tuple[str, list[str]]:
    return ask_loaded(LATER, question)


def test_a_usual_answer_imports_none_of_them() -> None:
    reply, loaded = _ask("7B模型1万亿token要多少A100")
    assert "A100" in reply and loaded == []


def test_unknown_names_still_get_their_closest_catalog_names() -> None:
    reply, loaded = _ask("pretrain 7B on 1T tokens with 8 H300")
    assert "Closest cards I know: H800 / H200 / H100." in reply and "difflib" in loaded
    # s24: a name sized by its typed size ('Llamma-9-77B': 77B) gets no 'Did you mean' list;
    # a name without a size still does
    reply, _ = _ask("serve Llamma-9 on H100")
    assert "Did you mean Llama-4-Scout-17B-16E / Llama-4-Maverick-17B-128E / Llama-3.3-70B?" in reply


def test_the_catalog_folder_is_the_one_importlib_resources_names() -> None:
    assert catalog._data() == resources.files("estimator").joinpath("data")
    assert (catalog._data() / "gpus.toml").is_file()
