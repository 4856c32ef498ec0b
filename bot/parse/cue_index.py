"""A declared-cue index over a table of readers: one C pass says which readers can match a text.

A table of readers (``(pattern, name)`` pairs: the training tools, the runtimes, …) was read by searching
every reader's pattern in turn, or by one search of their whole alternation first (most messages name
none): each a regex search over the whole text. Here each reader declares its *cues*: literal strings
one of which every match of its pattern contains. They are derived from the pattern
(:func:`bot.parse.regex_gate.required_literals`, the same necessary condition the presence gates use),
or declared by hand for a pattern none can be derived from (or a rarer set than the derived one).
:meth:`CueTable.candidates` tests every cue of the table with ``str.__contains__`` in one C loop
(``filter``), and returns only the readers one of whose cues occurs, in the table's order. A reader
with no cue always runs. A reader can match only where the text holds one of its cues, so the answer
of a loop over the candidates is the loop over the whole table (tests/test_cue_index.py checks each
reader's cues are necessary on every corpus text, so a reader added later is never skipped wrongly).

Opting in: make the table once at import, ``TOOLS_INDEX = CueTable(TOOLS)``; read it with
``for pattern, name in TOOLS_INDEX.candidates(s)``. ``declared={name: ("cue", …)}`` overrides a reader's
derived cues. ``folded=True``: the readers are case-insensitive patterns asked of a text as typed (the
whole-message steps of :func:`bot.parse.parse`); their cues are lower case and tested on :func:`fold` of the
text, and a reader's derived cues are its pattern's required literals lower-cased (only literals of ASCII
and caseless CJK characters: another cased character folds in ways :func:`fold` does not follow). The
cues are derived on the parse's second message (as the presence gates are: a one-message ``sizing-bot
ask`` never parses the patterns again); until then every reader runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from operator import itemgetter
from typing import Any, Generic, TypeVar

from bot.parse import sre_private
from bot.parse.regex import ON_SECOND_MESSAGE
from bot.parse.regex_gate import required_literals
from bot.parse.sre_private import _parser

T = TypeVar("T")

_FIRST = itemgetter(0)
_SECOND = itemgetter(1)


_FOLD_EXTRA = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})
"""The characters a case-insensitive ``re`` pattern matches to an ASCII letter whose ``str.lower()`` is not
that letter: 'İ' (lower 'i̇', two characters), dotless 'ı', long 'ſ' (CPython 3.11 ``re._casefix`` and
``_sre.unicode_tolower``; tests/test_cue_index.py checks every code point)."""
FOLD_TABLE = _FOLD_EXTRA
"""The table of :func:`fold`'s ``str.translate`` (for a caller folding without a frame)."""


def fold(text: str) -> str:
    """``text`` with every character a case-insensitive pattern matches to an ASCII letter written as that
    letter (lower case), others lower-cased: a lower-case ASCII or CJK literal of a case-insensitive
    pattern occurs in ``fold(text)`` wherever the pattern matches it in ``text``. C calls only."""
    return text.lower() if text.isascii() else text.translate(_FOLD_EXTRA).lower()  # ASCII: O(1) test


def forget() -> None:
    """Empty every table's memo (:meth:`CueTable.candidates`) and every :func:`per_message` reader's:
    called at the start of each parse (:func:`bot.parse.assemble.parse`), so no answer is carried from
    one message to the next."""
    for table in TABLES:
        table._memo = None
    for box in MEMOS:
        box[0] = None


MEMOS: list[list[Any]] = []
"""The one-entry memo of each :func:`per_message` reader (a one-item list holding ``(text, answer)``)."""


def per_message(reader: Callable[[str], T]) -> Callable[[str], T]:
    """``reader`` (a pure function of one text), answered from a one-entry memo when asked again of the
    same string object within one parse (``explicit_stage(s0)`` is asked by five steps of a parse):
    :func:`forget` empties it at the start of each, so nothing is kept from one message to the next.
    The entry is one tuple: a reader on another thread sees a whole entry or none, and compares by
    identity (the entry holds its text, so no other string can take its place)."""
    box: list[Any] = [None]
    MEMOS.append(box)

    def memoized(text: str) -> T:
        entry = box[0]
        if entry is not None and entry[0] is text:
            return entry[1]  # type: ignore[no-any-return]
        answer = reader(text)
        box[0] = (text, answer)
        return answer

    memoized.__doc__, memoized.__name__, memoized.__qualname__ = (
        reader.__doc__,
        reader.__name__,
        reader.__qualname__,
    )
    memoized.__wrapped__ = reader  # type: ignore[attr-defined]
    return memoized


def derived_cues(pattern: str, flags: int = re.ASCII, folded: bool = False) -> frozenset[str] | None:
    """The literals one of which every match of ``pattern`` (source, compiled with ``flags``) contains;
    None when none can be said (case-insensitive unless ``folded``, a branch without a literal, the
    private regex parser missing: :data:`bot.parse.sre_private.OK`). ``folded``: the literals lower-cased,
    to be tested on :func:`fold` of a text; None if one holds a character neither ASCII nor CJK (its case
    folding is not :func:`fold`'s). Source: the parsed pattern (``re._parser``)."""
    if not sre_private.OK:
        return None
    try:
        parsed = _parser.parse(pattern, int(flags))
    except re.error:
        return None
    if not folded:
        return None if (int(flags) | parsed.state.flags) & re.IGNORECASE else required_literals(parsed)
    lits = required_literals(parsed)
    if lits is None or not all(map(_CASE_KNOWN.fullmatch, lits)):
        return None
    return frozenset(lit.lower() for lit in lits)


