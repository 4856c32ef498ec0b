"""Presence gates for the parser's module-level compiled patterns (issue 23 item 7).

The parser's :class:`bot.parse.regex.LazyPattern` patterns get a presence gate from the second message
on (:func:`bot.parse.regex.add_gates`): the literals one of which every match needs, tested before the
search. The patterns its modules compile with ``re.compile`` at import (``X_RE = re.compile(…)``, ~40
searches a parse) got only a start scan (:func:`bot.parse.first_chars.scan_module_patterns`); the
costliest of them are alternations of words whose first branch starts with ``\\b`` or a class, searched
at every position (~3–10 µs a search on a corpus message), and most messages hold none of their words.
Here each such global is rebound, once, to a :class:`~bot.parse.regex.LazyPattern` holding the same
compiled pattern, with the gate of :func:`bot.parse.regex_gate.gate` in front of its scanning methods:
only when the gate pays (:func:`bot.parse.regex_gate.gate_pays`, as for the lazy patterns). A gate
answers "no match" only when no literal a match needs is in the text, so every answer is the
pattern's (tests/test_cue_index.py checks each gate's literals on every corpus text).
"""

from __future__ import annotations

import re

from bot.parse.first_chars import parse_pattern, rebind_module_globals, start_chars
from bot.parse.regex import _GATED_METHODS, _METHODS, ON_SECOND_MESSAGE, LazyPattern
from bot.parse.regex_gate import gate, gate_literals, gate_pays

GATED: dict[int, tuple[re.Pattern[str], frozenset[str]]] = {}
"""id of each gated stand-in → (its compiled pattern, its literals): what tests check."""


def gated(pattern: re.Pattern[str]) -> LazyPattern | None:
    """A stand-in for ``pattern`` whose scanning methods are behind its presence gate, or None when it
    has none that pays (a literal prefix the engine scans for itself, no literal needed, a narrow start
    scan, case-insensitive)."""
    parsed = parse_pattern(pattern.pattern, pattern.flags)
    if parsed is None:
        return None
    lits = gate_literals(pattern.pattern, pattern.flags, parsed)
    if not lits or not gate_pays(lits, start_chars(parsed, pattern.flags)):
        return None
    stand_in = LazyPattern(pattern.pattern, pattern.flags)
    for name in _METHODS:
        object.__setattr__(stand_in, name, getattr(pattern, name))
    for name in _GATED_METHODS:
        object.__setattr__(stand_in, name, gate(pattern, name, lits))
    stand_in._compiled = pattern
    GATED[id(stand_in)] = (pattern, lits)
    return stand_in


def gate_module_patterns(prefix: str = "bot.parse.") -> int:
    """Rebind each global of the loaded ``prefix`` modules that holds a compiled pattern with a gate that
    pays to its gated stand-in (one per pattern object: imported elsewhere, it is the same stand-in).
    Patterns inside tables are left as they are. Returns how many globals were rebound."""
    return rebind_module_globals(prefix, _gated_global)[0]


def _gated_global(value: object) -> LazyPattern | None:
    """A global's gated stand-in: a compiled str pattern's (:func:`gated`), else None (left as it is)."""
    if type(value) is not re.Pattern or not isinstance(value.pattern, str):
        return None
    return gated(value)


ON_SECOND_MESSAGE.append(gate_module_patterns)  # after scan_module_patterns (bot.parse.regex): its scans
