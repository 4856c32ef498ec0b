"""A fresh ``sizing-bot ask`` in a subprocess, and which of some modules it imported (start-up tests)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ask_loaded(modules: tuple[str, ...], *args: str) -> tuple[str, list[str]]:
    """The reply of ``sizing-bot ask *args`` run in a fresh interpreter (no ``SIZING_BOT_`` settings), and
    those of ``modules`` it imported."""
    probe = (
        "import sys; from bot.cli import main; main(['ask', *sys.argv[1:]]); "
        f"print([m for m in {modules!r} if m in sys.modules])"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    *reply, loaded = done.stdout.strip().splitlines()
    return "\n".join(reply), ast.literal_eval(loaded)
