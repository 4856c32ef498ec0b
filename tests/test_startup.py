"""Issue 23 item 7, start-up and memory: the compiled catalog reaches an installed package, importing
``QuoteError`` (and the Telegram adapter) loads no PDF library, ``ask`` leaves pydantic-settings out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import estimator.catalog as catalog
from estimator.digest import DIGEST_KEY, sources_digest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "estimator" / "data"


@pytest.fixture
def installed_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalog data as a wheel installs it: every TOML file newer than the compiled JSON
    (install order), the JSON compiled by the build with its digest."""
    data = tmp_path / "data"
    shutil.copytree(DATA / "models", data / "models", ignore=shutil.ignore_patterns("*.json"))
    for name in ("gpus.toml", "prices.toml"):
        shutil.copy(DATA / name, data / name)
    compiled = {"gpus.toml": {"marker": "compiled"}, "models": {}, DIGEST_KEY: sources_digest(data)}
    (data / "_compiled.json").write_text(json.dumps(compiled), encoding="utf-8")
    later = time.time() + 60
    for path in data.rglob("*.toml"):
        os.utime(path, (later, later))
    monkeypatch.setattr(catalog, "_data", lambda: data)
    catalog._compiled.cache_clear()
    yield data
    catalog._compiled.cache_clear()


def test_an_installed_package_uses_the_compiled_catalog(installed_data: Path) -> None:
    """Before: every TOML file newer than the JSON (all carry the install time) → rejected → 27 TOML
    files parsed on every start. Now the recorded digest of the files matches → used."""
    assert catalog._compiled() is not None
    assert catalog._load("gpus.toml") == {"marker": "compiled"}


def test_an_edited_toml_file_still_wins_over_the_compiled_catalog(installed_data: Path) -> None:
    gpus = installed_data / "gpus.toml"
    gpus.write_text(gpus.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert catalog._compiled() is None
    assert "gpu" in catalog._load("gpus.toml")


def test_the_build_ships_the_compiled_catalog_as_an_artifact() -> None:
    """``estimator/data/_compiled.json`` is gitignored: without ``artifacts`` hatchling leaves it out
    of the wheel (it did: the installed bot never saw it)."""
    text = (ROOT / "hatch_build.py").read_text(encoding="utf-8")
    assert 'build_data.setdefault("artifacts", []).append("estimator/data/_compiled.json")' in text
    assert "DIGEST_KEY" in text


def _modules_after(code: str) -> list[str]:
    probe = f"import sys; {code}; print(sorted(m for m in ('fpdf', 'numpy', 'PIL') if m in sys.modules))"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_"))}
    done = subprocess.run(
        [sys.executable, "-c", probe], env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


def test_importing_quote_error_and_the_telegram_app_loads_no_pdf_library() -> None:
    """``sizing-bot run`` idle memory: fpdf, numpy and PIL cost +33.6 MiB and load on the first quote."""
    assert _modules_after("from bot.quote import QuoteError") == []
    assert _modules_after("import bot.telegram.app") == []
    assert _modules_after("from bot.quote.pdf import draw") == ["PIL", "fpdf", "numpy"]


def _gpu_matches(pattern: object, text: str) -> list[tuple[tuple[int, int], dict[str, str | None]]]:
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)] if pattern is not None else []


def test_the_first_texts_gpu_pattern_finds_exactly_what_the_full_one_finds() -> None:
    """The first text is matched with only the names whose chunks occur in it (no 6.5 kB alternation
    to compile for a one-question process); same matches as the full pattern, over every corpus
    question (as written and lower-cased) and the spellings below."""
    from bot.parse.gpus import _gpu_index

    questions = json.loads((ROOT / "tests" / "data" / "questions.json").read_text(encoding="utf-8"))
    texts = [q["text"] for q in questions] + [
        "8x h100 sxm 80gb", "rtx 4090 24g", "a100-40g pcie", "nvidia  a800", "mi300x", "h20 96gb", "2xh200",
        "910b 和 h800", "tesla v100s", "gh200 nvl", "l40s", "no gpu here",
    ]  # fmt: skip
    idx = _gpu_index()
    found = 0
    for text in texts + [t.lower() for t in texts]:
        full = _gpu_matches(idx.regex, text)
        idx.texts = 0
        assert _gpu_matches(idx.pattern_for(text), text) == full, text
        found += bool(full)
    idx.texts = 2
    assert found >= 100  # the corpus names GPUs: the comparison is not vacuous


def test_ask_never_compiles_the_full_gpu_alternation() -> None:
    probe = (
        "from bot.cli import main; main(['ask', '70B QLoRA on 2x RTX 4090 24G, then A100']); "
        "from bot.parse.gpus import _gpu_index; i = _gpu_index(); print(i.texts, i.regex._compiled is None)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_"))}
    done = subprocess.run(
        [sys.executable, "-c", probe], env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "1 True"
