"""Session 31 fix g: :mod:`bot._module_finder` against CPython's ``importlib._bootstrap_external``
(design review): a ``.pyc`` whose body is not a code object, a module file removed after its folder was
listed, and an interpreter without the private ``_imp._fix_co_filename`` all go the standard way."""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib.machinery import SourceFileLoader
from pathlib import Path

import pytest

from bot._module_finder import Finder, Loader
from tests.startup_probe import ROOT
from tests.test_startup_s31_finder import finder_package

PACKAGE = "s31fixgpkg"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Finder]]:
    """``s31fixgpkg`` and its finder (tests.test_startup_s31_finder.finder_package), ``.pyc`` written."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    with finder_package(tmp_path, PACKAGE) as made:
        yield made


def _fresh(name: str) -> object:
    sys.modules.pop(name, None)
    return importlib.import_module(name)


def _header_for(source: Path) -> bytes:
    stat = source.stat()
    return (
        importlib.util.MAGIC_NUMBER
        + b"\0\0\0\0"
        + (int(stat.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
        + (stat.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    )


def _outcome(loader: object, name: str) -> tuple[str, str]:
    try:
        code = loader.get_code(name)  # type: ignore[attr-defined]
    except Exception as error:
        return type(error).__name__, str(error)
    namespace: dict[str, object] = {}
    exec(code, namespace)
    return "X", str(namespace["X"])


@pytest.mark.parametrize("body", [marshal.dumps(42), marshal.dumps("X = 9"), b"", b"\xff\x00"])
def test_a_pyc_whose_body_is_not_a_code_object_is_the_standard_paths_to_judge(
    package: tuple[Path, Finder], body: bytes
) -> None:
    """CPython raises ImportError ("Non-code object") for a current header over an int or str, and
    marshal's EOFError/ValueError for a broken body. Before: the int/str came back as the module's code
    (``exec``: TypeError; ``exec`` of the str: X == 9); after: the standard loader's outcome exactly."""
    folder, finder = package
    source = folder / "m.py"
    cached = Path(importlib.util.cache_from_source(str(source)))
    cached.parent.mkdir(exist_ok=True)
    cached.write_bytes(_header_for(source) + body)
    spec = finder.find_spec(f"{PACKAGE}.m", [str(folder)])
    assert spec is not None and type(spec.loader) is Loader
    ours = _outcome(spec.loader, f"{PACKAGE}.m")
    standard = _outcome(SourceFileLoader(f"{PACKAGE}.m", str(source)), f"{PACKAGE}.m")
    assert ours == standard
    assert ours[0] in ("ImportError", "EOFError", "ValueError")
    if body[:1] in (b"\xe9", b"\xfa"):
        assert ours == ("ImportError", f"Non-code object in {str(cached)!r}")


def test_a_module_file_removed_after_the_listing_goes_to_the_standard_finder(
    package: tuple[Path, Finder],
) -> None:
    """Before: FileNotFoundError from the loader; after: ModuleNotFoundError, the listing dropped, and a
    package put in the file's place found by the path finder."""
    folder, finder = package
    (folder / "gone.py").write_text("X = 2\n", encoding="utf-8")
    (folder / "moved.py").write_text("X = 3\n", encoding="utf-8")
    assert {"gone", "moved", "m"} <= finder.modules_in(str(folder))
    os.remove(folder / "gone.py")
    sys.modules.pop(f"{PACKAGE}.gone", None)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"{PACKAGE}.gone")
    assert str(folder) not in finder.folders or "gone" not in finder.folders[str(folder)]
    os.remove(folder / "moved.py")
    (folder / "moved").mkdir()
    (folder / "moved" / "__init__.py").write_text("X = 4\n", encoding="utf-8")
    finder.folders[str(folder)] = frozenset({"m", "moved"})  # listed before the change
    sys.path_importer_cache.pop(str(folder), None)
    moved = _fresh(f"{PACKAGE}.moved")
    assert moved.X == 4 and type(moved.__spec__.loader) is not Loader
    assert _fresh(f"{PACKAGE}.m").X == 1


_NO_FIX = (
    "import sys, types, _imp; fake = types.ModuleType('_imp'); "
    "fake.__dict__.update({k: v for k, v in vars(_imp).items() if k != '_fix_co_filename'}); "
    "sys.modules['_imp'] = fake; "
    "from bot.cli import main; from bot._module_finder import Finder, Loader, install; "
    "main(['ask', sys.argv[1]]); "
    "ours = [m for n, m in sys.modules.items() if n.partition('.')[0] in ('bot', 'estimator')]; "
    "print(install(), any(isinstance(f, Finder) for f in sys.meta_path), len(ours), "
    "sum(type(m.__spec__.loader) is Loader for m in ours))"
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("7B模型训练2万亿token需要多少A100卡时", "186,966"),
        ("How many A100 GPU-hours to train a 7B model on 1T tokens?", "93,483"),
    ],
)
def test_without_fix_co_filename_no_finder_is_installed_and_ask_answers(question: str, expected: str) -> None:
    """Before: ``import bot`` raised ImportError; after: no finder, every module the standard way."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", _NO_FIX, question],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    *reply, last = done.stdout.strip().splitlines()
    assert expected in "\n".join(reply)
    installed, present, count, through = last.split()
    assert (installed, present, through) == ("False", "False", "0")
    assert int(count) > 300