_CASE_KNOWN = re.compile(r"[\x00-\x7f\u3000-\u9fff]+")
"""Literals whose case folding is :func:`fold`'s: ASCII, and CJK punctuation, kana and ideographs."""


def pattern_cues(pattern: Any, folded: bool = False) -> frozenset[str] | None:
    """:func:`derived_cues` of a :class:`bot.parse.regex.LazyPattern` or a compiled ``re.Pattern``."""
    flags = getattr(pattern, "_flags", None)
    if flags is None:
        flags = pattern.flags
    return derived_cues(pattern.pattern, int(flags), folded)


TABLES: list[CueTable[Any]] = []
"""Every table made (module-level, made once): tests/test_cue_index.py checks each reader's cues."""


class CueTable(Generic[T]):
    """A table of readers (``items``: each holds a pattern, ``pattern_of(item)``; named ``name_of(item)``)
    and the cues each needs. :meth:`candidates` is the table less the readers none of whose cues the
    text holds; :attr:`cues` gives each reader's cues (None: it always runs)."""

    __slots__ = (
        "_all",
        "_always",
        "_any",
        "_bare",
        "_declared",
        "_fold",
        "_items",
        "_memo",
        "_name_of",
        "_of_cue",
        "_pattern_of",
        "cues",
    )

    def __init__(
        self,
        items: Sequence[T],
        pattern_of: Callable[[T], Any] = _FIRST,
        name_of: Callable[[T], Hashable] = _SECOND,
        declared: dict[Hashable, tuple[str, ...]] | None = None,
        folded: bool = False,
    ) -> None:
        self._items = tuple(items)
        self._fold = folded
        self._pattern_of, self._name_of, self._declared = pattern_of, name_of, declared or {}
        self.cues: tuple[frozenset[str] | None, ...] = (None,) * len(self._items)
        self._of_cue: dict[str, frozenset[int]] = {}
        self._all: tuple[str, ...] = ()
        self._always = frozenset(range(len(self._items)))  # until built: every reader runs
        self._any: Callable[[str], Any] | None = None
        self._bare: tuple[T, ...] = ()
        self._memo: tuple[str, tuple[T, ...]] | None = None
        ON_SECOND_MESSAGE.append(self.build)  # parsing ~60 patterns: never in a one-message ``ask``
        TABLES.append(self)

    def build(self) -> None:
        """Derive (or take the declared) cues of each reader and index them. Until this runs (the
        parse's second message, :func:`bot.parse.regex.add_gates`) every reader is a candidate."""
        declared, name_of = self._declared, self._name_of
        cues = tuple(
            frozenset(declared[name_of(item)])
            if name_of(item) in declared
            else pattern_cues(self._pattern_of(item), self._fold)
            for item in self._items
        )
        of_cue: dict[str, set[int]] = {}
        for i, needed in enumerate(cues):
            for cue in needed or ():
                of_cue.setdefault(cue, set()).add(i)
        self.cues = cues
        self._of_cue = {cue: frozenset(ids) for cue, ids in of_cue.items()}  # before _all: a reader
        self._all = tuple(sorted(of_cue))  # on another thread sees a consistent table at each step
        self._always = frozenset(i for i, needed in enumerate(cues) if not needed)
        self._bare = tuple(item for i, item in enumerate(self._items) if i in self._always)
        if not self._fold and self._all:  # s34: one C search of every cue first (see candidates)
            self._any = re.compile("|".join(map(re.escape, sorted(self._all, key=len, reverse=True)))).search
        self._memo = None  # a memo made before holds every reader: right, but not what the index gives

    def candidates(self, text: str) -> tuple[T, ...]:
        """The readers, in the table's order, one of whose cues occurs in ``text`` (and those with none).
        C calls only: no Python frame per cue or per reader. The same string object asked again within
        one parse (the tools are asked of the message four times) is answered from :meth:`forget`'s
        one-entry memo, which each parse empties: nothing is kept from one message to the next."""
        memo = self._memo
        if memo is not None and memo[0] is text:
            return memo[1]
        if self._fold:  # fold(text), no frame; an ASCII text has none of the table's characters (s34)
            within = text.lower() if text.isascii() else text.translate(_FOLD_EXTRA).lower()
        else:
            within = text
            # s34: one search of the cues' alternation (C, ~2-3 µs) before the ~30-70 ``in`` tests (~4-5 µs):
            # of a tool table's ~300 calls over the corpus, ~240 find no cue; then only readers with none
            if self._any is not None and self._any(within) is None:
                self._memo = (text, self._bare)
                return self._bare
        ids = self._always.union(*map(self._of_cue.__getitem__, filter(within.__contains__, self._all)))
        found = tuple(map(self._items.__getitem__, sorted(ids)))
        self._memo = (text, found)  # one tuple: a reader on another thread sees a whole entry or none
        return found

    def readers(self) -> list[tuple[Any, frozenset[str] | None]]:
        """Each reader's pattern and its cues (built first if need be): what the tests check."""
        if self._always and len(self._always) == len(self._items) and self._items and not self._all:
            self.build()
        return [(self._pattern_of(item), cues) for item, cues in zip(self._items, self.cues, strict=True)]

    @property
    def folded(self) -> bool:
        """Whether the cues are tested on :func:`fold` of a text (case-insensitive readers)."""
        return self._fold

    def any_cue(self, text: str) -> bool:
        """Whether some reader of the table could match ``text`` (a cue of one occurs, or one has none)."""
        within = fold(text) if self._fold else text
        return bool(self._always) or any(map(within.__contains__, self._all))
