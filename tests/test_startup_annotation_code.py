"""Issue 23 item 7, start-up: the string annotations ``typing.ForwardRef`` compiles for pydantic (~1,340
compiles of ~330 texts in ``sizing-bot ask``) are compiled once a process, or taken from the code the build
stored (the ``annotations`` table of ``estimator/_dataclass_code.marshal``); the answers are the same with
and without, and every other ``compile`` in ``typing`` is Python's own."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from estimator import _dataclass_code as dc

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "部署70B推理需要几张A100，100并发，32k上下文"

WITHOUT = (
    "import sys, typing, estimator._dataclass_code as d\n"
    "del typing.compile; d._stored_annotations = {}\n"
    "from bot.cli import main\nsys.exit(main(sys.argv[1:]))"
)
COUNTED = (
    "import sys, estimator._dataclass_code as d; misses = []; real = d.compile_annotation\n"
    "d.compile_annotation = lambda t: misses.append(t) or real(t)\n"
    "from bot.cli import main\ncode = main(sys.argv[1:])\n"
    "print('stored', len(d._stored_annotations), 'texts', len(d._annotations), 'compiled', len(misses),"
    " file=sys.stderr); sys.exit(code)"
)


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZING_BOT_")}
    cmd = [sys.executable, "-c", code, *args]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_ask_answers_the_same_with_and_without_the_annotation_code() -> None:
    stored = _run(COUNTED, "ask", "--format", "json", QUESTION)
    plain = _run(WITHOUT, "ask", "--format", "json", QUESTION)
    assert stored.returncode == plain.returncode == 0, stored.stderr[-2000:] + plain.stderr[-2000:]
    assert "A100" in stored.stdout and stored.stdout == plain.stdout
    counts = stored.stderr.split()
    assert int(counts[counts.index("texts") + 1]) > 250  # distinct annotation texts: each compiled once
    if int(counts[counts.index("stored") + 1]) > 0:  # built by the install (pip install -e .)
        assert counts[counts.index("compiled") + 1] == "0"


def test_forward_refs_share_one_code_per_text_and_evaluate_as_before() -> None:
    assert typing.compile is dc._compile  # type: ignore[attr-defined]  # installed by `import estimator`
    first, second = typing.ForwardRef("dict[str, int] | None"), typing.ForwardRef("dict[str, int] | None")
    assert first.__forward_code__ is second.__forward_code__
    assert eval(first.__forward_code__) == (dict[str, int] | None)
    with pytest.raises(SyntaxError, match="Forward reference must be an expression"):
        typing.ForwardRef("1 +")


def test_other_compiles_are_pythons_own() -> None:
    namespace: dict[str, object] = {}
    exec(dc._compile("x: int = 1", "<string>", "exec"), namespace)
    assert namespace["x"] == 1 and namespace["__annotations__"] == {"x": int}  # no future flag inherited
    assert dc._compile("1 + 1", "<file>", "eval").co_filename == "<file>"


def test_the_stored_annotation_code_is_the_code_its_text_compiles_to(tmp_path: Path) -> None:
    record = (
        "import sys, typing, estimator._dataclass_code as d\nd.start_recording()\n"
        "typing.ForwardRef('list[tuple[int, str]] | None')\nprint(d.write_codes(sys.argv[1]))"
    )
    done = _run(record, str(tmp_path / "codes.marshal"))
    assert done.returncode == 0, done.stderr[-2000:]
    annotations = marshal.loads((tmp_path / "codes.marshal").read_bytes())["annotations"]
    assert "list[tuple[int, str]] | None" in annotations
    for text, code in annotations.items():
        assert marshal.loads(code) == compile(text, "<string>", "eval", dont_inherit=True)
