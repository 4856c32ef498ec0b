"""Issue 23 item 7, start-up (session 30, part s30-spgate): the parser's stored model-name index is found
from the catalog files' rows (:func:`estimator.catalog.model_rows`: id and aliases, unvalidated), so a
plain ``ask`` that names no catalog model validates no ``ModelSpec`` (~15M instructions)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.parse.name_store import index_key, stored_model_index, stored_model_index_for
from estimator import catalog

ROOT = Path(__file__).resolve().parents[1]


def test_the_rows_are_the_validated_models_ids_and_aliases() -> None:
    rows = catalog.model_rows()
    assert rows == [(m.id, *m.aliases) for m in catalog.models().values()]
    assert len(rows) > 150 and ("Qwen2.5-72B" in {r[0] for r in rows})


def test_the_rows_find_the_index_the_models_find(tmp_path) -> None:
    models = catalog.models()
    rows = catalog.model_rows()
    assert stored_model_index_for(rows) == stored_model_index(models)
    assert stored_model_index_for(None) is None
    changed = [rows[0] + ("another name",), *rows[1:]]
    assert stored_model_index_for(changed) is None  # the key follows every alias
    assert stored_model_index_for([(1, "x")]) is None  # not strings: not the stored key
    assert index_key(models)  # the same key both ways: see name_store


def test_a_plain_question_validates_no_catalog_model() -> None:
    code = (
        "import contextlib, io\n"
        "from bot.cli import main\n"
        "from estimator import catalog\n"
        "from bot.parse.name_store import stored_model_index_for\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    main(['ask', '7B模型1万亿token要多少A100'])\n"
        "found = stored_model_index_for(catalog.model_rows()) is not None\n"
        "print(found, catalog.models.cache_info().currsize)\n"
        "print('A100' in out.getvalue())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    stored, built = done.stdout.split("\n")[0].split()
    assert done.stdout.split("\n")[1] == "True"
    if stored == "True":  # a built checkout (a stale store builds the index from the models, as before)
        assert built == "0"
