"""Issue 23 item 7, ``ask`` start-up: :mod:`bot._module_finder` finds our plain-file submodules and loads
their current ``.pyc`` as CPython does, and leaves everything else to the standard path finder."""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import py_compile
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import _module_finder
from bot._module_finder import Finder, Loader
from tests.startup_probe import ROOT

PACKAGE = "s31finderpkg"


@contextlib.contextmanager
def finder_package(tmp_path: Path, name: str) -> Iterator[tuple[Path, Finder]]:
    """A package ``name`` on ``sys.path`` with a module ``m`` (``X = 1``), found by a :class:`Finder` put
    first on ``sys.meta_path``; all of it removed afterwards (also used by tests/test_s31_fixg.py)."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    (folder / "m.py").write_text("X = 1\n", encoding="utf-8")
    finder = Finder((name,))
    sys.path.insert(0, str(tmp_path))
    sys.meta_path.insert(0, finder)
    try:
        yield folder, finder
    finally:
        sys.meta_path.remove(finder)
        sys.path.remove(str(tmp_path))
        for loaded in [n for n in sys.modules if n.partition(".")[0] == name]:
            del sys.modules[loaded]
        importlib.invalidate_caches()


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``s31finderpkg`` from :func:`finder_package`, ``.pyc`` files written."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    with finder_package(tmp_path, PACKAGE) as (folder, _):
        yield folder


def _fresh(name: str) -> object:
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def test_our_modules_come_from_the_finder_with_the_path_finders_attributes() -> None:
    import bot.parse.numbers as numbers

    spec = numbers.__spec__
    assert type(spec.loader) is Loader
    assert numbers.__file__ == os.path.join(os.path.dirname(bot_parse_file()), "numbers.py")
    assert numbers.__cached__ == importlib.util.cache_from_source(numbers.__file__)
    assert spec.cached == numbers.__cached__ and spec.has_location and spec.parent == "bot.parse"
    assert "def " in inspect.getsource(numbers)
    # a package stays the path finder's
    import bot.parse

    assert type(bot.parse.__spec__.loader) is not Loader


def bot_parse_file() -> str:
    import bot.parse

    return str(bot.parse.__file__)


def test_a_current_pyc_is_read_and_a_stale_one_is_compiled_again(package: Path) -> None:
    source = package / "m.py"
    module = _fresh(f"{PACKAGE}.m")
    assert module.X == 1 and type(module.__spec__.loader) is Loader
    cached = Path(module.__cached__)
    assert cached.exists()  # written by the standard way on the first import
    # a .pyc whose header matches the source (mtime and size) is used, as CPython uses it
    stat = source.stat()
    source.write_text("X = 3\n", encoding="utf-8")  # same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _fresh(f"{PACKAGE}.m").X == 1
    # a changed size (or mtime) is compiled again and the .pyc rewritten
    source.write_text("X = 22\n", encoding="utf-8")
    assert _fresh(f"{PACKAGE}.m").X == 22
    assert _fresh(f"{PACKAGE}.m").X == 22


def test_a_hash_based_or_missing_pyc_goes_the_standard_way(package: Path) -> None:
    source = package / "m.py"
    cached = importlib.util.cache_from_source(str(source))
    checked = py_compile.PycInvalidationMode.CHECKED_HASH
    py_compile.compile(str(source), cfile=cached, invalidation_mode=checked)
    stat = source.stat()
    source.write_text("X = 4\n", encoding="utf-8")  # same size and mtime: only the hash tells
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _fresh(f"{PACKAGE}.m").X == 4
    os.remove(cached)
    assert _fresh(f"{PACKAGE}.m").X == 4


def test_what_the_finder_leaves_to_the_path_finder(package: Path) -> None:
    (package / "sub").mkdir()
    (package / "sub.py").write_text("X = 5\n", encoding="utf-8")  # a folder beside it: the folder wins
    (package / "ext.py").write_text("X = 6\n", encoding="utf-8")
    (package / f"ext{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    finder = Finder((PACKAGE,))
    path = [str(package)]
    assert finder.find_spec(f"{PACKAGE}.m", path) is not None
    assert finder.find_spec(f"{PACKAGE}.sub", path) is None
    assert finder.find_spec(f"{PACKAGE}.ext", path) is None
    assert finder.find_spec(f"{PACKAGE}.absent", path) is None
    assert finder.find_spec(PACKAGE, None) is None
    assert finder.find_spec("other.m", path) is None
    assert finder.find_spec(f"{PACKAGE}.m", [str(package), str(package)]) is None
    (package / "later.py").write_text("X = 7\n", encoding="utf-8")
    assert finder.find_spec(f"{PACKAGE}.later", path) is None  # listed before it was written
    finder.invalidate_caches()
    assert finder.find_spec(f"{PACKAGE}.later", path) is not None


def test_install_puts_one_finder_first_unless_pycs_live_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sum(isinstance(f, Finder) for f in sys.meta_path) == 1
    assert _module_finder.install()
    assert sum(isinstance(f, Finder) for f in sys.meta_path) == 1
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, Finder)])
    monkeypatch.setattr(sys, "pycache_prefix", "/tmp/elsewhere")
    assert not _module_finder.install()
    assert not any(isinstance(f, Finder) for f in sys.meta_path)


def test_a_fresh_ask_loads_our_modules_through_the_finder() -> None:
    """Every module of ``bot`` and ``estimator`` a start imports but the packages (and the two the
    finder itself needs first) comes through it, and the answer is the seed's."""
    probe = (
        "import sys; from bot.cli import main; main(['ask', sys.argv[1]]); "
        "from bot._module_finder import Loader; "
        "ours = [m for n, m in sys.modules.items() if n.partition('.')[0] in ('bot', 'estimator')]; "
        "print(len(ours), sorted(m.__name__ for m in ours if type(m.__spec__.loader) is not Loader "
        "and not hasattr(m, '__path__')))"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", probe, "7B模型1万亿token要多少A100"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    *reply, loaded = done.stdout.strip().splitlines()
    assert "93,483" in "\n".join(reply)
    count, others = loaded.split(" ", 1)
    assert int(count) > 300
    assert ast.literal_eval(others) == ["bot._module_finder"]
