"""The digest that ties the compiled catalog (``data/_compiled.json``) to the TOML files it was made of.

Standard library only: ``hatch_build.py`` loads this file by path in the build environment (hatchling,
Babel and Jinja only), and :mod:`estimator.catalog` checks it when the files' times cannot tell (an
installed wheel: every file carries the install time).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

DIGEST_KEY = "_sources_sha256"
"""The compiled catalog's key holding :func:`sources_digest` of the files it was compiled from."""


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
    """SHA-256 over the relative names, sizes and bytes of :func:`sources` (27 files, ~0.3 ms)."""
    digest = hashlib.sha256()
    root = str(data)
    for name in _source_names(root):
        with open(os.path.join(root, name), "rb") as fh:
            content = fh.read()
        digest.update(f"{name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()
