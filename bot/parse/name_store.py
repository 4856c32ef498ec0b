"""The parser's indexes of catalog model and GPU names, stored by the build so a start does not build
them again (issue 23 item 7, start-up).

:func:`bot.parse.model_index._model_index` builds, on a process's first question, the index of every catalog
model's id and aliases (~180 models, ~900 names: each name lower-cased, its Chinese family words
replaced, compacted and tokenized; the family alternation; each id matched once): ~40M instructions of
``sizing-bot ask``'s ~1,100M (callgrind, 2026-12-03); :func:`bot.parse.gpus._gpu_index` the cards'
names (each alias normalized, each name's regex): ~10M. The build (``hatch_build.py``) writes both
indexes' plain data to :data:`STORE_FILE` (``marshal``) and :func:`stored_model_index` /
:func:`stored_gpu_index` read them back; the patterns are made from the stored sources as before.

**The same index, or none.** Each index is stored with a key: the interpreter's cache tag and a CRC-32 and
the lengths of the source files whose code builds it (:data:`SOURCES`, :data:`GPU_SOURCES`) and of what it
is built from (each catalog entry's id, aliases and what else the index reads, in catalog order). A stored
index is used only when this process computes the same key; after any edit (but one in 2**32 that keeps
every length and the CRC-32: :func:`_key`) to those files or to the catalog (a checkout, an editable install
not rebuilt) the index is built as before. An absent, unreadable or foreign file: built as before. Nothing
is kept across messages but the index itself (as the built one is: ``functools.cache``).
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Mapping
from typing import Any

_HERE = os.path.dirname(__file__)
STORE_FILE = os.path.join(_HERE, "_name_indexes.marshal")
"""The stored indexes (written by the build, gitignored; may be absent)."""

SOURCES = ("models.py", "model_index.py", "lexicon.py", "regex.py")
"""The files of ``bot/parse`` whose code the model index is built by: ``_model_index`` and its helpers,
the lexicon's family words and Chinese names, ``starts_with_one_of`` (the index's regex sources)."""

GPU_SOURCES = ("gpus.py", os.path.join("..", "..", "estimator", "catalog.py"))
"""The files whose code the GPU index is built by: ``_gpu_index`` and its helpers, the catalog's default
card of each family."""

ModelIndexData = tuple[dict[str, str], str, list[tuple[Any, ...]], str, tuple[str, ...]]
"""(compact alias → model id, the starts pattern's source, each key's fields, the family pattern's source,
the family words): :class:`bot.parse.model_index._ModelIndex` as plain data."""

GpuIndexData = tuple[dict[str, str], list[tuple[str, tuple[str, ...]]], dict[str, list[str]], str]
"""(normalized alias → GPU id, each name's regex and literal chunks, family → ids, the names' first
characters): what :func:`bot.parse.gpus._gpu_index` builds its patterns from."""


def _key(rows: list[tuple[str, ...]], sources: tuple[str, ...]) -> str:
    """The interpreter's cache tag, the catalog ``rows`` and the ``sources``' bytes as a cache key: each
    part's length and a CRC-32 chained over all (``zlib.crc32``; SHA-256 until session 24 cost ~4M
    instructions of every ``ask`` start, CRC-32 ~0.2M; an edit that keeps every length and the CRC
    goes unseen with probability 2**-32, as the catalog digest, estimator/digest.py)."""
    head = (sys.implementation.cache_tag or "").encode()
    crc, lengths = zlib.crc32(head), [len(head)]
    text = "".join("\x1e".join((*row, "\x1f")) for row in rows).encode()
    crc = zlib.crc32(text, crc)
    lengths.append(len(text))
    for name in sources:
        with open(os.path.join(_HERE, name), "rb") as fh:
            content = fh.read()
        crc = zlib.crc32(content, crc)
        lengths.append(len(content))
    return f"{crc:08x}-" + "-".join(f"{n:x}" for n in lengths)


def index_key(models: Mapping[str, Any]) -> str:
    """The key of the model index built from ``models`` (catalog id → ModelSpec) by this checkout's
    code (:data:`SOURCES` read as bytes). Raises OSError when a source file cannot be read."""
    return _key([(m.id, *m.aliases) for m in models.values()], SOURCES)


def gpu_index_key(gpus: Mapping[str, Any]) -> str:
    """The key of the GPU index built from ``gpus`` (catalog id → GpuSpec) by this checkout's code
    (:data:`GPU_SOURCES`). Raises OSError when a source file cannot be read."""
    rows = [(g.id, g.family, str(g.default_for_family), *g.aliases) for g in gpus.values()]
    return _key(rows, GPU_SOURCES)


def _stored(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            data = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def stored_model_index(models: Mapping[str, Any], path: str = STORE_FILE) -> ModelIndexData | None:
    """The stored model index when it was built from ``models`` by this code (see the module), else None."""
    data = _stored(path)
    try:
        return data["models"] if data.get("key") == index_key(models) else None
    except (OSError, KeyError):
        return None


def stored_model_index_for(
    rows: list[tuple[str, ...]] | None, path: str = STORE_FILE
) -> ModelIndexData | None:
    """The stored model index when it was built from a catalog whose (id, *aliases) ``rows`` (in catalog
    order: :func:`estimator.catalog.model_rows`, read from the files unvalidated) are these, by this code;
    else None (also for ``rows`` None). The same key as :func:`index_key` of the validated models: a plain
    ``ask`` names no catalog model and so builds no ``ModelSpec`` (~15M instructions; bench/RESULTS.md
    session 30 s30-spgate); a catalog that does not validate is reported when a model is first read."""
    if rows is None:
        return None
    data = _stored(path)
    try:
        return data["models"] if data.get("key") == _key(rows, SOURCES) else None
    except (OSError, KeyError, TypeError):  # TypeError: a row of other than strings
        return None


def stored_gpu_index(gpus: Mapping[str, Any], path: str = STORE_FILE) -> GpuIndexData | None:
    """The stored GPU index when it was built from ``gpus`` by this code, else None."""
    data = _stored(path)
    try:
        return data["gpus"] if data.get("gpu_key") == gpu_index_key(gpus) else None
    except (OSError, KeyError):
        return None


def write(path: str = STORE_FILE) -> int:
    """Build the model and GPU indexes from the catalog and store them in ``path`` (the build); returns
    the count of names stored."""
    from bot.parse.gpus import built_gpu_names
    from bot.parse.model_index import built_model_index
    from estimator import catalog

    models, gpus = catalog.models(), catalog.gpus()
    index = built_model_index(models)
    keys = [(k.fam, k.ver, k.size, k.act, k.model_id) for k in index.keys]
    stored = (index.names, index.starts.pattern, keys, index.regex.pattern, index.families)
    gpu_names = built_gpu_names(gpus)
    data = {"key": index_key(models), "models": stored, "gpu_key": gpu_index_key(gpus), "gpus": gpu_names}
    with open(path, "wb") as fh:
        fh.write(marshal.dumps(data))
    return len(index.names) + len(gpu_names[0])
