"""A cheap presence test in front of a pattern: the literal strings one of which every match contains.

Most of the parser's ~190 regex calls per message look for words the message does not have
("llama-factory", "rank 16", "fsdp"); many of those patterns start with ``\\b`` or a look-behind, so
the regex engine has no literal prefix to scan for and tries the whole pattern at every position.
When a pattern's every match must contain one of a few literals (read off the parsed pattern by
:func:`required_literals`), one search of those literals (C: their first characters are scanned) says
"no match" first. Only a
necessary condition is derived, so the gated call returns exactly what the pattern returns: when the
test fails, no match exists anywhere in the text (tests/test_parse_render_speed.py checks gated and
ungated results agree on the corpus). The gates are added from a process's second message on
(:func:`bot.parse.regex.add_gates`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

from bot.parse import sre_private
from bot.parse.sre_private import (
    _compiler,
    _parser,
    c,  # the parsed form of a pattern (CPython ≥ 3.11; guarded there)
)

MAX_GATE_LITERALS = 150
"""More literals than this: even one search for them (their first characters cover most letters) costs
what the pattern's own search costs. Measured on the corpus (µs a search, pattern / gate): the tool names'
alternation (52 literals; ~101 after session 21's tools: 100 → 110 keeps it gated) 18.8 / 2.4; 111 after
session 29's (round 23: TinyChat, local_llm, Ludwig, kauldron; 110 → 120 keeps it gated), 636 / 35 on a
loaded machine over zh.json + en.json + round 2's working records; 127 after session 33's (Nanotron,
picotron, fairseq2, torchforge, Oumi, H2O LLM Studio …: 120 → 130 keeps it gated); 132 after session 44's
(realizar, the ggml library: 130 → 136 keeps it gated, below the GPU names' 140); 138 after session 47's
(EasyDeL, EasyLM, exo: 136 → 139, still below the GPU names' 140); 140 after session 48's (RWKV-Runner:
139 → 150; the GPU names are 253 literals now, ungated); the model names' start
(128) 1.6 / 4.0; the GPU names (140) 7.1 / 3.6, but most messages name a GPU."""

MAX_CLASS_CHARS = 16
"""A character class of at most this many plain characters, none an ASCII letter or digit ('[(（]', the
masks' '[\\ue000\\ue002]', the markup characters), is a set of one-character literals (their gate is one
scan for any of them); a wider one, one with a range or a category (``\\d``), or one of letters ('[bm]':
in most messages) requires none."""


def _rare(op: Any, ch: int) -> bool:
    """Whether a class item is one plain character that is not an ASCII letter or digit."""
    return op is c.LITERAL and not (ch < 128 and chr(ch).isalnum())


_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) if c is not None else ()


def gate_literals(pattern: str, flags: int = re.ASCII, parsed: Any = None) -> frozenset[str] | None:
    """The literals to test before searching with ``pattern``: only for a pattern the engine has no
    fast scan for (no literal prefix, no first-character set: it starts with ``\\b``, a look-behind …)
    and whose every match needs one of at most :data:`MAX_GATE_LITERALS` literals; else None (always
    when the private regex parser is missing or not as expected: :data:`bot.parse.sre_private.OK`)."""
    if not sre_private.OK:
        return None
    if parsed is None:  # ``parsed``: the caller's ``_parser.parse(pattern, flags)``, when it has it
        try:
            parsed = _parser.parse(pattern, int(flags))
        except re.error:
            return None
    return _gate_of(parsed, int(flags))


def _gate_of(parsed: Any, flags: int) -> frozenset[str] | None:
    if (flags | parsed.state.flags) & re.IGNORECASE:  # given, or an inline (?i)
        return None
    if _compiler._get_literal_prefix(parsed, flags)[0] or _compiler._get_charset_prefix(parsed, flags):
        return None  # the engine scans for that prefix itself, in C
    lits = required_literals(parsed)
    return lits if lits is not None and len(lits) <= MAX_GATE_LITERALS else None


def required_literals(parsed: Any) -> frozenset[str] | None:
    """Literals of which every match of the parsed pattern contains at least one, or None when none
    can be said (a branch without a literal, an empty match possible …)."""
    return _sequence(list(parsed))


def _score(lits: frozenset[str]) -> tuple[int, bool, int]:
    """Prefer the set whose shortest literal is longest (fewer false passes), then one without a single
    ASCII letter or digit ('r\\s*=': '=', not 'r', which most messages have), then the smaller set."""
    return (
        min(len(s) for s in lits),
        not any(len(s) == 1 and s.isascii() and s.isalnum() for s in lits),
        -len(lits),
    )


def _sequence(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The best requirement of a sequence: a run of literals, or any one item's requirement."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        if run:
            candidates.append(frozenset(["".join(run)]))
            joined = _run_then_branch("".join(run), op, av)
            if joined:
                candidates.append(joined)
            run = []
        found = _item(op, av)
        if found:
            candidates.append(found)
    if run:
        candidates.append(frozenset(["".join(run)]))
    return max(candidates, key=_score) if candidates else None


def _run_then_branch(run: str, op: Any, av: Any) -> frozenset[str] | None:
    """A literal run right before an alternation whose every branch starts with a literal: the run
    followed by each branch's leading literals. The parser factors common prefixes out ('ds|deepspeed'
    is 'd' then 's|eepspeed'): without this, the gate's literal was 'd', in most messages."""
    if op is c.SUBPATTERN and not av[1] & re.IGNORECASE and len(av[3]) == 1:
        op, av = av[3][0]  # '(?:s|eepspeed)', '(?P<n>…|…)': the alternation inside the group
    if op is not c.BRANCH:
        return None
    leads = []
    for branch in av[1]:
        lead = "".join(chr(v) for _, v in itertools.takewhile(lambda item: item[0] is c.LITERAL, branch))
        if not lead:
            return None
        leads.append(run + lead)
    return frozenset(leads)


def _item(op: Any, av: Any) -> frozenset[str] | None:
    """The requirement of one non-literal item; None for zero-width or character-class items."""
    if op is c.SUBPATTERN:
        _group, add_flags, _del_flags, sub = av
        return None if add_flags & re.IGNORECASE else _sequence(list(sub))
    if op is c.ATOMIC_GROUP:
        return _sequence(list(av))
    if op in _REPEATS:
        low, _high, sub = av
        return _sequence(list(sub)) if low >= 1 else None
    if op is c.BRANCH:
        options = [_sequence(list(branch)) for branch in av[1]]
        if not all(options):
            return None
        return frozenset().union(*options)  # type: ignore[arg-type]
    if op is c.IN and 0 < len(av) <= MAX_CLASS_CHARS and all(_rare(o, ch) for o, ch in av):
        return frozenset(chr(ch) for _, ch in av)  # '[(（]': one of these characters
    return None  # AT, ASSERT(_NOT), ANY, NOT_LITERAL, GROUPREF, a wider class …: no literal required


NARROW_START_LETTERS = 8
"""A start scan (:mod:`bot.parse.first_chars`) of at most this many ASCII letters and digits, and no range
or category, skips most positions of a message in C already."""


def gate_pays(lits: frozenset[str], start: list[tuple[Any, Any]] | None) -> bool:
    """Whether a gate of ``lits`` saves more than its Python frame costs, for a pattern whose start scan
    is ``start`` (:func:`bot.parse.first_chars.first_chars`'s items; None: no scan). One literal is an
    ``in`` test and pays; several are a regex search of their alternation, which costs what the
    pattern's own search costs once a narrow start scan skips the positions no match starts at.
    Measured over the corpus, µs a question, gated / ungated (session 18): the 223 several-literal
    gates on narrow scans 73 / 59 (57 calls a question); those on wide scans (a range, ``\\d``, more
    letters: the tool names' alternation, numbers followed by a unit) pay (85 / 161). A gate never
    changes an answer, only what a call costs."""
    if len(lits) == 1 or start is None:
        return True
    letters = 0
    for op, av in start:
        if op is not c.LITERAL:
            return True  # a range or a category ('\\d', '[a-z]'): most positions of a message
        letters += av < 128 and chr(av).isalnum()
    return letters > NARROW_START_LETTERS


def gate(compiled: re.Pattern[str], name: str, lits: frozenset[str]) -> Callable[..., Any]:
    """``compiled``'s method ``name``, answering "no match" without searching when no literal of
    ``lits`` occurs in the text (what the method itself returns when nothing matches). The test is one
    search of the literals' alternation (C: the engine scans for their first characters; for two or more
    literals, ~9 µs a message less than ``any(map(text.__contains__, …))``), or ``literal in text`` for one
    literal (:func:`_gate_of_one`, every method): one Python frame per call."""
    method = getattr(compiled, name)
    options = tuple(sorted(lits, key=len, reverse=True))
    if len(options) == 1:
        return _gate_of_one(method, name, options[0])
    present = re.compile("|".join(map(re.escape, options))).search
    if name == "sub":

        def sub(repl: Any, string: str, *args: Any, **kwargs: Any) -> str:
            return method(repl, string, *args, **kwargs) if present(string) else string

        return sub
    if name == "finditer":

        def finditer(string: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
            return method(string, *args, **kwargs) if present(string) else iter(())

        return finditer
    if name == "findall":

        def findall(string: str, *args: Any, **kwargs: Any) -> list[Any]:
            return method(string, *args, **kwargs) if present(string) else []

        return findall
    if name == "split":

        def split(string: str, *args: Any, **kwargs: Any) -> list[str]:
            return method(string, *args, **kwargs) if present(string) else [string]

        return split

    def first(string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:  # search, (full)match
        return method(string, *args, **kwargs) if present(string) else None

    return first


def _gate_of_one(method: Callable[..., Any], name: str, literal: str) -> Callable[..., Any]:
    """:func:`gate` for one literal (a third of the gated patterns): ``literal in string``, no second
    search. A regex call costs ~2-4k instructions before it reads a character (its state set up, the
    match object), an ``in`` test ~150; for several literals one search of their alternation stays
    cheaper than ``any(map(string.__contains__, …))`` (session 21: the parse +0.9 % instructions with
    that test for gates of 2-4 literals, +1.2 % for 2-8)."""
    if name == "sub":

        def sub(repl: Any, string: str, *args: Any, **kwargs: Any) -> str:
            return method(repl, string, *args, **kwargs) if literal in string else string

        return sub
    if name == "finditer":

        def finditer(string: str, *args: Any, **kwargs: Any) -> Iterator[re.Match[str]]:
            return method(string, *args, **kwargs) if literal in string else iter(())

        return finditer
    if name == "findall":

        def findall(string: str, *args: Any, **kwargs: Any) -> list[Any]:
            return method(string, *args, **kwargs) if literal in string else []

        return findall
    if name == "split":

        def split(string: str, *args: Any, **kwargs: Any) -> list[str]:
            return method(string, *args, **kwargs) if literal in string else [string]

        return split

    def first(string: str, *args: Any, **kwargs: Any) -> re.Match[str] | None:  # search, (full)match
        return method(string, *args, **kwargs) if literal in string else None

    return first


class BranchPlan:
    """Whether any of a pattern's top-level branches matches (:class:`bot.parse.regex.AnyBranch`), asked
    of only the branches one of whose required literals (:func:`required_literals`) occurs in the text.
    The stage words' alternations have 23 and 29 branches, most with a literal prefix of their own, so
    no gate: each was one C search a call (~5 and ~7 µs on a corpus message, ~16 calls a parse). Here:
    one search for any literal of any branch (C); only when one occurs, a substring test per literal
    and the searches of the branches that need one of those present. A branch can match only where the
    text has one of its literals, so the answer is the alternation's."""

    __slots__ = ("_any", "_branches", "_literals")

    def __init__(self, branches: tuple[Any, ...], literals: tuple[frozenset[str], ...]) -> None:
        self._branches = branches
        every = sorted(set().union(*literals), key=lambda s: (-len(s), s))
        self._any = re.compile("|".join(map(re.escape, every))).search
        self._literals = tuple(
            (lit, tuple(b for b, lits in zip(branches, literals, strict=True) if lit in lits))
            for lit in every
        )

    def found(self, string: str) -> bool:
        """Whether some branch matches somewhere in ``string``."""
        if self._any(string) is None:
            return False
        tried: set[int] = set()
        for lit, branches in self._literals:
            if lit in string:
                for branch in branches:
                    if id(branch) not in tried:
                        if branch.search(string) is not None:
                            return True
                        tried.add(id(branch))
        return False


def branch_plan(branches: tuple[Any, ...]) -> BranchPlan | None:
    """A :class:`BranchPlan` of ``branches`` (each with ``pattern``, ``_flags`` and ``search``, as
    :class:`bot.parse.regex.LazyPattern`), or None when one of them requires no literal (or is
    case-insensitive) or the private regex parser is missing or not as expected."""
    if not sre_private.OK or not branches:
        return None
    literals = []
    for branch in branches:
        try:
            parsed = _parser.parse(branch.pattern, int(branch._flags))
        except re.error:
            return None
        if (int(branch._flags) | parsed.state.flags) & re.IGNORECASE:
            return None
        lits = required_literals(parsed)
        if not lits:
            return None
        literals.append(lits)
    return BranchPlan(branches, tuple(literals))
