"""Issue 23 item 7, start-up: pydantic's plugin search is answered by ``estimator._pydantic_plugins``
when no installed distribution declares a pydantic plugin, so ``sizing-bot ask`` no longer imports
``importlib.metadata`` (~15 ms CPU of ~300, bench/RESULTS.md); with a plugin installed, pydantic loads
it itself and it sees our models as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from estimator import _pydantic_plugins as plugins

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B模型1万亿token要多少A100"

PLUGIN = """
class Plugin:
    def new_schema_validator(self, schema, schema_type, path, kind, config, settings):
        with open({seen!r}, "a", encoding="utf-8") as fh:
            fh.write(path.name + "\\n")
        return None, None, None

plugin = Plugin()
"""


def _ask(extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "PYDANTIC_"))}
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(extra_path), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, "-X", "importtime", "-m", "bot", "ask", QUESTION]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _imported(done: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.count("|") == 2}


def test_ask_without_plugins_does_not_import_importlib_metadata() -> None:
    from importlib.metadata import entry_points

    if list(entry_points(group="pydantic")):  # a plugin installed here: pydantic must load it
        pytest.skip("a pydantic plugin is installed in this environment")
    done = _ask()
    assert done.returncode == 0, done.stderr[-2000:]
    assert "A100" in done.stdout
    imported = _imported(done)
    assert "bot.cli" in imported and "estimator.plan" in imported
    assert "importlib.metadata" not in imported
    assert "pydantic.plugin._loader" not in imported  # the stand-in, not pydantic's module


def test_an_installed_pydantic_plugin_still_sees_our_models(tmp_path: Path) -> None:
    seen = tmp_path / "seen.txt"
    (tmp_path / "fakeplugin_mod.py").write_text(PLUGIN.format(seen=str(seen)), encoding="utf-8")
    info = tmp_path / "fakeplugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fakeplugin\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text("[pydantic]\nrecord = fakeplugin_mod:plugin\n", encoding="utf-8")
    done = _ask(tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "importlib.metadata" in _imported(done)
    names = seen.read_text(encoding="utf-8").split()
    assert "SizingRequest" in names and "SizingReport" in names


@pytest.mark.parametrize(
    ("text", "declares"),
    [
        ("[console_scripts]\nx = a:b\n", False),
        ("[console_scripts]\npydantic = a:b\n", False),
        ("[pydantic]\nx = a:b\n", True),
        ("  [ Pydantic ]\nx = a:b\n", True),
    ],
)
def test_an_entry_point_file_declares_pydantic_only_by_its_section(
    tmp_path: Path, text: str, declares: bool
) -> None:
    (tmp_path / "entry_points.txt").write_text(text, encoding="utf-8")
    assert plugins._declares_pydantic(str(tmp_path)) is declares


def test_a_zip_or_egg_on_the_path_leaves_the_search_to_pydantic(tmp_path: Path) -> None:
    archive = tmp_path / "some.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\x00" * 18)
    assert plugins._entry_point_may_exist(str(archive)) is True
    assert plugins._entry_point_may_exist(str(tmp_path / "x.egg")) is True
    assert plugins._entry_point_may_exist(str(tmp_path / "missing")) is False
