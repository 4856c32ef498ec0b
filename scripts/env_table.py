"""Write the README's environment table from the settings model (bot/config.py).

Usage: python scripts/env_table.py [--check]
Replaces the lines between the README's ``<!-- env-table -->`` markers; ``--check`` only compares
(exit 1 when the README is out of date). tests/test_config.py runs the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bot.config import readme_table  # noqa: E402

START, END = "<!-- env-table:start -->\n", "<!-- env-table:end -->\n"


def updated(readme: str) -> str:
    """``readme`` with the generated table between the markers."""
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + START + readme_table() + END + tail


def main(argv: list[str]) -> int:
    path = REPO / "README.md"
    text = path.read_text(encoding="utf-8")
    new = updated(text)
    if "--check" in argv:
        return 0 if new == text else 1
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
