"""Which of the settings readers of :func:`bot.parse.settings.extract_settings` run: one scan of the text
for all their key words (issue 23 item 7).

The last eight readers of the settings step (TP/PP, LoRA, precision words, recompute, throughput,
hours, serving engine, methods) each searched the text with 2–8 patterns, each behind its own presence
gate: ~30 searches and ~25 Python calls a message, most of which find nothing. A reader changes nothing
unless one of its first patterns (those it reads before any other, and with no match of which it
returns untouched: every pattern its code names but those it declares read after one, :func:`reader`)
matches; every match of a pattern contains one of the literals
:func:`bot.parse.regex_gate.required_literals` reads off it. So one C search a reader (its literals'
alternation, :data:`_SEARCH`) says which readers can find anything; the others are not called. The
readers only mask what they read with spaces, so a literal absent from the text before them stays
absent: a literal with white space in it (which masking could make) makes its reader run always, as
a pattern without required literals does. The literal table is read off the patterns from a process's
second message on (:data:`bot.parse.regex.ON_SECOND_MESSAGE`); before that, every reader runs.
tests/test_parse_settings_scan.py compares the step with and without the scan on every text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from bot.parse import sre_private
from bot.parse.regex import ON_SECOND_MESSAGE, AnyBranch, LazyPattern
from bot.parse.regex_gate import required_literals
from bot.parse.sre_private import _parser


class NotAnalysable(ValueError):
    """A reader whose key words cannot be read off its code: the table is not built (tests build it)."""


@dataclass(frozen=True)
class Reader:
    """One settings reader and what it declares about its patterns (:func:`reader`)."""

    fn: Callable[..., Any]
    after: tuple[Any, ...]
    training: bool
    always_unless_training: bool
    inline_after: bool


READERS: list[Reader] = []
"""The readers :func:`run_readers` calls, in the order they are defined (:func:`reader`)."""
_TABLE: list[tuple[Reader, frozenset[str] | None]] = []
"""[(reader, its literals or None: always), …] once :func:`warm` ran."""


def reader(
    *after: Any, training: bool = False, always_unless_training: bool = False, inline_after: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a reader of :mod:`bot.parse.settings` for :func:`run_readers`. Its first patterns (those
    one of which must match for it to change anything) are every pattern its code names
    (:func:`first_patterns`) except ``after``: those it reads only once one of the others matched.
    ``training``: called with ``training`` too; ``always_unless_training``: runs whenever the message
    is not about training (its other reads have no table); ``inline_after``: its inline ``re`` calls
    (not named patterns) run only after a first pattern matched."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        READERS.append(Reader(fn, after, training, always_unless_training, inline_after))
        return fn

    return register


def _is_pattern(value: Any) -> bool:
    return isinstance(value, (LazyPattern, AnyBranch, re.Pattern))


def first_patterns(rd: Reader) -> list[Any]:
    """The patterns ``rd``'s code names (a global, an attribute of a module it names, each pattern of a
    tuple of (pattern, value) pairs), less its ``after`` ones. Raises :class:`NotAnalysable` when an
    ``after`` pattern is not one its code names, or when it calls ``re`` itself undeclared."""
    names, env = rd.fn.__code__.co_names, rd.fn.__globals__
    scopes = [env] + [vars(v) for v in (env.get(n) for n in names) if isinstance(v, ModuleType)]
    if "re" in names and env.get("re") is re and not rd.inline_after:
        raise NotAnalysable(f"{rd.fn.__name__} calls re itself: declare inline_after or name the pattern")
    found: list[Any] = []
    for scope in scopes:
        for name in names:
            value = scope.get(name)
            if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
                value = tuple(p for p, *_ in value)
            for p in value if isinstance(value, tuple) else (value,):
                if _is_pattern(p) and not any(p is q for q in found):
                    found.append(p)
    stale = [p for p in rd.after if not any(p is q for q in found)]
    if stale:
        raise NotAnalysable(f"{rd.fn.__name__}: 'after' patterns its code does not name: {stale}")
    return [p for p in found if not any(p is q for q in rd.after)]


def literals_of(patterns: list[Any]) -> frozenset[str] | None:
    """The literals one of which every match of any of ``patterns`` contains; None when a pattern has
    none, ignores case, or one has white space (masking with spaces could make it)."""
    out: set[str] = set()
    for p in patterns:
        if not _is_pattern(p):
            raise NotAnalysable(f"not a pattern: {p!r}")
        p = p.pattern if isinstance(p, AnyBranch) else p  # an AnyBranch: its whole pattern
        source, flags = p.pattern, getattr(p, "_flags", None)
        flags = p.flags if flags is None else flags  # a compiled re.Pattern
        parsed = _parser.parse(source, flags)
        if (flags | parsed.state.flags) & re.IGNORECASE:
            return None
        lits = required_literals(parsed)
        if not lits or any(ch.isspace() for lit in lits for ch in lit):
            return None
        out |= lits
    return frozenset(out)


def build() -> list[tuple[Reader, frozenset[str] | None]]:
    """Each reader of :data:`READERS` and its literals (None: it always runs). Raises
    :class:`NotAnalysable` on a reader or pattern the analysis cannot handle."""
    from bot.parse import settings  # noqa: F401  (its readers register on import)

    return [(rd, literals_of(first_patterns(rd))) for rd in READERS]


def warm() -> None:
    """Read the readers' literals off their patterns (a few ms, once); not when the private regex
    parser is missing or not as expected (every reader runs then, review item 5)."""
    _TABLE[:] = build() if sre_private.OK else []
    for _rd, lits in _TABLE:
        if lits:
            _search_of(lits)  # compiled here, not by a message's parse


ON_SECOND_MESSAGE.append(warm)


_SEARCH: dict[frozenset[str], Callable[[str], Any]] = {}
"""Each reader's literals as one compiled alternation, by literal set: its ``search`` finds a match exactly
when one of them occurs in the text (no flags: each literal as written, case and all), as
``any(map(text.__contains__, literals))`` answers, in one C scan of the text for their first characters
instead of one scan a literal (the readers have 4-33 literals; over the middle 70 corpus questions, session
32: 161 -> 74 µs a question for the 8 tables on a loaded machine, the same answers)."""


def _search_of(lits: frozenset[str]) -> Callable[[str], Any]:
    """:data:`_SEARCH`'s entry for ``lits``, compiled and kept (longest literal first)."""
    ordered = sorted(lits, key=lambda w: (-len(w), w))
    found = _SEARCH[lits] = re.compile("|".join(map(re.escape, ordered))).search
    return found


