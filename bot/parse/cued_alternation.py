"""A wide alternation searched with only the branches whose cues the text holds (issue 23 item 7).

A pattern that is an alternation of many branches, most starting with ``\\b``, a look-behind or a
character class, gives the regex engine no start scan: at every position of the text it tries every
branch. The structure scan's cue pattern (:data:`bot.parse.structure._CUE_RE`: ~180 branches in six
named groups, case-insensitive) cost ~45 µs a segment of ~40 characters that way, the most of any
pattern of a parse. Here each branch has *cues*, the literals one of which every match of it contains
(:func:`bot.parse.regex_gate.required_literals`, derived from the parsed branch as the presence gates
and :mod:`bot.parse.cue_index` derive theirs, or declared). For a text, one C pass
(``filter(text.__contains__, cues)``) finds the branches one of whose cues occurs; a branch none of
whose cues occurs matches at no position, so the alternation of only those finds the same matches.
With a few such branches, each is searched on its own (compiled once, in its named group) and the
alternation's rule is followed: at the leftmost place where one matches, the first in order that
matches there, then on from its end (:func:`_leftmost_first`); with none, nothing is searched; with
many, the whole pattern. Every match (span, named groups, ``lastgroup``) is the whole pattern's:
tests/test_cue_index.py checks the cues and the answers on every corpus text. No compiled set of
branches and no answer is kept per text.

Case-insensitive patterns (``re.IGNORECASE``, ASCII): the cues are derived from the branch as written and
lower-cased, and looked for in the lower-cased text (a match, whatever its case, holds one lower-cased).
The cues are derived on the parse's second message (:data:`bot.parse.regex.ON_SECOND_MESSAGE`); until
then, and for any pattern the private regex parser cannot read, the whole pattern is searched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter

from bot.parse import sre_private
from bot.parse.regex import ON_SECOND_MESSAGE, LazyPattern, compile_pattern, top_level_branches
from bot.parse.regex_gate import required_literals
from bot.parse.sre_private import _parser

MAX_KEPT = 12
"""More branches kept than this: the whole pattern is searched (one C search of the alternation costs
less than this many searches, one a branch, and the Python loop choosing among them)."""

_EMPTY: tuple[()] = ()
_SEARCH = attrgetter("search")
"""A branch's search (the kept branches' searches listed in C: no comprehension frame; s37)."""

_IGNORECASE = int(re.IGNORECASE)
"""``re.IGNORECASE`` as a plain int: ``int & RegexFlag`` calls ``enum.Flag.__and__`` (three Python calls a
test, in every parse's finditer); ``int & int`` none."""


class CuedAlternation:
    """``groups``: ``(name, source)`` pairs, each source an alternation of branches (a name: the branches
    stand in the named group ``(?P<name>…)``, as ``m.lastgroup`` reads; None: at the top level), joined in
    order — the pattern ``(?P<a>x|y)|(?P<b>z)|w``. :meth:`finditer` answers what the whole pattern's does
    (the matches' spans, ``lastgroup`` and named groups; ``m.groups()`` is numbered per branch), asking
    only the branches whose cues occur. ``flags``: ``re.ASCII`` (or 0) and optionally ``re.IGNORECASE``.
    ``declared``: cues for the branches that contain a key ('(?P<zn>'), for a branch whose literals stand
    in a look-ahead (not derived). ``after``: for a branch that contains a key and starts with
    ``(?:^|(?<=X))`` (at the text's start or after a character of class X), the pattern ``X`` followed
    by the rest of the branch: searched first, it finds in C the one place where the branch then
    matches (one character on), instead of the engine trying the branch at every position."""

    __slots__ = (
        "_after",
        "_branches",
        "_cues",
        "_declared",
        "_flags",
        "_of_cue",
        "full",
        "groups",
        "pattern",
    )

    def __init__(
        self,
        groups: Sequence[tuple[str | None, str]],
        flags: int = re.ASCII,
        declared: dict[str, tuple[str, ...]] | None = None,
        after: dict[str, str] | None = None,
    ) -> None:
        self.groups = tuple(groups)
        self._flags = int(flags)
        self._declared = declared or {}
        self._after = after or {}
        self.pattern = "|".join(_group(name, src) for name, src in self.groups)
        self.full = LazyPattern(self.pattern, self._flags)
        """The whole pattern (what the answers must equal): searched before the cues are derived, and for
        a text holding many branches' cues. A parser pattern: the build stores its compiled code."""
        self._branches: list[_Branch] = []  # in the alternation's order
        self._cues: tuple[str, ...] = ()  # every cue, lower-cased when case-insensitive
        self._of_cue: dict[str, frozenset[int]] = {}
        ON_SECOND_MESSAGE.append(self.build)
        CUED.append(self)

    def build(self) -> None:
        """Split each group into its top-level branches and derive (or take the declared) cues of each;
        a branch without any runs always. Not built (the parser unreadable): the whole pattern runs."""
        if not sre_private.OK:
            return
        branches = [
            _Branch(name, b, self._flags, next((a for k, a in self._after.items() if k in b), None))
            for name, src in self.groups
            for b in top_level_branches(src)
        ]
        lower = bool(self._flags & re.IGNORECASE)
        of_cue: dict[str, set[int]] = {"": set()}  # '' is in every text: the branches with no cue
        for i, branch in enumerate(branches):
            said = [cues for key, cues in self._declared.items() if key in branch.source]
            cues = frozenset(said[0]) if said else branch_cues(branch.source, self._flags & ~re.IGNORECASE)
            for cue in cues or ("",):
                of_cue.setdefault(cue.lower() if lower else cue, set()).add(i)
        self._of_cue = {cue: frozenset(ids) for cue, ids in of_cue.items()}
        self._branches = branches
        self._cues = tuple(sorted(self._of_cue))  # last: a reader on another thread sees all or none

    def branch_cues(self) -> list[tuple[str, frozenset[str] | None]]:
        """Each branch's source and cues as :meth:`finditer` uses them (built first): what tests check."""
        if not self._cues:
            self.build()
        cues: dict[int, set[str]] = {}
        for cue, ids in self._of_cue.items():
            for i in ids:
                cues.setdefault(i, set()).update((cue,) if cue else ())
        return [(b.source, frozenset(cues[i]) if cues.get(i) else None) for i, b in enumerate(self._branches)]

    def finditer(self, text: str) -> Iterable[re.Match[str]]:
        """The matches of the whole pattern over ``text``, in order (what ``re.finditer`` yields)."""
        cues = self._cues
        if not cues:
            return self.full.finditer(text)
        low = text.lower() if self._flags & _IGNORECASE else text
        kept = frozenset().union(*map(self._of_cue.__getitem__, filter(low.__contains__, cues)))
        if not kept:
            return _EMPTY
        if len(kept) > MAX_KEPT:
            return self.full.finditer(text)
        branches = self._branches
        found = _leftmost_first(list(map(_SEARCH, map(branches.__getitem__, sorted(kept)))), text)  # C (s37)
        return self.full.finditer(text) if found is None else found


class _Branch:
    """One branch of the alternation, compiled on its own (in its named group) when first searched;
    ``after``: the pattern that finds where it matches past the text's start (:class:`CuedAlternation`)."""

    __slots__ = ("_after", "_compiled", "_flags", "after", "name", "source")

    def __init__(self, name: str | None, source: str, flags: int, after: str | None = None) -> None:
        self.name, self.source, self._flags, self.after = name, source, flags, after
        self._compiled: re.Pattern[str] | None = None
        self._after: re.Pattern[str] | None = None

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = compile_pattern(_group(self.name, self.source), self._flags)
            if self.after is not None:
                self._after = compile_pattern(self.after, self._flags)
        after = self._after
        if after is None:
            return compiled.search(text, pos)
        if not pos and (m := compiled.match(text)) is not None:
            return m  # at the text's start ('^')
        found = after.search(text, pos - 1 if pos else 0)  # X one character before the branch's start
        if found is None:
            return None
        start = found.start() + 1
        return compiled.match(text, start) or compiled.search(text, start)  # match: the same as found


def _leftmost_first(
    searches: list[Callable[..., re.Match[str] | None]], text: str
) -> list[re.Match[str]] | None:
    """The matches an alternation of the branches (``searches``, in order) finds over ``text``: at the
    leftmost place where one matches, the first in order that matches there; then on from its end.
    Each branch's next match is searched again only once the last match chosen passed its start. None
    when a match is empty (the engine's rule for those after another match is not followed here)."""
    found: list[re.Match[str]] = []
    nexts = []  # a loop: no comprehension frame (s37)
    for search in searches:
        nexts.append(search(text))
    while True:
        best = None
        for m in nexts:
            if m is not None and (best is None or m.start() < best.start()):
                best = m  # strictly left of the best so far: an earlier branch wins a tie
        if best is None:
            return found
        pos = best.end()
        if pos == best.start():
            return None
        found.append(best)
        nexts = [
            m if m is None or m.start() >= pos else s(text, pos) for m, s in zip(nexts, searches, strict=True)
        ]


CUED: list[CuedAlternation] = []
"""Every cued alternation made (module level, made once): tests/test_cue_index.py checks each."""


def _group(name: str | None, source: str) -> str:
    return f"(?P<{name}>{source})" if name else source


def branch_cues(branch: str, flags: int) -> frozenset[str] | None:
    """The literals one of which every match of ``branch`` (case-sensitive) contains, or None."""
    try:
        return required_literals(_parser.parse(branch, int(flags)))
    except re.error:  # an unreadable branch always runs
        return None
