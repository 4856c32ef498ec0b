"""``sizing-bot ask`` as a separate process (a fresh interpreter: no state left by other tests), for
tests that check an answer end to end."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
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


CORPUS_QUESTIONS = [
    q["text"]
    for q in json.loads((Path(__file__).parent / "data" / "questions.json").read_text(encoding="utf-8"))
]
"""The texts of the question corpus (tests/data/questions.json)."""


def ask_quietly(*args: str) -> str:
    """What ``sizing-bot ask ARGS`` prints, run in this process (its stderr discarded)."""
    from bot.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["ask", *args])
    return out.getvalue()


def ask_in_process(capsys: Any, *args: str, want_code: int = 0) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json ARGS`` run in this process (``capsys``: pytest's
    capture fixture), its exit code checked (0; 2 when nothing was understood)."""
    from bot.cli import main

    code = main(["ask", "--format", "json", *args])
    data = json.loads(capsys.readouterr().out)
    assert code == want_code, data
    return data


def named(data: dict[str, Any]) -> dict[str, str]:
    """What an answer names as not used: ``{text: reason}`` of ``interpretation.ignored``."""
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


def ask_main_json(capsys: Any, question: str) -> dict[str, Any]:
    """``sizing-bot ask --format json QUESTION`` through :func:`bot.cli.main` in this process, its
    printed JSON read back with pytest's ``capsys``."""
    from bot.cli import main

    main(["ask", "--format", "json", question])
    return json.loads(capsys.readouterr().out)


def ask_json_in_process(question: str) -> dict[str, Any]:
    """The JSON answer of :func:`bot.cli.ask` for ``question`` (in this process, no exit code)."""
    from bot.cli import ask

    out, _ = ask(question, None, "json")
    return json.loads(out)


def substituted(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """What an answer substituted: ``(typed, used, reason)`` of ``interpretation.substitutions``."""
    return [(s["typed"], s["used"], s["reason"]) for s in data["interpretation"]["substitutions"]]


def ignored_pairs(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The (text, reason) pairs the answer names as not used, in order."""
    return [(str(i.get("text")), str(i.get("reason"))) for i in data["interpretation"].get("ignored") or []]