def run_readers(out: Any, training: bool) -> None:
    """The readers of :data:`READERS` on ``out`` (a :class:`bot.parse.settings.Settings`), in order,
    each only when the text has one of its literals (every reader before :func:`warm`)."""
    table = _TABLE or [(rd, None) for rd in READERS]
    s = out.s
    for rd, lits in table:
        always = lits is None or (not training and rd.always_unless_training)
        if not always and (_SEARCH.get(lits) or _search_of(lits))(s) is None:  # type: ignore[arg-type]
            continue  # none of its key words: it would find nothing
        if rd.training:
            rd.fn(out, training)
        else:
            rd.fn(out)


def other_degrees(s: str, pattern: LazyPattern, name: str, first: int) -> tuple[str, list[tuple[str, str]]]:
    """The normalized text ``s`` with every ``name`` degree ('tp' / 'pp') of ``pattern`` masked, and each
    degree other than ``first`` (the one sized) named as another setup: two layouts compared in one message
    ('TP4-PP1-DP2 … TP1-PP1-DP8', round 9 of the real questions; before, the second was dropped)."""
    named: list[tuple[str, str]] = []
    for m in list(pattern.finditer(s)):
        n = int(m.group("n") or m.group("m"))
        if n != first and (f"{name}: {n}", "other_setup") not in named:
            named.append((f"{name}: {n}", "other_setup"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named
