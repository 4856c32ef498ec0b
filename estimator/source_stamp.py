"""What tells a source tree's modules unchanged since its build (for :mod:`estimator._schema_store`).

A store of core schemas that an editable or source-tree build wrote is not trusted as a wheel's is (its
sources can be edited after the build), and making and comparing the ~45 declaration texts a first ``ask``
uses costs ~22M instructions (bench/RESULTS.md session 49). The build records :func:`sources_stamp` in the
store: each ``.py`` file under this tree's ``bot/`` and ``estimator/``, by name, modification time in
nanoseconds and size (what Python's own bytecode cache trusts, to the second). A declaration is made by
the modules imported before it is used, so :class:`Stamp` compares the files of every ``bot``/``estimator``
module imported so far (``sys.modules``, the new ones at each use) and holds while each is as stamped: a
model declared in one of them is then used from the store without making its text. One module edited since
(another time or size), added since (not stamped), or a model declared anywhere else (no file, another
tree) and every declaration is compared as before.
"""

from __future__ import annotations

import os
import sys
import zlib

SOURCE_ROOTS = tuple(
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), folder)
    for folder in ("bot", "estimator")
)
"""The folders the declarations are made from (this tree's ``bot/`` and ``estimator/``)."""

_OURS = frozenset(("bot", "estimator"))


def _key(name: str, info: os.stat_result) -> int:
    """A file's entry: CRC-32 of its name, time and size (one small int a file: the stamp is held while the
    process runs; an edit that keeps the CRC goes unseen with probability 2**-32, as estimator.digest's)."""
    return zlib.crc32(f"{name}\0{info.st_mtime_ns}\0{info.st_size}".encode())


def sources_stamp(roots: tuple[str, ...] | None = None) -> frozenset[int]:
    """Each ``.py`` file under ``roots`` (``__pycache__`` and hidden folders left out), named relative to the
    folder holding them (``bot/cli.py``), as :func:`_key` (the build; a start checks only the files of the
    modules it imports)."""
    stamp: set[int] = set()
    for root in roots or SOURCE_ROOTS:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = [d for d in subfolders if d != "__pycache__" and not d.startswith(".")]
            for name in files:
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    stamp.add(_key(path[len(os.path.dirname(root)) + 1 :], os.stat(path)))
    return frozenset(stamp)


class Stamp:
    """The stored stamp, checked against the modules imported so far (see the module)."""

    def __init__(self, stored: frozenset[int]) -> None:
        self.stored: frozenset[int] | None = stored
        self.seen = 0  # how many of sys.modules' names were checked
        self.last: object = None  # the last of them

    def holds(self, module: str) -> bool:
        """Whether every module of ours imported so far is as stamped and ``module`` is one of them."""
        if self.stored is None:
            return False
        names = list(sys.modules)
        if len(names) != self.seen or names[self.seen - 1] != self.last:
            grown = len(names) > self.seen and self.seen and names[self.seen - 1] == self.last
            if not self._check(names[self.seen :] if grown else names):
                self.stored = None  # a module edited or added since the build: compared from now on
                return False
            self.seen, self.last = len(names), names[-1]
        ours = module.partition(".")[0] in _OURS  # a module of another package was never checked
        return ours and getattr(sys.modules.get(module), "__file__", None) is not None

    def _check(self, names: list[str]) -> bool:
        """Whether the file of each module of ours in ``names`` is as stamped (lookups hoisted and each
        root's prefix and cut made once: ~430 files on a plain start, session 51)."""
        stored, modules, stat, crc, ours = self.stored or frozenset(), sys.modules, os.stat, zlib.crc32, _OURS
        cuts = [(root + os.sep, len(os.path.dirname(root)) + 1) for root in SOURCE_ROOTS]
        for name in names:
            if name.partition(".")[0] not in ours:
                continue
            path = getattr(modules.get(name), "__file__", None)
            if path is None:
                continue
            cut = 0
            for prefix, at in cuts:
                if path.startswith(prefix):
                    cut = at
                    break
            if not cut:
                return False  # outside the roots: not stamped
            try:
                info = stat(path)
            except OSError:
                return False
            if crc(f"{path[cut:]}\0{info.st_mtime_ns}\0{info.st_size}".encode()) not in stored:
                return False  # as _key
        return True
