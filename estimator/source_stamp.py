"""What tells a source tree's modules unchanged since its build (for :mod:`estimator._schema_store`).

A store of core schemas that an editable or source-tree build wrote is not trusted as a wheel's is (its
sources can be edited after the build), and making and comparing the ~45 declaration texts a first ``ask``
uses costs ~22M instructions (bench/RESULTS.md session 49). The build records :func:`sources_stamp` in the
store: each ``.py`` file under this tree's ``bot/`` and ``estimator/``, by path, modification time in
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

SOURCE_ROOTS = tuple(
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), folder)
    for folder in ("bot", "estimator")
)
"""The folders the declarations are made from (this tree's ``bot/`` and ``estimator/``)."""

_OURS = frozenset(("bot", "estimator"))


def _key(info: os.stat_result) -> int:
    return info.st_mtime_ns << 40 | info.st_size  # one int a file (the store's index is kept in memory)


def sources_stamp(roots: tuple[str, ...] | None = None) -> dict[str, int]:
    """Each ``.py`` file under ``roots`` (``__pycache__`` and hidden folders left out): path → its time and
    size as one int (the build; a start compares only the files of the modules it imports)."""
    stamp: dict[str, int] = {}
    for root in roots or SOURCE_ROOTS:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__" and not d.startswith("."))
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    stamp[path] = _key(os.stat(path))
    return stamp


class Stamp:
    """The stored stamp, checked against the modules imported so far (see the module)."""

    def __init__(self, stored: dict[str, int]) -> None:
        self.stored: dict[str, int] | None = stored
        self.checked: set[str] = set()
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
        return getattr(sys.modules.get(module), "__file__", None) in self.checked

    def _check(self, names: list[str]) -> bool:
        stored, checked, modules = self.stored or {}, self.checked, sys.modules
        for name in names:
            if name.partition(".")[0] not in _OURS:
                continue
            path = getattr(modules.get(name), "__file__", None)
            if path is None or path in checked:
                continue
            try:
                same = stored.get(path) == _key(os.stat(path))
            except OSError:
                same = False
            if not same:
                return False
            checked.add(path)
        return True
