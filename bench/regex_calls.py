"""Issue 23 item 7: which compiled patterns a warm parse runs, and how often, keyed by where each is defined.

Usage: ``python bench/regex_calls.py [TOP]`` (from a tree's root, in its venv) prints the regex method calls
a question (``re.Pattern.search``, ``match``, ``finditer`` …) over tests/data/questions.json (125
questions, after two warm passes: the gates are built from the second message on), then the ``TOP``
patterns by calls, each named by the module global holding it (``bot.parse.words.ASKS_COUNT_RE``) or,
for one no global holds (a gate's alternation, a table's pattern), by its source's start (``?…``).
The calls are counted from the profiler's ``c_call`` events (a C method of a ``re.Pattern``), so no
pattern is wrapped and the answers are the parse's own. tests/test_parse_render_speed.py pins
:func:`searches_a_question`.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

METHODS = frozenset({"search", "match", "fullmatch", "finditer", "findall", "split", "sub"})


def count_calls(
    fn: Callable[[str], Any], texts: Iterable[str]
) -> tuple[Counter[tuple[int, str]], dict[int, Any]]:
    """``fn`` of each text, counting each ``re.Pattern`` method call: (id of the pattern, method) → calls,
    and id → the pattern (kept alive while the counts are read)."""
    counts: Counter[tuple[int, str]] = Counter()
    patterns: dict[int, Any] = {}

    def profile(_frame: Any, event: str, arg: Any) -> None:
        if event == "c_call":
            owner = getattr(arg, "__self__", None)
            if type(owner) is re.Pattern and arg.__name__ in METHODS:
                counts[(id(owner), arg.__name__)] += 1
                patterns[id(owner)] = owner

    sys.setprofile(profile)
    try:
        for text in texts:
            fn(text)
    finally:
        sys.setprofile(None)
    return counts, patterns


def searches_a_question(questions: list[str]) -> float:
    """``re.Pattern.search`` calls a warm :func:`bot.parse.parse` makes a question, over ``questions``."""
    from bot.parse import parse

    for text in questions * 2:
        parse(text)
    counts, _ = count_calls(parse, questions)
    return sum(n for (_, method), n in counts.items() if method == "search") / len(questions)


def site(pattern: Any) -> str:
    """The loaded ``bot.`` module global holding ``pattern`` (or a stand-in compiled from it), else ``?``
    and the start of its source."""
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and module is not None:
            for key, value in list(vars(module).items()):
                if value is pattern or getattr(value, "_compiled", None) is pattern:
                    return f"{name}.{key}"
    return "?" + pattern.pattern[:70]


def main(top: int) -> None:
    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    import json

    from bot.parse import parse

    questions = [q["text"] for q in json.loads((root / "tests/data/questions.json").read_text("utf-8"))]
    for text in questions * 2:
        parse(text)
    counts, patterns = count_calls(parse, questions)
    n = len(questions)
    by_method: Counter[str] = Counter()
    for (_, method), calls in counts.items():
        by_method[method] += calls
    print(
        " ".join(f"{m} {c / n:.1f}" for m, c in by_method.most_common()),
        f"all {sum(by_method.values()) / n:.1f}",
    )
    for (pid, method), calls in counts.most_common(top):
        print(f"{calls / n:6.2f} {method:9s} {site(patterns[pid])}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
