"""The parser's index of catalog model names, stored by the build so a start does not build it again
(issue 23 item 7, start-up).

:func:`bot.parse.models._model_index` builds, on a process's first question, the index of every catalog
model's id and aliases (~180 models, ~1,600 names: each name lower-cased, its Chinese family words
replaced, compacted and tokenized; the family alternation; each id matched once): ~47M instructions of
``sizing-bot ask``'s ~1,100M (callgrind, 2026-12-03). The build (``hatch_build.py``) writes the built
index's plain data to :data:`STORE_FILE` (``marshal``) and :func:`stored_model_index` reads it back.

**The same index, or none.** The file holds a key: the interpreter's cache tag and a SHA-256 of the
source files whose code builds the index (:data:`SOURCES`) and of what it is built from (each catalog
model's id and aliases, in catalog order). The stored index is used only when this process computes the
same key; after any edit to those files or to the catalog (a checkout, an editable install not rebuilt)
the index is built as before. An absent, unreadable or foreign file: built as before. Nothing is kept
across messages but the index itself (as the built one is: ``functools.cache``).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from collections.abc import Mapping
from typing import Any

_HERE = os.path.dirname(__file__)
STORE_FILE = os.path.join(_HERE, "_name_indexes.marshal")
"""The stored index (written by the build, gitignored; may be absent)."""

SOURCES = ("models.py", "lexicon.py", "regex.py")
"""The files of ``bot/parse`` whose code the model index is built by: ``_model_index`` and its helpers,
the lexicon's family words and Chinese names, ``starts_with_one_of`` (the index's regex sources)."""

ModelIndexData = tuple[dict[str, str], str, list[tuple[Any, ...]], str, tuple[str, ...]]
"""(compact alias → model id, the starts pattern's source, each key's fields, the family pattern's source,
the family words): :class:`bot.parse.models._ModelIndex` as plain data."""


def index_key(models: Mapping[str, Any]) -> str:
    """The key of the model index built from ``models`` (catalog id → ModelSpec) by this checkout's
    code (:data:`SOURCES` read as bytes). Raises OSError when a source file cannot be read."""
    h = hashlib.sha256((sys.implementation.cache_tag or "").encode())
    for m in models.values():
        h.update("\x1e".join((m.id, *m.aliases, "\x1f")).encode())
    for name in SOURCES:
        with open(os.path.join(_HERE, name), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def stored_model_index(models: Mapping[str, Any], path: str = STORE_FILE) -> ModelIndexData | None:
    """The stored model index when it was built from ``models`` by this code (see the module), else None."""
    try:
        with open(path, "rb") as fh:
            data = marshal.loads(fh.read())
        if isinstance(data, dict) and data.get("key") == index_key(models):
            return data["models"]
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        pass
    return None


def write(path: str = STORE_FILE) -> int:
    """Build the model index from the catalog and store it in ``path`` (the build); returns the count of
    names stored."""
    from bot.parse.models import built_model_index
    from estimator import catalog

    models = catalog.models()
    index = built_model_index(models)
    keys = [(k.fam, k.ver, k.size, k.act, k.model_id) for k in index.keys]
    stored = (index.names, index.starts.pattern, keys, index.regex.pattern, index.families)
    with open(path, "wb") as fh:
        fh.write(marshal.dumps({"key": index_key(models), "models": stored}))
    return len(index.names)
