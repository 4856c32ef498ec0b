"""Module and function size limits of the house rules (developers' guide: modules ≤ 500 lines,
functions ≤ 80 lines), checked over estimator/ and bot/ by parsing the source (issue 23 item 3)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def oversized(package: str) -> list[str]:
    """'path: N lines' for each module over :data:`MAX_MODULE_LINES` and 'path:line name: N lines' for
    each function (or method) over :data:`MAX_FUNCTION_LINES` (decorators and docstring included)."""
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            out.append(f"{rel}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > MAX_FUNCTION_LINES:
                    out.append(f"{rel}:{node.lineno} {node.name}: {length} lines")
    return out


def test_the_checker_sees_an_oversized_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    module = tmp_path / "pkg" / "big.py"
    module.parent.mkdir()
    module.write_text(f"def big():\n{body}\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert oversized("pkg") == [f"pkg/big.py:1 big: {MAX_FUNCTION_LINES + 1} lines"]
    finally:
        ROOT = saved


def test_estimator_modules_and_functions_within_limits() -> None:
    assert oversized("estimator") == []


def test_bot_modules_and_functions_within_limits() -> None:
    assert oversized("bot") == []
