"""Issue 23 item 7, the idle bot's memory: ``aiolimiter`` (PTB's ``AIORateLimiter``) is imported without
``importlib.metadata`` (bot.telegram.limiter_version), with the version ``importlib.metadata`` gives; any
distribution layout the reader does not read as ``importlib.metadata`` does falls back to it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.telegram import limiter_version

ROOT = Path(__file__).resolve().parents[1]

BUILT = """
import sys
import bot.telegram.app as tg
from bot.telegram.config import BotSettings
app = tg.build_application(BotSettings(telegram_bot_token="1:x", _env_file=None))
import aiolimiter
from telegram.ext import AIORateLimiter
print("importlib.metadata" in sys.modules, aiolimiter.__version__, aiolimiter.AsyncLimiter.__module__)
import importlib.metadata
print(importlib.metadata.version("aiolimiter"), aiolimiter.__builtins__ is __builtins__)
"""


def test_the_application_imports_aiolimiter_without_importlib_metadata() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", BUILT],
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    first, second = done.stdout.splitlines()
    loaded, version, module = first.split()
    assert (loaded, module) == ("False", "aiolimiter.leakybucket")
    real, builtins_back = second.split()
    assert version == real and builtins_back == "True"  # the same string; the package's builtins are back


def _dist(root: Path, folder: str, version: str = "9.8.7") -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: x\nVersion: {version}\n\nbody\n")


def test_the_version_is_read_as_importlib_metadata_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _dist(first, "Aio_Limiter-1.0.dist-info", "1.0")  # names normalized: case, runs of -_.
    _dist(second, "aio.limiter-2.0.dist-info", "2.0")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
    assert limiter_version.dist_version("aio-limiter") == "1.0"  # the first sys.path entry that has it
    monkeypatch.setattr(sys, "path", [str(second), str(first)])
    assert limiter_version.dist_version("aio-limiter") == "2.0"
    assert limiter_version.dist_version("other") is None


@pytest.mark.parametrize("layout", ["egg-info", "two", "zip"])
def test_layouts_not_read_the_same_way_fall_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    if layout == "egg-info":
        _dist(tmp_path, "aiolimiter-1.0.egg-info")
    elif layout == "two":
        _dist(tmp_path, "aiolimiter-1.0.dist-info")
        _dist(tmp_path, "aiolimiter-2.0.dist-info")
    else:
        (tmp_path / "lib.zip").write_bytes(b"PK")
    entry = tmp_path / "lib.zip" if layout == "zip" else tmp_path
    monkeypatch.setattr(sys, "path", [str(entry)])
    assert limiter_version.dist_version("aiolimiter") is None


def test_the_version_header_ends_with_the_headers() -> None:
    assert limiter_version._version_header("Name: x\nVersion:  1.2.1 \n") == "1.2.1"
    assert limiter_version._version_header("Name: x\n\nVersion: 1\n") is None  # in the body, not a header
