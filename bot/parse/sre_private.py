"""CPython's regex parser, private (``re._parser``, ``re._constants``, ``re._compiler``; ``sre_parse`` …
before 3.11), which the parse fast paths read patterns with (:mod:`bot.parse.regex_gate`,
:mod:`bot.parse.role_dispatch`, :mod:`bot.parse.settings_scan`; review item 5).

Imported here once, guarded: when they are missing or do not parse a known pattern into the form the
analyses read (:func:`shape_ok`), :data:`OK` is False and every fast path stays off: no presence gates,
:func:`bot.parse.roles.classify` with every rule, every settings reader — the path of a process's first
message, which gives the same answers (tests/test_parse_cold_warm.py). Nothing else of the parser
needs them.
"""

from __future__ import annotations

import re
from typing import Any

_compiler: Any
_parser: Any
c: Any
try:
    from re import _compiler, _parser  # type: ignore[attr-defined,no-redef]
    from re import _constants as c  # type: ignore[attr-defined,no-redef]
except ImportError:  # another interpreter, or a Python that moved them
    _compiler = _parser = c = None

PROBE = r"^a|[b-c]\s*$"
"""A pattern whose parsed form :func:`shape_ok` knows: a branch of an anchor and a literal, and one
of a class, a repeat of a category and an end anchor."""


def shape_ok() -> bool:
    """Whether the private modules parse :data:`PROBE` into the form the analyses read (CPython 3.11+)."""
    try:
        parsed = _parser.parse(PROBE, re.ASCII)
        (op, av), *rest = list(parsed)
        first, second = (list(b) for b in av[1])
        return (
            not rest
            and op is c.BRANCH
            and first == [(c.AT, c.AT_BEGINNING), (c.LITERAL, ord("a"))]
            and second[0] == (c.IN, [(c.RANGE, (ord("b"), ord("c")))])
            and second[1][0] is c.MAX_REPEAT
            and list(second[1][1][2]) == [(c.IN, [(c.CATEGORY, c.CATEGORY_SPACE)])]
            and second[2] == (c.AT, c.AT_END)
            and bool(parsed.state.flags & re.ASCII)
            and callable(_compiler._get_literal_prefix)
            and callable(_compiler._get_charset_prefix)
        )
    except Exception:  # anything else: not the form the analyses were written for
        return False


OK = _parser is not None and shape_ok()
"""Whether the fast paths may read patterns (read at each table build: a test may set it)."""
