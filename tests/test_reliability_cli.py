"""Issue 17, failure 9: ``sizing-bot ask`` never ends in a traceback over its output or input.

Standard output on a full disk (``/dev/full``) or in an ASCII-only terminal with a Chinese answer: one
line on stderr, exit 1 (JSON stays valid JSON with ``\\u`` escapes). 100 KB of random bytes on
standard input: "not understood", exit 2, never a confident answer.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import EXIT_NOT_UNDERSTOOD, EXIT_WRITE_FAILED, main, mostly_binary

ROOT = Path(__file__).resolve().parents[1]
ZH = "7B模型1万亿token要多少A100"


def ask(
    args: list[str], tmp_path: Path, *, stdout: object = subprocess.PIPE, **env: str
) -> subprocess.CompletedProcess[bytes]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIOENCODING", "SIZING_BOT_"))}
    clean.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path), **env)
    return subprocess.run(
        [sys.executable, "-m", "bot", "ask", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=clean,
        cwd=tmp_path,
        timeout=60,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_a_full_disk_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = ask([ZH], tmp_path, stdout=full)
    err = done.stderr.decode()
    assert done.returncode == EXIT_WRITE_FAILED
    assert err.strip().splitlines() == ["error: cannot write the answer: No space left on device"]


def test_an_ascii_terminal_and_a_chinese_answer_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = ask([ZH], tmp_path, PYTHONIOENCODING="ascii")
    err = done.stderr.decode()
    assert done.returncode == EXIT_WRITE_FAILED and done.stdout == b""
    [line] = err.strip().splitlines()
    assert "encoding (ascii)" in line and "Traceback" not in err


def test_json_in_an_ascii_terminal_stays_json(tmp_path: Path) -> None:
    done = ask(["--format", "json", ZH], tmp_path, PYTHONIOENCODING="ascii")
    assert done.returncode == 0 and done.stderr == b""
    data = json.loads(done.stdout.decode("ascii"))
    assert data["understood"] is True and "A100" in data["reply"]


def test_random_bytes_are_not_understood(tmp_path: Path) -> None:
    noise = random.Random(17).randbytes(100_000)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--format", "json"],
        input=noise,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)},
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == EXIT_NOT_UNDERSTOOD
    assert json.loads(done.stdout)["understood"] is False
    assert done.stderr.decode().strip().splitlines() == [
        "note: the input is mostly not text (binary data?); nothing to size"
    ]


@pytest.mark.parametrize("seed", range(20))
def test_no_random_input_gets_a_confident_answer(
    seed: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    noise = random.Random(seed).randbytes(random.Random(seed).randint(200, 20_000))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(noise)))
    assert main(["ask"]) == EXIT_NOT_UNDERSTOOD
    capsys.readouterr()


@pytest.mark.parametrize(
    ("text", "binary"),
    [
        ("", False),
        (ZH, False),
        ("Сколько A100 для 7B?", False),
        ("🚀 7B 1T tokens A100 🔥", False),
        ("7B 1T tokens A100\n\tMFU 40%\r\n", False),
        ("\x00\x01\x02 7B", True),
        ("\ufffd" * 10 + "7B", True),
    ],
)
def test_mostly_binary(text: str, binary: bool) -> None:
    assert mostly_binary(text) is binary


def test_text_input_with_a_few_bad_bytes_is_still_a_question(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"7B 1T tokens A100 \xff\xfe")))
    assert main(["ask"]) == 0
    assert "A100" in capsys.readouterr().out
