"""Patterns compiled on first use: importing the parser stays cheap (``sizing-bot ask`` start-up).

Every pattern of the parser is ASCII-mode (``\\b``, ``\\w``, ``\\d`` never match CJK characters: a
Chinese character must not count as a word character next to "7b").

The build (``hatch_build.py``) stores each pattern's compiled regex code in :data:`CODES_FILE`, as the
interpreter writes ``.pyc`` files: a start then hands the stored code to ``_sre.compile`` (what
``re.compile`` does after parsing) instead of parsing ~160 patterns again (~30 ms of a ~350 ms
``sizing-bot ask`` start-up, issue 23 item 7). A pattern, flags or interpreter the file does not
hold is compiled by ``re.compile`` as before; the compiled pattern is the same (``==``).
"""

from __future__ import annotations

import _sre
import marshal
import os
import re
from array import array
from collections.abc import Callable, Iterator
from operator import methodcaller
from re import escape as _escape  # bound at import: tests stand in for the module ``re`` here
from typing import TYPE_CHECKING, Any
from weakref import WeakSet

from bot.lazylog import lazy_logger
from bot.parse.first_chars import parse_pattern, scan_module_patterns, start_chars, with_first_chars
from bot.parse.regex_gate import BranchPlan, branch_plan, gate, gate_literals, gate_pays
from bot.regex_store import CODE_TYPE as _CODE_TYPE
from bot.regex_store import codes_key, from_store, key_sum, load_codes, stored_code

GATED_CHARS = 4000
"""Longer patterns (the alternations of every GPU or model name) are not analysed for a gate
(:mod:`bot.parse.regex_gate`): too many literals."""

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "split", "sub")


