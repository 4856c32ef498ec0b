"""Files the product reads (offer, training runs, config.json, ``.env``) are read with a size cap
before any byte is parsed: ``/dev/zero`` or a 4 GB file ends with one line, never a MemoryError."""

from __future__ import annotations

from pathlib import Path


class TooLarge(ValueError):
    """The file has more than the cap; the message says so in one line."""


def read_bounded(path: str | Path, limit: int) -> bytes:
    """At most ``limit`` bytes of ``path``. Raises :class:`TooLarge` (more than ``limit`` bytes,
    found by reading one byte past it, so devices and pipes are covered too) or ``OSError``."""
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"{path}: too large: over {limit:,} bytes")
    return data


def decode_utf8(path: str | Path, data: bytes) -> str:
    """``data`` as UTF-8 text; ``ValueError`` naming the file and the first bad byte's offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text (byte {e.start:,}); save it as UTF-8") from None
