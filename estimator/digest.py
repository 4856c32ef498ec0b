"""The digest that ties the compiled catalog (``data/_compiled.json``) to the TOML files it was made of.

Standard library only: ``hatch_build.py`` loads this file by path in the build environment (hatchling,
Babel and Jinja only), and :mod:`estimator.catalog` checks it when the files' times cannot tell (an
installed wheel: every file carries the install time).
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

DIGEST_KEY = "_sources_crc32"
"""The compiled catalog's key holding :func:`sources_digest` of the files it was compiled from (was
``_sources_sha256`` before session 24: a catalog compiled then has no digest here and is compiled
again from its TOML files, never read as fresh)."""


def sources(data: Path) -> list[Path]:
    """The TOML files the compiled catalog is made of (``data/``), in a fixed order."""
    return [data / name for name in _source_names(str(data))]


def _source_names(data: str) -> list[str]:
    """:func:`sources` as names relative to ``data`` (``models/…``), with ``os`` (no pathlib glob: ~4×
    cheaper on ``ask``'s start-up); the same names in the same order."""
    try:
        found = sorted(n for n in os.listdir(os.path.join(data, "models")) if n.endswith(".toml"))
    except OSError:
        found = []
    return ["gpus.toml", "prices.toml", *(f"models/{n}" for n in found)]


def sources_digest(data: Path) -> str:
    """A cache key of :func:`sources` (27 files, ~290 kB): their count, and each file's relative name, size
    and CRC-32 (``zlib.crc32``, chained), as hex. Not SHA-256 (until session 24): the key only tells a
    compiled catalog from the files it was compiled from, and SHA-256 of the files was ~9M instructions
    (~0.8 %) of every ``sizing-bot ask`` start in a wheel, where file times cannot tell; CRC-32 is ~0.3M.
    An edit that keeps a file's size and its CRC-32 goes unseen with probability 2**-32 (the catalog
    ``.mo`` store's key, bot/render/catalog_store.py, is the same length + CRC-32)."""
    root = str(data)
    names = _source_names(root)
    crc, parts = 0, [str(len(names))]
    for name in names:
        with open(os.path.join(root, name), "rb") as fh:
            content = fh.read()
        crc = zlib.crc32(content, zlib.crc32(f"{name}\0{len(content)}\0".encode(), crc))
        parts.append(f"{len(content):x}")
    return f"{crc:08x}-" + "-".join(parts)
