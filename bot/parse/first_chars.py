"""A first-character scan for patterns the regex engine has none for (issue 23 item 7, session 16).

When a pattern has no literal prefix and does not start with a plain character, a class, or an
alternation of single literals ('\\b(?:with|using)…', '(?<![a-z])pre…', '预训练|…|(?<!x)pre…'),
CPython's ``re`` compiles it without a start scan: a search tries the whole pattern at every position
of the text, one call of the matcher per character (``_sre`` ``sre_search``, "general case"). On the
corpus the parser's searches spent most of their instructions there (``sre_ucs1_match`` /
``sre_ucs2_match``: 42 % of a parse's instructions, callgrind).

:func:`first_chars` reads the parsed pattern for the characters a match can consume first, skipping
what consumes nothing (``\\b``, look-behinds, look-aheads, optional items); :func:`with_first_chars`
compiles the same pattern with those characters as the start scan of its ``INFO`` block
(``SRE_INFO_CHARSET``, what ``re`` emits for '[ab]…' itself): the engine skips in C every position
whose character is not one of them. A match that consumes at least one character starts at a
position whose character it consumes first, so the set is a superset of the starts and every search,
``finditer``, ``sub`` … returns what the pattern without it returns (``match`` and ``fullmatch`` read
no start scan). Patterns that can match empty text, start with ``^``, use a back-reference or a
conditional, or fold the case of a letter outside ASCII get none (None); under Unicode case folding
an ASCII letter's scan holds its other cases (:data:`UNICODE_FOLDS`). tests/test_first_chars.py checks
every parser pattern against ``re.compile``'s on the corpus texts.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from bot.parse import sre_private
from bot.parse.sre_private import _compiler, _parser, c

_ANY = None
"""What :func:`_first` returns when any character (or one it cannot tell) may come first."""


def first_chars(pattern: str, flags: int = re.ASCII) -> list[tuple[Any, Any]] | None:
    """The charset items (``LITERAL``, ``RANGE``, ``CATEGORY`` as ``re._parser`` writes them) of the
    characters a match of ``pattern`` can start with, or None when none can be said (see the module)."""
    parsed = parse_pattern(pattern, flags)
    return None if parsed is None else _charset_of(parsed, int(flags) | parsed.state.flags)


def start_chars(parsed: Any, flags: int) -> list[tuple[Any, Any]] | None:
    """:func:`first_chars` of a pattern already parsed (:func:`parse_pattern`)."""
    return _charset_of(parsed, int(flags) | parsed.state.flags)


def parse_pattern(pattern: str, flags: int) -> Any:
    """``pattern`` as ``re._parser`` parses it, or None (a pattern it refuses, or no usable parser)."""
    if not sre_private.OK:
        return None
    try:
        return _parser.parse(pattern, int(flags))
    except re.error:
        return None


def _charset_of(parsed: Any, flags: int) -> list[tuple[Any, Any]] | None:
    if parsed.getwidth()[0] == 0 or flags & re.LOCALE:
        return None  # may match empty: every position is a start
    data = list(parsed)
    if data and data[0][0] is c.AT and data[0][1] in (c.AT_BEGINNING, c.AT_BEGINNING_STRING):
        return None  # '^…': the engine tries the start only
    if _compiler._get_literal_prefix(parsed, flags)[0] or _compiler._get_charset_prefix(parsed, flags):
        return None  # the engine has a start scan of its own
    found = _sequence(data, flags)
    if found is _ANY or found[1]:  # found[1]: the whole pattern can consume nothing
        return None
    return found[0]


_CHARSET_FLAGS = re.ASCII | re.UNICODE | re.LOCALE
"""Flags a local group ('(?a:…)', '(?u:…)', '(?L:…)') may add that change what a category in a charset
matches: the start scan's charset is compiled with the pattern's top-level flags, so such a group gets no
scan (review of session 16: '(?<!z)(?u:\\w)x' with re.ASCII lost the match of 'éx')."""


def _sequence(items: list[tuple[Any, Any]], flags: int) -> tuple[list[tuple[Any, Any]], bool] | None:
    """(the first-character items of a sequence, whether it can consume nothing), or None: any."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        found = _item(op, av, flags)
        if found is _ANY:
            return _ANY
        out += found[0]
        if not found[1]:
            return out, False
    return out, True


def _item(op: Any, av: Any, flags: int) -> tuple[list[tuple[Any, Any]], bool] | None:
    """:func:`_sequence` of one parsed item."""
    if op is c.LITERAL or op is c.IN:
        items = [(op, av)] if op is c.LITERAL else list(av)
        if not all(o in (c.LITERAL, c.RANGE, c.CATEGORY) for o, _ in items):
            return _ANY  # a negated class …
        cased = _cased(items, flags)
        return _ANY if cased is None else (cased, False)
    if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
        return [], True  # consumes nothing: the next item's characters come first
    if op is c.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        if add_flags & _CHARSET_FLAGS:  # '(?u:\w)': the scan's charset is compiled with the top flags
            return _ANY
        return _sequence(list(sub), (flags | add_flags) & ~del_flags)
    if op is c.ATOMIC_GROUP:
        return _sequence(list(av), flags)
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, _high, sub = av
        found = _sequence(list(sub), flags)
        return _ANY if found is _ANY else (found[0], found[1] or low == 0)
    if op is c.BRANCH:
        out: list[tuple[Any, Any]] = []
        empty = False
        for branch in av[1]:
            found = _sequence(list(branch), flags)
            if found is _ANY:
                return _ANY
            out += found[0]
            empty = empty or found[1]
        return out, empty
    return _ANY  # ANY, NOT_LITERAL, GROUPREF, GROUPREF_EXISTS, a category outside a class …


