"""FIX2 item 4: ``sizing-bot --help`` and the README's Command line section name all four platforms
``sizing-bot run`` starts (it said "(Telegram, Feishu/Lark)" and "the Telegram bot")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = ("Telegram", "Feishu/Lark", "DingTalk", "WeCom")


def test_help_lists_every_platform_run_starts() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    flat = " ".join(done.stdout.split())  # argparse wraps the help text
    assert "start the bots whose credentials are set (Telegram, Feishu/Lark, DingTalk, WeCom)" in flat


def test_the_readme_command_line_section_lists_every_platform() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    [line] = [x for x in section.splitlines() if x.startswith("sizing-bot run ")]
    assert "the Telegram bot" not in line
    assert all(name in line for name in PLATFORMS), line
