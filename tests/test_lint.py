"""`ruff check` and `ruff format --check` are clean (issue 23 item 8): the suite runs the linter the
project pins (pyproject's test extra), so style never drifts between contributors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]], ids=["check", "format"])
def test_ruff_is_clean(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
