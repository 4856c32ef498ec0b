"""The README's example blocks are what `sizing-bot ask` prints now (T22 item 7: the README showed
¥1,034,850, "micro-batch" in the Chinese example, and a walk-through without its cost on line 1).

A block is a fenced block whose first command line is ``$ sizing-bot ask …`` (``$ export NAME=VALUE``
lines before it set the environment). Its other lines are the output; a line that is only ``…``
(indented, optionally followed by a note in brackets) stands for lines left out. Every run of lines
between two ``…`` must appear, in order and whole, in the real output, the first at its start."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from bot.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ELISION = re.compile(r"^\s*…(?: \(.*\))?$")


def example_blocks() -> list[tuple[list[str], list[str]]]:
    """(command lines, output lines) of each `sizing-bot ask` example block."""
    blocks: list[list[str]] = []
    inside = False
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
            if inside:
                blocks.append([])
        elif inside:
            blocks[-1].append(line)
    out = []
    for lines in blocks:
        commands = [ln for ln in lines if ln.startswith("$ ")]
        if not commands or not commands[-1].startswith("$ sizing-bot ask "):
            continue
        out.append((commands, lines[len(commands) :]))
    return out


def segments(lines: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    for line in lines:
        if ELISION.match(line):
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def find_run(haystack: list[str], needle: list[str], start: int) -> int:
    for i in range(start, len(haystack) - len(needle) + 1):
        if haystack[i : i + len(needle)] == needle:
            return i
    return -1


BLOCKS = example_blocks()


def test_the_readme_has_its_examples() -> None:
    assert (
        len(BLOCKS) >= 4
    )  # the seed, the English pre-training, the setting that does not fit, the walk-through


@pytest.mark.parametrize(("commands", "shown"), BLOCKS, ids=[c[-1][:60] for c, _ in BLOCKS])
def test_a_readme_example_is_the_clis_output(
    commands: list[str], shown: list[str], capsys, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "presales.example.toml", tmp_path / "presales.toml")  # the walk-through's step 1
    for line in commands[:-1]:
        name, _, value = line.removeprefix("$ export ").partition("=")
        monkeypatch.setenv(name, value)
    argv = shlex.split(commands[-1].removeprefix("$ sizing-bot "))
    assert main(argv) == 0
    captured = capsys.readouterr()  # 'wrote quote.pdf' goes to stderr, after the reply
    real = (captured.out.rstrip("\n") + "\n" + captured.err).rstrip("\n").splitlines()
    parts = segments(shown)
    assert real[: len(parts[0])] == parts[0]  # the first run is the reply's start
    at = len(parts[0])
    for part in parts[1:]:
        if not part:
            continue
        found = find_run(real, part, at)
        assert found >= 0, "\n".join(part) + "\n--- not found in ---\n" + "\n".join(real[at:])
        at = found + len(part)
