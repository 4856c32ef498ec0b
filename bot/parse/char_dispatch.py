"""A wide alternation dispatched by its first character (issue 23 item 7, session 36).

A pattern ``PREFIX(?:b1|b2|…|bn)SUFFIX`` whose prefix only asserts (look-behinds, look-aheads) and whose
``n`` branches each start with one of a few known characters ('rtx…', '\\d{4}…', '昇腾…': the 94 branches
of :data:`bot.parse.lexicon.UNKNOWN_GPU_RE`) makes the engine try every branch at every position where the
start scan stops. Written as ``PREFIX(?:(?=[c…])(?:bi|bj…)|(?=[d…])(?:bk…)|…)SUFFIX``, each group holding
the branches that can start with its characters, in their order, the engine tries at a position only the
one group whose look-ahead its character passes: the same branches that could match there, in the same
order, so every match (search, finditer, fullmatch …) is the pattern's own. The characters are grouped by
which branches can start with them (:func:`bot.parse.first_chars._sequence`, the start scan's reading of
a pattern); a character no branch can start with belongs to no group, as it matched no branch before.
A branch that can start with many characters (:data:`WIDE`) is not copied into a group per character: it
keeps its place between the groups of the branches before and after it, behind its own look-ahead, so
at each position the branches that can start there are still tried in the pattern's order.

Only where it is sure: no capturing group (a group repeated in two dispatch groups would be renamed), no
back-reference, no case folding, every branch consuming a first character from a finite set. Session 36
(s36-sppipe2) measured UNKNOWN_GPU_RE's finditer 18.1 -> 16.0 µs a question on the corpus
(bench/RESULTS.md). Applied from the parse's second message on (:func:`bot.parse.regex.add_gates`);
tests/test_s36_sppipe2.py checks the answers on every corpus text and on sentences of its own.
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.sre_private import _parser, c

MIN_BRANCHES = 24
"""Fewer branches: the engine's own try of each costs less than the look-aheads (not measured below)."""

WIDE = 12
"""A branch that can start with more characters than this ('[a-z]…') keeps its place in the alternation
behind its own look-ahead (:func:`dispatched`): copied into a group per character it would make the
pattern many times larger (UNKNOWN_GPU_RE: 52 kB of source and ~1.8 MiB more memory, against 7 kB)."""

MAX_RANGE = 4096
"""A class range wider than this (a CJK block) is not enumerated: the pattern is left as it is."""

_ASSERT_OPENERS = ("(?<!", "(?<=", "(?=", "(?!")
_SPACE = " \t\n\r\f\v"
_CATEGORY_CHARS = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_WORD": "0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "CATEGORY_SPACE": _SPACE,
}
"""The characters of a category in ASCII mode (the parser's patterns are: :func:`bot.parse.regex.rc`)."""


def _close(pattern: str, start: int) -> int:
    """The index of the ``)`` closing the group opened at ``pattern[start]``, or -1."""
    depth, i, in_class = 0, start, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += pattern.startswith("^", i + 1)
            i += pattern.startswith("]", i + 1)
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def split_alternation(pattern: str) -> tuple[str, str, str] | None:
    """(prefix of assertions, the body of the first non-capturing group after it, the rest), or None."""
    i = 0
    while pattern.startswith(_ASSERT_OPENERS, i):
        end = _close(pattern, i)
        if end < 0:
            return None
        i = end + 1
    if not pattern.startswith("(?:", i):
        return ("", pattern, "") if i == 0 else None  # a top-level alternation: its own body
    end = _close(pattern, i)
    return None if end < 0 else (pattern[:i], pattern[i + 3 : end], pattern[end + 1 :])


def _chars(branch: str, flags: int) -> frozenset[str] | None:
    """The characters a match of ``branch`` can start with, or None (any, many, or it can match empty)."""
    from bot.parse.first_chars import _sequence

    try:
        parsed = _parser.parse(branch, flags)
    except re.error:
        return None
    found = _sequence(list(parsed), flags)
    if found is None or found[1]:
        return None
    out: set[str] = set()
    for op, av in found[0]:
        if op is c.LITERAL:
            out.add(chr(av))
        elif op is c.RANGE and av[1] - av[0] <= MAX_RANGE:
            out.update(map(chr, range(av[0], av[1] + 1)))
        elif op is c.CATEGORY and str(av) in _CATEGORY_CHARS:
            out.update(_CATEGORY_CHARS[str(av)])
        else:
            return None
    return frozenset(out)


def dispatched(pattern: str, flags: int = re.ASCII) -> str | None:
    """``pattern`` with its wide alternation dispatched by first character (see the module docstring);
    None where that is not sure to give the same matches, or the alternation is narrow."""
    from bot.parse.regex import top_level_branches

    if not flags & re.ASCII or flags & re.IGNORECASE:
        return None
    parts = split_alternation(pattern)
    if parts is None:
        return None
    prefix, body, suffix = parts
    branches = top_level_branches(body)
    if len(branches) < MIN_BRANCHES or len(branches) == 1:
        return None
    try:
        whole: Any = _parser.parse(pattern, flags)
    except re.error:
        return None
    if whole.state.groups > 1 or whole.state.flags & re.IGNORECASE or "(?P=" in pattern:
        return None  # a capturing group, a named back-reference, an inline (?i)
    starts = [_chars(b, flags) for b in branches]
    if any(s is None for s in starts):
        return None
    items: list[str] = []
    run: list[int] = []
    for i, chars in enumerate(starts):
        if len(chars) > WIDE:  # type: ignore[arg-type]
            items += _groups(run, starts, branches)
            items.append(f"(?={_class(chars)})(?:{branches[i]})")  # type: ignore[arg-type]
            run = []
        else:
            run.append(i)
    items += _groups(run, starts, branches)
    return f"{prefix}(?:{'|'.join(items)}){suffix}"


def _groups(run: list[int], starts: list[Any], branches: list[str]) -> list[str]:
    """The branches ``run`` (consecutive, in order) as one group per set of first characters that the
    same branches can start with: at a position at most one group's look-ahead passes."""
    by_branches: dict[tuple[int, ...], list[str]] = {}
    for ch in sorted(frozenset().union(*(starts[i] for i in run))):
        by_branches.setdefault(tuple(i for i in run if ch in starts[i]), []).append(ch)
    return [
        f"(?={_class(chars)})(?:" + "|".join(branches[i] for i in ids) + ")"
        for ids, chars in sorted(by_branches.items(), key=lambda kv: kv[1][0])
    ]


def _class(chars: Any) -> str:
    """A character class of ``chars``, consecutive code points written as a range ('[a-z0-9]')."""
    points = sorted(map(ord, chars))
    spans: list[list[int]] = []
    for p in points:
        if spans and p == spans[-1][1] + 1:
            spans[-1][1] = p
        else:
            spans.append([p, p])
    esc = re.escape
    return "[" + "".join(esc(chr(a)) if a == b else f"{esc(chr(a))}-{esc(chr(b))}" for a, b in spans) + "]"
