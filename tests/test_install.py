"""A plain (non-editable) install into a fresh virtual environment works from any directory:
templates, translations and catalogs are found inside the installed package.

Offline: the wheel is built from a copy of this checkout (its build hook writes compiled catalogs,
templates and code into the source tree, which tests running in other pytest-xdist workers read at
the same time) with the running interpreter (hatchling from the test extras, no build isolation, no
index), installed into a new venv without dependencies, and
the dependencies are borrowed from the running environment through a .pth path line (plain paths
only, so this checkout's own editable install is not on the new venv's path).
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv*", "__pycache__", "*.egg-info", "build", "dist", ".*_cache", ".hypothesis"
)
"""What the wheel build's copy of the checkout leaves out: version control, virtual environments,
caches and earlier build output (the wheel's files are selected by hatchling all the same)."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    wheels = tmp_path_factory.mktemp("wheels")
    source = tmp_path_factory.mktemp("source") / "checkout"
    shutil.copytree(REPO, source, ignore=NOT_SOURCES)
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(wheels),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    [wheel] = wheels.glob("*.whl")
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    install = subprocess.run(
        [
            str(py),
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    site = Path(
        subprocess.check_output(
            [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (site / "zz_borrowed_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env_dir


def _run(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TELEGRAM_BOT_TOKEN")}
    return subprocess.run(
        [str(env_dir / "bin" / "sizing-bot"), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_installed_cli_answers_from_another_directory(installed, tmp_path):
    where = subprocess.check_output(
        [str(installed / "bin" / "python"), "-c", "import bot; print(bot.__file__)"], text=True, cwd=tmp_path
    )
    assert str(installed) in where, f"bot imported from {where}, not the installed wheel"
    proc = _run(installed, "ask", "7B模型1万亿token要多少A100", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "93,483" in proc.stdout
    assert "Traceback" not in proc.stderr
    assert "张" in proc.stdout  # translations came from the installed package: the reply is Chinese


def test_installed_cli_json_contract(installed, tmp_path):
    proc = _run(
        installed,
        "ask",
        "--format",
        "json",
        "How long to pretrain a 70B model on 2T tokens with 1024 H100s?",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema"] == 1 and data["lang"] == "en" and data["understood"] is True
    assert data["request"]["gpu"].startswith("H100")
    assert data["report"]["flops"] == pytest.approx(8.4e23)


def test_installed_run_without_token_exits_2(installed, tmp_path):
    proc = _run(installed, "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert "TELEGRAM_BOT_TOKEN" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_wheel_ships_compiled_catalogs_and_ask_writes_nothing_in_the_package(installed, tmp_path):
    pkg = Path(
        subprocess.check_output(
            [str(installed / "bin" / "python"), "-c", "import bot, os; print(os.path.dirname(bot.__file__))"],
            text=True,
            cwd=tmp_path,
        ).strip()
    )
    assert (pkg / "locales" / "zh_CN" / "LC_MESSAGES" / "messages.mo").is_file()

    def listing() -> dict[str, float]:
        return {str(p): p.stat().st_mtime for p in pkg.rglob("*") if "__pycache__" not in p.parts}

    before = listing()
    proc = _run(installed, "ask", "部署70B推理需要几张A100", cwd=tmp_path)
    assert proc.returncode == 0 and "张" in proc.stdout
    assert listing() == before  # no catalog compiled, no file written inside the package


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_the_installed_package_reads_the_compiled_catalog_not_the_toml_files(installed, tmp_path):
    """Issue 23 item 7: the wheel ships estimator/data/_compiled.json and the installed package uses it
    (before: not shipped, and its timestamp check would have rejected it after an install)."""
    code = (
        "import estimator.catalog as c, tomllib; calls = []; real = tomllib.load; "
        "tomllib.load = lambda *a, **k: calls.append(1) or real(*a, **k); "
        "c.gpus(); c.models(); c.prices(); print(c._compiled() is not None, len(calls))"
    )
    out = subprocess.check_output([str(installed / "bin" / "python"), "-c", code], text=True, cwd=tmp_path)
    assert out.split() == ["True", "0"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_the_installed_package_ships_and_reads_the_parsers_regex_code(installed, tmp_path):
    """Issue 23 item 7 (S6-start): the wheel ships bot/parse/_compiled_regex.marshal for the interpreter
    that built it, and the installed parser compiles its patterns from it, not from their source."""
    code = (
        "from bot.parse import regex; import bot.parse; seen = []; real = regex.re.compile\n"
        "class R:\n    def compile(self, p, f=0): seen.append(p); return real(p, f)\n"
        "regex.re = R(); bot.parse.parse('部署70B推理需要几张A100')\n"
        "print(len(regex._stored_codes()), len(seen))"
    )
    out = subprocess.check_output([str(installed / "bin" / "python"), "-c", code], text=True, cwd=tmp_path)
    stored, compiled = map(int, out.split())
    assert stored > 250 and compiled <= 1  # at most the first question's subset of GPU names


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_the_installed_package_ships_the_dataclass_code_and_ask_compiles_none(installed, tmp_path):
    """Issue 23 item 7: the wheel ships estimator/_dataclass_code.marshal for the interpreter that built
    it, and ``sizing-bot ask`` makes every dataclass method (ours, pydantic's) from it: none compiled."""
    code = (
        "import contextlib, io, estimator._dataclass_code as d; misses = []; real = d.compile_text\n"
        "d.compile_text = lambda t: misses.append(t) or real(t)\n"
        "from bot.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['ask', '部署70B推理需要几张A100'])\n"
        "print(len(d._stored), len(misses))"
    )
    out = subprocess.check_output([str(installed / "bin" / "python"), "-c", code], text=True, cwd=tmp_path)
    stored, compiled = map(int, out.split())
    assert stored > 300 and compiled == 0
