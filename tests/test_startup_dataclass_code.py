"""Issue 23 item 7, start-up: the methods ``dataclasses`` writes for every dataclass (~370 in
``sizing-bot ask``, ~31 ms CPU of compiling) come from the code the build stored
(``estimator/_dataclass_code.marshal``, see :mod:`estimator._dataclass_code`); the answers are the same
with and without it, and a text it does not hold compiles as ``dataclasses`` compiles it."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

from estimator import _dataclass_code as dc

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B模型1万亿token要多少A100"

WITHOUT = (
    "import builtins, dataclasses, sys, estimator._dataclass_code as d\n"
    "d._stored = {}; dataclasses.exec = builtins.exec\n"
    "from bot.cli import main\nsys.exit(main(sys.argv[1:]))"
)
COUNTED = (
    "import sys, estimator._dataclass_code as d; misses = []; real = d.compile_text\n"
    "d.compile_text = lambda t: misses.append(t) or real(t)\n"
    "from bot.cli import main\ncode = main(sys.argv[1:])\n"
    "print('stored', len(d._stored), 'compiled', len(misses), file=sys.stderr); sys.exit(code)"
)


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    cmd = [sys.executable, "-c", code, *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_ask_answers_the_same_with_and_without_the_stored_code() -> None:
    for fmt in ("text", "json"):
        stored = _run(COUNTED, "ask", "--format", fmt, QUESTION)
        plain = _run(WITHOUT, "ask", "--format", fmt, QUESTION)
        assert stored.returncode == plain.returncode == 0, stored.stderr[-2000:] + plain.stderr[-2000:]
        assert "A100" in stored.stdout and stored.stdout == plain.stdout
        if os.path.exists(dc.CODES_FILE):  # built by the install (pip install -e .): nothing compiled
            counts = stored.stderr.split()
            assert int(counts[counts.index("stored") + 1]) > 300
            assert counts[counts.index("compiled") + 1] == "0"


def test_a_text_it_does_not_hold_compiles_with_no_flag_inherited() -> None:
    """This module and estimator._dataclass_code use ``from __future__ import annotations``; the
    methods dataclasses writes must not (their annotations are the objects, not strings)."""
    namespace: dict[str, object] = {}
    dc._exec("def f(x: int) -> float:\n  return x\n", {}, namespace)
    assert namespace["f"].__annotations__ == {"x": int, "return": float}  # type: ignore[attr-defined]


def test_the_stored_code_is_the_code_its_text_compiles_to(tmp_path: Path) -> None:
    record = (
        "import dataclasses, sys, estimator._dataclass_code as d\nd.start_recording()\n"
        "@dataclasses.dataclass(frozen=True)\nclass P:\n    x: int = 1\n    y: str = 'a'\n"
        "print(d.write_codes(sys.argv[1]), P(), P(2) == P(2), sep='\\n')"
    )
    done = _run(record, str(tmp_path / "codes.marshal"))
    assert done.returncode == 0, done.stderr[-2000:]
    count, shown, equal = done.stdout.splitlines()
    assert int(count) >= 5 and shown == "P(x=1, y='a')" and equal == "True"  # init, repr, eq, setattr…
    data = marshal.loads((tmp_path / "codes.marshal").read_bytes())
    assert data["key"] == dc.codes_key()
    for text, code in data["codes"].items():
        assert marshal.loads(code) == dc.compile_text(text)
    assert any("def __init__(self,x:_type_x=_dflt_x,y:_type_y=_dflt_y)" in t for t in data["codes"])


def test_a_file_for_another_interpreter_is_not_used(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "codes.marshal"
    path.write_bytes(marshal.dumps({"key": ("cpython-99", b"\x00\x00\r\n"), "codes": {"x": b""}}))
    monkeypatch.setattr(dc, "CODES_FILE", str(path))
    monkeypatch.setattr(dc, "_stored", {"kept": b""})
    assert dc.install() is False and dc._stored == {"kept": b""}
