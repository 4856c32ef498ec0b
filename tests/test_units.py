"""One declaration per shared unit (issue 23 follow-up, part NC item 2): ``GIB`` lives in
:mod:`estimator.units`; every other module imports it, none assigns its own."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.render import fmt
from estimator import gpu_spec, runtimes, units, validation_memory
from estimator.runtimes import sglang, vllm

ROOT = Path(__file__).resolve().parents[1]


def assignments(name: str, text: str) -> list[int]:
    """Lines of module-level assignments to ``name`` in ``text``."""
    found = []
    for node in ast.parse(text).body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found.append(node.lineno)
    return found


def test_the_checker_sees_a_second_declaration() -> None:
    assert assignments("GIB", "import x\nGIB = 2**30\n") == [2]
    assert assignments("GIB", "from estimator.units import GIB\n") == []


def test_gib_is_declared_once_and_imported_everywhere() -> None:
    declared = {
        str(path.relative_to(ROOT)): lines
        for package in ("bot", "estimator")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := assignments("GIB", path.read_text(encoding="utf-8")))
    }
    assert declared == {"estimator/units.py": [9]}
    assert units.GIB == 1_073_741_824
    assert (
        fmt.GIB
        is gpu_spec.GIB
        is runtimes.GIB
        is vllm.GIB
        is sglang.GIB
        is validation_memory.GIB
        is units.GIB
    )
