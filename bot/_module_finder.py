"""Our own modules found and loaded with fewer steps than the standard path finder (issue 23 item 7,
``sizing-bot ask`` start-up).

A plain ``ask`` imports ~390 modules of ``bot`` and ``estimator``. Each import through the standard
machinery (``sys.meta_path``'s finders in turn, ``PathFinder`` → ``FileFinder`` → ``spec_from_file_location``,
then ``SourceFileLoader.get_code``: ``cache_from_source``, ``path_stats``, ``_classify_pyc``,
``_validate_timestamp_pyc``) costs ~300k instructions before the module's body runs, ~130k of it in those
Python-level steps (callgrind, CPython 3.11, 200 one-line modules: 302k a module; found here 192k).
:class:`Finder` answers the submodules (not packages) of the packages it is given from one listing of each
folder: the module's ``.py`` file and its ``__pycache__`` file, a :class:`~importlib.machinery.ModuleSpec`
with a :class:`Loader` (a ``SourceFileLoader``: sources, resources, ``inspect`` and reloads as before)
whose :meth:`Loader.get_code` reads the ``.pyc`` and checks it as CPython does for a timestamp ``.pyc``
(magic number, flags 0, the source's mtime and size; ``importlib._bootstrap_external._validate_timestamp_pyc``
@ v3.11.7). Anything else (a package, a name with an extension module or a folder beside it, no ``.py``,
a hash-based or stale ``.pyc``, no ``.pyc``, a ``.pyc`` whose body is not a code object, a listed file gone
since) goes the standard way, which writes the ``.pyc`` as before. Where the interpreter lacks the private
``_imp._fix_co_filename`` this finder needs, :func:`install` puts nothing: every import goes the standard way.
"""

from __future__ import annotations

import marshal
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import MAGIC_NUMBER
from types import CodeType, ModuleType

try:  # private (CPython's own loaders use it): without it, install() puts no finder
    from _imp import _fix_co_filename  # type: ignore[import-not-found]
except ImportError:  # an interpreter without it (tests/test_s31_fixg.py)
    _fix_co_filename = None


class _Module(ModuleType):
    """The type of the plain modules :class:`Loader` makes: a ``ModuleType`` whose class holds
    ``__path__ = ()`` while one of those modules' bodies runs (:meth:`Loader.exec_module`), and none
    otherwise; the instances never hold one in their ``__dict__`` once their body runs.

    Each ``from module import name`` statement makes CPython's ``PyImport_ImportModuleLevelObject`` ask the
    module for ``__path__`` (``_PyObject_LookupAttr``, @ v3.11.7 Python/import.c): a plain ``ModuleType``
    has none, and ``module_getattro`` formats two messages (the generic look-up's, then its own), builds
    and clears an ``AttributeError``; found, the same statement calls ``importlib._bootstrap.
    _handle_fromlist``, which returns the module once ``hasattr`` finds each name (~half the instructions,
    but a Python frame). A plain ``ask`` runs ~1,700 such statements on our plain modules while their
    bodies run (bench/RESULTS.md session 45); after, a function's own ``from module import name`` (a reader
    imported on first use) takes CPython's path again: no frame more per message
    (tests/test_parse_render_speed.py counts them). While a body runs, ``hasattr(module, '__path__')`` is
    true (the spec is unchanged: ``submodule_search_locations`` None, ``__package__`` the parent);
    ``import module.name`` searches no folder (an empty path) and raises ``ModuleNotFoundError`` "No module
    named 'module.name'" without "; 'module' is not a package"; ``from module import missing`` raises the
    same ``ImportError`` as before (``_handle_fromlist`` finds no such submodule, then ``IMPORT_FROM``
    reports the name)."""


_running = 0
"""How many of :class:`Loader`'s module bodies are running (nested imports): ``_Module.__path__`` is set
while it is not 0."""