UNICODE_FOLDS = {"i": (0x130, 0x131), "k": (0x212A,), "s": (0x17F,)}
"""The characters outside ASCII that Unicode case folding (``(?i)`` without ``re.ASCII``) matches with
an ASCII letter: 'İ' and 'ı' with 'i', the Kelvin sign with 'k', 'ſ' with 's' (re._casefix and the
lower-case mapping; tests/test_first_chars.py checks every code point)."""


def _cased(items: list[tuple[Any, Any]], flags: int) -> list[tuple[Any, Any]] | None:
    """``items`` and, under case folding, their letters' other cases; None when a character outside
    ASCII folds (Unicode mode) and no short list of its cases can be said."""
    if not flags & re.IGNORECASE:
        return items
    folds = not flags & re.ASCII
    out = list(items)
    for op, av in items:
        lo, hi = (av, av) if op is c.LITERAL else av if op is c.RANGE else (0, -1)
        if folds and any(_iscased(ch) for ch in range(max(lo, 128), hi + 1)):
            return None  # a cased character outside ASCII
        for a, b, shift in ((65, 90, 32), (97, 122, -32)):  # A-Z ↔ a-z
            a, b = max(lo, a), min(hi, b)
            if a <= b:
                out.append((c.RANGE, (a + shift, b + shift)))
                if folds:
                    low = sorted({chr(ch).lower() for ch in range(a, b + 1)})
                    out += [(c.LITERAL, x) for letter in low for x in UNICODE_FOLDS.get(letter, ())]
    return out


def _iscased(ch: int) -> bool:
    import _sre

    return bool(_sre.unicode_iscased(ch))


def with_first_chars(compiled: re.Pattern[str], parsed: Any = None) -> re.Pattern[str] | None:
    """``compiled`` made again with a start scan of :func:`first_chars` (the code ``re`` makes, its
    ``INFO`` block given that charset), or None when it gets none or the engine refuses the code.
    ``parsed``: the pattern as :func:`parse_pattern` gives it, when the caller has it (parsed here else)."""
    parsed = parsed if parsed is not None else parse_pattern(compiled.pattern, compiled.flags)
    if parsed is None:
        return None
    flags = compiled.flags | parsed.state.flags
    charset = _charset_of(parsed, flags)
    if charset is None:
        return None
    try:
        import _sre

        lo, hi = parsed.getwidth()
        optimized, _cased_any = _compiler._optimize_charset(charset)
        info: list[int] = []
        _compiler._compile_charset(optimized, flags, info)
        code = [c.INFO, 0, c.SRE_INFO_CHARSET, min(lo, _compiler.MAXCODE), min(hi, _compiler.MAXCODE), *info]
        code[1] = len(code) - 1
        _compiler._compile(code, parsed.data, flags)
        code.append(c.SUCCESS)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in parsed.state.groupdict.items():
            indexgroup[index] = name
        return _sre.compile(  # type: ignore[no-any-return]
            compiled.pattern,
            flags,
            [int(x) for x in code],
            parsed.state.groups - 1,
            dict(parsed.state.groupdict),
            tuple(indexgroup),
        )
    except Exception:  # an engine that refuses the code (another CPython): the pattern as it was
        return None


def scan_module_patterns(prefix: str = "bot.parse.") -> int:
    """Give the compiled patterns held by the globals of the loaded ``prefix`` modules (``X_RE =
    re.compile(…)``, imported or not) their start scan: each global rebound to the pattern of
    :func:`with_first_chars` (one per pattern object, so a pattern imported elsewhere stays the same
    object everywhere). A global :mod:`bot.parse.module_gates` already rebound to its gated stand-in
    gets a new stand-in, the same gate in front of its pattern scanned (the stand-in is no
    ``re.Pattern``: skipped, it kept its pattern unscanned). Patterns inside tables are left as they
    are. Returns how many were rebound."""
    from bot.parse import module_gates  # imports this module: read when the hook runs

    rebound, made = rebind_module_globals(prefix, lambda value: _scanned(value, module_gates))
    for key in made.keys() & module_gates.GATED.keys():  # stand-ins replaced: their ids may be reused
        if made[key] is not None:
            del module_gates.GATED[key]
    return rebound


def rebind_module_globals(prefix: str, make: Callable[[object], Any]) -> tuple[int, dict[int, Any]]:
    """Rebind each global of the loaded ``prefix`` modules to ``make(value)`` where that is not None, one
    call per object (a value imported into several modules gets the same replacement everywhere). Returns
    (how many globals were rebound, each object id → what ``make`` gave)."""
    made: dict[int, Any] = {}
    rebound = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix) or module is None:
            continue
        space = vars(module)
        for key, value in list(space.items()):
            if id(value) not in made:
                made[id(value)] = make(value)
            if made[id(value)] is not None:
                space[key] = made[id(value)]
                rebound += 1
    return rebound, made


def _scanned(value: object, module_gates: Any) -> Any:
    """What :func:`scan_module_patterns` rebinds ``value`` to: a compiled pattern's scanned form, a gated
    stand-in's new stand-in over its scanned pattern, or None (left as it is)."""
    if type(value) is re.Pattern and isinstance(value.pattern, str):
        return with_first_chars(value)
    entry = module_gates.GATED.get(id(value))
    if entry is None or getattr(value, "_compiled", None) is not entry[0]:
        return None
    scanned = with_first_chars(entry[0])
    return None if scanned is None else module_gates.gated(scanned)
