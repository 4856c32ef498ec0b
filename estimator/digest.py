"""The digest that ties the compiled catalog (``data/_compiled.json``) to the TOML files it was made of.

Standard library only: ``hatch_build.py`` loads this file by path in the build environment (hatchling,
Babel and Jinja only), and :mod:`estimator.catalog` checks it when the files' times cannot tell (an
installed wheel: every file carries the install time).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

DIGEST_KEY = "_sources_sha256"
"""The compiled catalog's key holding :func:`sources_digest` of the files it was compiled from."""


def sources(data: Path) -> list[Path]:
    """The TOML files the compiled catalog is made of (``data/``), in a fixed order."""
    return [data / "gpus.toml", data / "prices.toml", *sorted((data / "models").glob("*.toml"))]


def sources_digest(data: Path) -> str:
    """SHA-256 over the relative names, sizes and bytes of :func:`sources` (27 files, ~0.3 ms)."""
    digest = hashlib.sha256()
    for path in sources(data):
        digest.update(f"{path.relative_to(data).as_posix()}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