class LazyPattern:
    """A ``re.Pattern`` stand-in that compiles its source the first time it is used.

    On that first use the compiled pattern's bound methods are put on the instance, so every later
    ``.search(...)`` is the C method itself: no Python frame per call (a parse makes ~200 such calls;
    the wrapper's two frames cost more than the searches, bench/latency.py); from the second message
    on, behind a presence gate when it has one (:func:`add_gates`)."""

    __slots__ = ("_compiled", "_flags", "pattern", *_METHODS)

    def __init__(self, pattern: str, flags: int = re.ASCII) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            compiled = compile_pattern(self.pattern, self._flags)
            for name in _METHODS:  # slots shadow nothing: __getattr__ below runs only until this
                object.__setattr__(self, name, getattr(compiled, name))
            if len(self.pattern) <= GATED_CHARS:
                _UNGATED.append(self)
            self._compiled = compiled
        return self._compiled

    @property
    def flags(self) -> int:
        """The compiled pattern's flags, as ``re.Pattern.flags``."""
        return self.compiled.flags

    def found(self, string: str) -> bool:
        """Whether the pattern matches somewhere in ``string`` (as :meth:`AnyBranch.found`)."""
        return self.search(string) is not None

    def __getattr__(self, name: str) -> Any:
        """Only reached for a method before the first compile (an unset slot): compile, then it is set."""
        if name not in _METHODS:
            raise AttributeError(name)
        return getattr(self.compiled, name)

    if TYPE_CHECKING:  # the methods as the type checker sees them (at run time: the slots above)

        def search(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def match(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def fullmatch(self, string: str, *args: Any) -> re.Match[str] | None: ...
        def finditer(self, string: str, *args: Any) -> Iterator[re.Match[str]]: ...
        def findall(self, string: str, *args: Any) -> list[Any]: ...
        def split(self, string: str, maxsplit: int = 0) -> list[str]: ...
        def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str: ...


_UNGATED: list[LazyPattern] = []
"""Patterns compiled since the last :func:`add_gates`."""


def starts_with_one_of(words: list[str] | set[str] | tuple[str, ...]) -> str:
    """A look-ahead for the first characters of ``words`` (``(?=[ab…])``), to put before an alternation
    of those words written literally: it changes no match, and spares the engine the whole alternation
    at each position where none of them can start. "" (no look-ahead) when a word is empty."""
    if not words or not all(words):
        return ""
    return "(?=[" + "".join(_escape(c) for c in sorted({w[0] for w in words})) + "])"


def words_gate(words: tuple[str, ...]) -> re.Pattern[str]:
    """A compiled alternation of ``words`` written literally: ``gate.search(s)`` is ``any(w in s for w
    in words)`` in one C call (a generator makes one Python frame per word; a parse runs ~20 such gates)."""
    return compile_pattern("|".join(_escape(w) for w in words))


def top_level_branches(pattern: str) -> list[str]:
    """``pattern`` split at each ``|`` outside groups, character classes and escapes (one item: no
    top-level alternation). Not split (one item) when a branch could depend on another: a back-reference
    or an inline global flag (``(?i)``). Only the characters :data:`_SPECIAL_RE` finds change the state,
    so the scan jumps from one to the next (s43-speed: a plain ``ask`` splits 8 patterns, 3,714 characters
    of which 1,027 are those: ~3.6x fewer steps; the same lists as the character-by-character scan over the
    1,056 stored patterns and 200,000 random ones, tests/test_s43_speed.py)."""
    out, depth, start, i, in_class = [], 0, 0, 0, False
    search = _SPECIAL_RE.search
    while (found := search(pattern, i)) is not None:
        i = found.start()
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += pattern.startswith("^", i + 1)
            i += pattern.startswith("]", i + 1)  # a "]" first in a class is the character
        elif ch in "()":
            depth += 1 if ch == "(" else -1
        elif ch == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
        i += 1
    out.append(pattern[start:])
    if _DEPENDENT_RE.search(pattern):
        return [pattern]
    return out


_SPECIAL_RE = re.compile(r"[\\\[\]()|]")
"""The characters :func:`top_level_branches` reads: escape, class brackets, group parentheses, bar."""
_DEPENDENT_RE = re.compile(r"\\[1-9]|\(\?P=|\(\?[aiLmsux]+\)")
"""What :func:`top_level_branches` does not split: back-references and inline global flags."""


class AnyBranch:
    """Whether a pattern matches anywhere, asked of its top-level branches one at a time, each its own
    :class:`LazyPattern` (so each gets its own presence gate, or the engine's literal-prefix scan): a
    wide alternation whose branches start with ``\\b`` or a look-behind makes the engine try every
    branch at every position (FINETUNE_RE, 23 branches: ~14 µs a search; branch by branch ~4 µs).
    The answer is the pattern's (a match of the alternation is a match of one of its branches); only
    for yes/no questions (:meth:`found`): which match would come first is not computed."""

    __slots__ = ("__weakref__", "_branches", "_plan", "found", "pattern")

    def __init__(self, pattern: LazyPattern) -> None:
        self.pattern = pattern
        self._branches: tuple[LazyPattern, ...] | None = None
        self._plan: BranchPlan | None = None
        self.found: Callable[[str], bool] = self.by_branches
        """Whether the pattern matches somewhere in a string (``pattern.search(string) is not None``):
        :meth:`by_branches`, or from the second message on the plan's own ``found`` (no frame here)."""
        _ANY_BRANCHES.add(self)

    def by_branches(self, string: str) -> bool:
        """Whether the pattern matches somewhere in ``string``, branch by branch."""
        plan = self._plan
        if plan is not None:  # only the branches whose literals occur
            return plan.found(string)
        branches = self._branches
        if branches is None:
            branches = self._branches = self.branches()
        return any(map(methodcaller("search", string), branches))  # C calls: no frame per branch

    def branches(self) -> tuple[LazyPattern, ...]:
        """The top-level branches, each its own lazily compiled pattern."""
        return tuple(LazyPattern(b, self.pattern._flags) for b in top_level_branches(self.pattern.pattern))


_ANY_BRANCHES: WeakSet[AnyBranch] = WeakSet()
"""Every :class:`AnyBranch` alive: each gets its :class:`BranchPlan` on the second message (weakly held:
one dropped by a test or a reload is not kept for the life of the process; session 12 review 17)."""


def _plan_branches() -> None:
    """Put a :class:`BranchPlan` on each :class:`AnyBranch` whose every branch requires a literal."""
    for any_branch in list(_ANY_BRANCHES):
        branches = any_branch._branches or any_branch.branches()
        any_branch._branches = branches
        any_branch._plan = plan = branch_plan(branches)
        if plan is not None:
            any_branch.found = plan.found


ON_SECOND_MESSAGE: list[Callable[[], None]] = []
"""Work that analyses patterns for later messages (:func:`bot.parse.role_dispatch.warm`): run once by
the first :func:`add_gates`, so ``sizing-bot ask`` (one message) never pays it."""
ON_SECOND_MESSAGE.append(_plan_branches)
ON_SECOND_MESSAGE.append(scan_module_patterns)  # the parser's module-level re.compile patterns


def add_gates() -> None:
    """Give each pattern compiled since the last call that has no fast scan of its own a start scan
    (:mod:`bot.parse.first_chars`) and a presence gate (:mod:`bot.parse.regex_gate`) in front.
    Analysing a pattern parses it again (~0.1 ms each, twice), so the parse calls this from its
    second message on: ``sizing-bot ask`` (one message) never pays it, a bot
    pays it once (~40 ms) and then on a message that compiled a pattern no earlier one used."""
    while ON_SECOND_MESSAGE:
        try:
            hook = ON_SECOND_MESSAGE.pop(0)
        except IndexError:  # another thread ran the last one
            break
        try:
            hook()
        except Exception:  # a table that cannot be built (tests build them): that fast path stays off
            lazy_logger(__name__).exception("parse fast path off: %s", hook.__qualname__)
    while _UNGATED:
        try:
            pattern = _UNGATED.pop()
        except IndexError:  # another thread (the bot parses on worker threads) took the last one
            return
        parsed = parse_pattern(pattern.pattern, pattern._flags)  # once, for both analyses
        lits = gate_literals(pattern.pattern, pattern._flags, parsed) if parsed is not None else None
        if lits and not gate_pays(lits, start_chars(parsed, pattern._flags)):
            lits = None
        scanned = with_first_chars(pattern.compiled, parsed) if parsed is not None else None
        if scanned is not None:  # a start scan where re made none (first_chars)
            for name in _METHODS:
                object.__setattr__(pattern, name, getattr(scanned, name))
            pattern._compiled = scanned
        if lits:
            for name in _GATED_METHODS:
                object.__setattr__(pattern, name, gate(pattern.compiled, name, lits))


_GATED_METHODS = ("search", "finditer", "findall", "split", "sub")
"""The methods a gate goes in front of: those that scan the text. ``match`` and ``fullmatch`` try one
position, which fails fast; a gate there tested every literal over the whole text first, ~3 % of a
parse more than it saved (the corpus's classify step matches ~20 patterns at each number)."""


def rc(pattern: str) -> LazyPattern:
    """An ASCII-mode pattern, compiled when first used."""
    return LazyPattern(pattern)


CODES_FILE = os.path.join(os.path.dirname(__file__), "_compiled_regex.marshal")
"""Stored regex code of the parser's patterns (written by the build, gitignored; may be absent)."""

_stored: dict[tuple[str, int], Any] | None = None


def _stored_codes() -> dict[tuple[str, int], Any]:
    global _stored
    if _stored is None:
        _stored = load_codes(CODES_FILE, codes_key())  # read once: bot.regex_store has read it already
    return _stored


SEEN: set[tuple[str, int]] = set()
"""(pattern, flags) of every :func:`compile_pattern` call: what the build stores besides the
:class:`LazyPattern` sources (module-level patterns made with ``compile_pattern``)."""


def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the stored code when the build stored this pattern's.
    For patterns made once (module level, cached functions): nothing is kept between calls."""
    SEEN.add((pattern, int(flags)))
    stored = stored_code(_stored_codes(), (pattern, int(flags)))
    made = from_store(pattern, stored) if stored is not None else None  # None: not this engine's code
    if made is not None:
        return made
    return re.compile(pattern, flags)


def pattern_code(pattern: str, flags: int) -> tuple[Any, ...]:
    """The arguments after the pattern that ``re.compile`` passes to ``_sre.compile`` (CPython's
    ``re._compiler.compile``: flags, code, group count, group index, index group)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, int(flags))
    code = [int(c) for c in _compiler._code(parsed, int(flags))]  # opcodes are int subclasses
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in parsed.state.groupdict.items():
        indexgroup[index] = name
    state = parsed.state
    return (int(flags) | state.flags, code, state.groups - 1, dict(state.groupdict), tuple(indexgroup))


def write_codes(path: str, patterns: set[tuple[str, int]], first: set[tuple[str, int]] | None = None) -> int:
    """Store the regex code of ``patterns`` ((source, flags) pairs) in ``path``; returns how many.
    The code is kept as the bytes of an unsigned array (one object instead of thousands of ints:
    loading the file takes well under a millisecond). Given ``first`` (what a plain ``ask`` compiles),
    the others are kept apart, marshalled, and read on the first pattern not among them
    (:func:`bot.regex_store.stored_code`)."""
    table = {}
    for pattern, flags in sorted(patterns):
        final_flags, code, *rest = pattern_code(pattern, flags)
        if _sre.compile(pattern, final_flags, code, *rest) == re.compile(pattern, flags):  # the same
            stored = (final_flags, array(_CODE_TYPE, code).tobytes(), *rest)
            table[(pattern, int(flags))] = marshal.dumps(stored)  # read per pattern: bot.regex_store
    head = table if first is None else {k: v for k, v in table.items() if k in first}
    more = {k: v for k, v in table.items() if k not in head}
    sums = frozenset(key_sum(k) for k in more)
    with open(path, "wb") as fh:
        stored = {"key": codes_key(), "patterns": head, "more": marshal.dumps(more), "more_sums": sums}
        marshal.dump(stored, fh)
    return len(table)