class Loader(SourceFileLoader):
    """A ``SourceFileLoader`` whose code comes from its ``.pyc`` (``cached``) when that is current."""

    cached = ""
    stat: os.stat_result | None = None  # the source's, taken by Finder.find_spec: used once, then os.stat

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        """A new :class:`_Module` that holds ``__file__`` and ``__cached__`` already (the values,
        ``spec.origin`` and ``spec.cached``, and the dict order that
        ``importlib._bootstrap._init_module_attrs`` gives it next) and ``__path__ = None`` (which that
        function reads as "not a package" and :meth:`exec_module` removes before the body runs). Each
        ``getattr(module, '__path__' / '__file__' / '__cached__', None)`` of ``_init_module_attrs`` then
        finds a value instead of raising and catching an ``AttributeError``:
        for a module still being set up, two formatted messages and a look-up of ``spec._initializing``,
        ~11k instructions each, three a module, ~430 modules of a plain ``ask`` (−12M instructions of
        ~1,007M, callgrind; bench/RESULTS.md session 44). The module ``exec_module`` runs is the same."""
        module = _Module(spec.name)
        module.__path__ = None  # type: ignore[attr-defined]  # "not a package": dropped by exec_module
        module.__file__ = spec.origin
        module.__cached__ = spec.cached
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Drop :meth:`create_module`'s ``__path__`` (a plain module has none), then run the module as
        ``SourceFileLoader`` does, ``_Module.__path__`` set while it runs (see :class:`_Module`)."""
        global _running
        if module.__dict__.get("__path__", 0) is None:
            del module.__path__
        if not _running:
            _Module.__path__ = ()  # type: ignore[attr-defined]
        _running += 1
        try:
            super().exec_module(module)
        finally:
            _running -= 1
            if not _running and "__path__" in _Module.__dict__:  # (threads importing at once)
                del _Module.__path__  # type: ignore[attr-defined]

    def get_code(self, fullname: str) -> object:
        """The module's code object from ``self.cached`` when its header is CPython's for this source
        (16 bytes: magic, flags 0, mtime and size of the source modulo 2**32) and its body a code object;
        otherwise as ``SourceFileLoader`` (compiles the source and writes the ``.pyc``)."""
        path = self.path
        stat, self.stat = self.stat, None
        try:
            with open(self.cached, "rb", buffering=0) as fh:
                data = fh.readall()
            if stat is None:
                stat = os.stat(path)
        except OSError:
            return super().get_code(fullname)
        if (
            data[:8] != _HEADER
            or int.from_bytes(data[8:12], "little") != int(stat.st_mtime) & 0xFFFFFFFF
            or int.from_bytes(data[12:16], "little") != stat.st_size & 0xFFFFFFFF
        ):
            return super().get_code(fullname)
        try:
            code = marshal.loads(memoryview(data)[16:])
        except (EOFError, ValueError, TypeError):  # a truncated or foreign body: CPython's path decides
            return super().get_code(fullname)
        if type(code) is not CodeType:  # CPython raises ImportError ("Non-code object"): its path decides
            return super().get_code(fullname)
        _fix_co_filename(code, path)
        return code


_HEADER = MAGIC_NUMBER + b"\0\0\0\0"
_TAG = f".{sys.implementation.cache_tag}.pyc"
_SEP = os.sep


def _extension_stems(entries: list[str]) -> set[str]:
    suffixes = tuple(EXTENSION_SUFFIXES)
    return {entry.partition(".")[0] for entry in entries if entry.endswith(suffixes)}


class Finder:
    """A ``sys.meta_path`` finder for the plain-file submodules of ``packages`` (top-level names)."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self.packages = frozenset(packages)
        self.folders: dict[str, frozenset[str]] = {}

    def modules_in(self, folder: str) -> frozenset[str]:
        """The names in ``folder`` that are a ``name.py`` file with no ``name`` entry (a folder) or extension
        module beside it (the path finder prefers those), read once."""
        names = self.folders.get(folder)
        if names is None:
            try:
                entries = os.listdir(folder)
            except OSError:
                entries = []
            sources = {entry[:-3] for entry in entries if entry.endswith(".py")}
            names = self.folders[folder] = frozenset(sources - set(entries) - _extension_stems(entries))
        return names

    def invalidate_caches(self) -> None:
        """Forget the folders' listings (``importlib.invalidate_caches``: files added or removed since)."""
        self.folders.clear()

    def find_spec(self, name: str, path: list[str] | None = None, target: object = None) -> ModuleSpec | None:
        if path is None or len(path) != 1 or name.partition(".")[0] not in self.packages:
            return None
        folder = path[0]
        tail = name.rpartition(".")[2]
        if tail not in (self.folders.get(folder) or self.modules_in(folder)):
            return None
        origin = f"{folder}{_SEP}{tail}.py"  # a package's folder as the path finder names it: no trailing /
        try:
            stat = os.stat(origin)  # the stat get_code needs, taken here: a file gone since the listing
        except OSError:  # (removed while the process runs) goes to the standard finder, listing re-read
            self.folders.pop(folder, None)
            return None
        loader = Loader(name, origin)
        loader.stat = stat
        loader.cached = f"{folder}{_SEP}__pycache__{_SEP}{tail}{_TAG}"
        spec = ModuleSpec(name, loader, origin=origin)
        spec.has_location = True
        spec.cached = loader.cached
        return spec


def install(packages: tuple[str, ...] = ("bot", "estimator")) -> bool:
    """Put a :class:`Finder` for ``packages`` first on ``sys.meta_path`` (once). False, and nothing put,
    where ``.pyc`` files are not beside their sources as above (``sys.pycache_prefix``, ``-O``, an
    interpreter without a cache tag) or the interpreter lacks ``_imp._fix_co_filename``."""
    if any(isinstance(finder, Finder) for finder in sys.meta_path):
        return True
    if (
        _fix_co_filename is None
        or sys.pycache_prefix
        or sys.flags.optimize
        or not sys.implementation.cache_tag
    ):
        return False
    sys.meta_path.insert(0, Finder(packages))
    return True
