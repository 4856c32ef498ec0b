"""Same message, same parse, whichever path runs it: every message of the corpus, the field cases and
every real-question file (the round-6 ones included) parsed once cold (as a process's first message:
no regex gates, :func:`bot.parse.roles.classify` itself, every settings reader) and once warm (from the
second message on: :mod:`bot.parse.regex_gate`, :mod:`bot.parse.role_dispatch`,
:mod:`bot.parse.settings_scan`), compared by ``repr(parse())``. In a fresh interpreter, so no other test
has warmed it already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import json
from bot.parse import assemble, parse, role_dispatch, settings_scan
from bot.parse.regex import add_gates
from tests.test_parse_role_dispatch import _texts

texts = _texts()
assemble._PARSES = -(10**9)  # every message is parsed as a first one: no fast path
cold = [repr(parse(t)) for t in texts]
assert not role_dispatch._TABLE and not settings_scan._TABLE, "warmed before the cold parse"
add_gates()  # what the second message runs
assert role_dispatch._TABLE and settings_scan._TABLE, "not warmed"
warm = [repr(parse(t)) for t in texts]
diff = [(t, c, w) for t, c, w in zip(texts, cold, warm) if c != w]
print(json.dumps({"n": len(texts), "diff": diff[:5], "ndiff": len(diff)}, ensure_ascii=False))
"""


def test_every_message_parses_the_same_cold_and_warm() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["n"] > 900
    assert out["ndiff"] == 0, out["diff"]
