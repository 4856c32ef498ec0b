"""Issue 23 item 7, start-up (part S6-start): pydantic fields default to ``estimator.factories.empty_list``,
not the builtin ``list``. Pydantic asks ``inspect.signature`` of each default factory when it builds a
schema, and for a builtin that parses its text signature: 32 ``list`` fields cost 7.7 ms of the first
answer of ``sizing-bot ask`` (bench/RESULTS.md). Same values; remembered turns still drop empty lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.core.compact import pack, unpack
from bot.parse import parse
from estimator.factories import empty_list

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "7B模型1万亿token要多少A100"

PROBE = """
import contextlib, io, json, sys
from pydantic import BaseModel
from bot.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["ask", "--format", "json", sys.argv[1]])
def walk(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from walk(sub)
ours = {c for c in walk(BaseModel) if c.__module__.split(".")[0] in ("bot", "estimator")}
built = sorted(c.__name__ for c in ours if c.__pydantic_complete__)
builtin = sorted(
    f"{c.__name__}.{name}"
    for c in ours
    if c.__pydantic_complete__
    for name, info in c.model_fields.items()
    if info.default_factory in (list, set, tuple)
)
print(json.dumps({"code": code, "answer": json.loads(out.getvalue()), "built": built, "builtin": builtin}))
"""


def test_sizing_bot_ask_builds_its_schemas_with_no_builtin_list_factory() -> None:
    """Through the CLI in a fresh interpreter: the JSON answer as before (empty lists where nothing was
    said), and no model whose schema the answer built defaults a field with ``list`` (the pre-sales
    models, built only with a provider's offer, keep theirs)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SIZING_BOT_", "TELEGRAM_", "FEISHU_"))}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, QUESTION],
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["code"] == 0
    assert {"SizingReport", "ParseResult", "Interpretation", "Memory", "SizingRequest"} <= set(probe["built"])
    assert probe["builtin"] == []
    report = probe["answer"]["report"]
    assert probe["answer"]["request"]["gpu"].startswith("A100") and report["gpu_hours"]["likely"] > 0
    assert report["method_comparison"] == [] and isinstance(report["warnings"], list)


def test_empty_list_gives_a_new_list_each_time() -> None:
    first, second = empty_list(), empty_list()
    assert first == [] and second == [] and first is not second


def test_a_remembered_turn_still_drops_its_empty_lists() -> None:
    """bot.core.compact keeps only non-default fields: an empty list of an ``empty_list`` field is a
    default (as it was of a ``list`` field), a non-empty one is kept; the model comes back equal."""
    parsed = parse(QUESTION)
    assert parsed.gpu_alternatives == [] and parsed.found
    kept = dict(pack(parsed).items)
    assert "gpu_alternatives" not in kept and "model_suggestions" not in kept
    assert kept["found"] == parsed.found
    assert unpack(pack(parsed)) == parsed
