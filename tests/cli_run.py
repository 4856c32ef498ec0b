"""``sizing-bot ask`` as a separate process (a fresh interpreter: no state left by other tests), for
tests that check an answer end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def ask_text(question: str, *options: str) -> str:
    """The reply ``python -m bot.cli ask QUESTION [options]`` prints (exit 0 required)."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "ask", question, *options],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout


def ask_json(question: str) -> dict[str, Any]:
    """The JSON contract of ``ask --format json``."""
    return json.loads(ask_text(question, "--format", "json"))
