"""``aiolimiter`` imported without ``importlib.metadata`` when its version can be read the same way.

PTB's ``telegram.ext`` imports ``telegram.ext._aioratelimiter``, which imports ``aiolimiter`` (the bot's
``AIORateLimiter``), whose ``__init__`` is ``from importlib.metadata import version`` then
``__version__ = version("aiolimiter")``: that one line loads ``importlib.metadata`` with ``zipfile``,
``csv`` and its helpers, ~1.4 MiB of the idle bot's RSS (measured 2026-12-04, bench/RESULTS.md session
24), for a version string nothing in the bot reads.

:data:`FINDER` (a ``sys.meta_path`` finder, put first by :mod:`bot.telegram` before PTB is imported, and
taken off at its first use) finds ``aiolimiter`` as the path finder does and runs its ``__init__`` with an
``__import__`` that answers that one import with the version read from the distribution's ``METADATA``,
found as ``importlib.metadata``'s path finder finds it (CPython 3.11 ``importlib/metadata/__init__.py``:
``FastPath.search`` over ``sys.path`` in order, names lower-cased and ``-_.`` runs normalized, the first
``.dist-info`` match; its ``Version`` header). Anything this does not read that way (an ``.egg-info`` or
two candidates in one folder, a zip on ``sys.path``, another distribution finder on ``sys.meta_path``,
an unreadable file, ``importlib.metadata`` already imported, a loader without ``get_code``) falls back to
the plain import: then ``aiolimiter`` imports ``importlib.metadata`` itself, as before.
"""

from __future__ import annotations

import builtins
import os
import re
import sys
from types import ModuleType
from typing import Any

NAME = "aiolimiter"
METADATA_MODULE = "importlib.metadata"


def _normalized(name: str) -> str:
    """``importlib.metadata.Prepared.normalize``: runs of ``-_.`` as one ``_``, lower case."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _other_metadata_finders() -> bool:
    """Whether ``sys.meta_path`` has a distribution finder besides the standard path finder."""
    from importlib.machinery import PathFinder

    return any(f is not PathFinder and hasattr(f, "find_distributions") for f in sys.meta_path)


def _version_header(metadata: str) -> str | None:
    """The first ``Version:`` header of a core-metadata file (the headers end at the first blank line)."""
    for line in metadata.splitlines():
        if not line.strip():
            return None
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() == "version":
            return value.strip()
    return None


def dist_version(name: str) -> str | None:
    """The version ``importlib.metadata.version(name)`` gives, read the way its path finder reads it, or
    None wherever this reading could differ from it (see the module)."""
    if _other_metadata_finders():
        return None
    wanted = _normalized(name)
    for entry in sys.path:
        if not isinstance(entry, str):
            return None
        root = entry or "."
        if os.path.exists(root) and not os.path.isdir(root):
            return None  # a zip: importlib.metadata reads inside it
        try:
            children = os.listdir(root)
        except OSError:
            continue  # importlib.metadata skips a missing or unreadable folder as well
        found = [
            child
            for child in children
            if child.lower().endswith((".dist-info", ".egg-info"))
            and _normalized(child.lower().rpartition(".")[0].partition("-")[0]) == wanted
        ]
        if not found:
            continue
        if len(found) > 1 or not found[0].lower().endswith(".dist-info"):
            return None
        try:
            with open(os.path.join(root, found[0], "METADATA"), encoding="utf-8") as fh:
                return _version_header(fh.read())
        except (OSError, UnicodeDecodeError):
            return None
    return None


class _VersionOnly(ModuleType):
    """What ``from importlib.metadata import version`` in ``aiolimiter`` gets: ``version(name)`` of the
    version read, ``importlib.metadata``'s own answer for any other name."""

    def __init__(self, known: dict[str, str]) -> None:
        super().__init__(METADATA_MODULE)
        self._known = known

    def version(self, name: str) -> str:
        if name in self._known:
            return self._known[name]
        import importlib.metadata

        return importlib.metadata.version(name)


class _Loader:
    """Runs the package's code with :class:`_VersionOnly` answering its ``importlib.metadata`` import."""

    def __init__(self, loader: Any, version: str) -> None:
        self._loader, self._version = loader, version

    def __getattr__(self, attr: str) -> Any:  # the path loader's other methods (resources, source)
        return getattr(self._loader, attr)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        code = self._loader.get_code(module.__name__)
        shim = _VersionOnly({NAME: self._version})
        real_import = builtins.__import__

        def only_version(
            name: str, globals_: Any = None, locals_: Any = None, fromlist: Any = (), level: int = 0
        ) -> Any:
            if name == METADATA_MODULE and level == 0 and METADATA_MODULE not in sys.modules:
                return shim
            return real_import(name, globals_, locals_, fromlist, level)

        namespace = module.__dict__
        namespace["__builtins__"] = {**vars(builtins), "__import__": only_version}
        try:
            exec(code, namespace)
        finally:
            namespace["__builtins__"] = builtins


class _LimiterFinder:
    """A ``sys.meta_path`` finder for :data:`NAME` only; takes itself off at its first use."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != NAME:
            return None
        remove()
        from importlib.machinery import PathFinder

        spec = PathFinder.find_spec(name, path)
        if spec is None or METADATA_MODULE in sys.modules or not hasattr(spec.loader, "get_code"):
            return spec
        version = dist_version(NAME)
        if version is not None:
            spec.loader = _Loader(spec.loader, version)
        return spec


FINDER = _LimiterFinder()


def remove() -> None:
    """Take :data:`FINDER` off ``sys.meta_path``."""
    while FINDER in sys.meta_path:
        sys.meta_path.remove(FINDER)


def install() -> None:
    """Put :data:`FINDER` first on ``sys.meta_path`` unless ``aiolimiter`` is imported already."""
    if NAME not in sys.modules and FINDER not in sys.meta_path:
        sys.meta_path.insert(0, FINDER)
