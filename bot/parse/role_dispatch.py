"""The per-number rules of :mod:`bot.parse.roles` chosen from the words around the number (issue 23 item 7).

:func:`bot.parse.roles.classify` tries its six rules in order at every number, ~30 ``match`` calls a
number, although most rules can only answer for a few words after (or before) it: the byte rule needs
'gb'/'g'/'tb'… right after the number, the money rule '元', '$', '%', 'budget', 'mfu'… :func:`classify`
here asks the same rules in the same order, but only those that can answer for the number's keys:

- the first character after the number that is not white space (of the words the rules read, and of
  the text as written, for the rules that read it past a range),
- the last character before it that is not white space,
- and the few facts about the number a rule answers from without words ('7B' alone is a bare size).

Which keys can wake a rule is read off its patterns once (:func:`first_chars`): every pattern that
must match for the rule to answer (:data:`TRIGGERS`), its possible first (right-hand words, ``match``)
or last (left-hand words, anchored at ``$``) characters that are not white space; a pattern that may
match white space alone, or whose characters are not a small set, wakes its rule always. A rule left
out answers None (not its case) for that number, so the first rule with an answer, and the role, are
those of :func:`bot.parse.roles.classify` (tests/test_parse_role_dispatch.py compares both at every
number of the corpus and of generated texts). The choice is one dictionary look-up per number, built
on first use for each combination of keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.parse import followup_words as fw
from bot.parse import node_words as nw
from bot.parse import role_left as rl
from bot.parse import roles as r
from bot.parse import sre_private
from bot.parse.numbers import NumberToken
from bot.parse.regex import ON_SECOND_MESSAGE
from bot.parse.roles import NO_ROLE, Role, seq_value
from bot.parse.sre_private import (
    _parser,
    c,  # the parsed form of a pattern (CPython ≥ 3.11; guarded there)
)

__all__ = ["Role", "classify", "first_chars", "seq_value", "warm"]

WS = " \t\n\r\f\v"
"""White space as ``\\s`` in an ASCII-mode pattern (``str.lstrip`` with these characters)."""
_WIDE = 512
"""A character class of more characters than this (a CJK range, ``\\w`` in Unicode mode): any key."""


UNICODE_SPACES = frozenset(
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
"""What ``\\s`` matches in Unicode mode besides :data:`WS` (``str.isspace`` less WS; a test checks it)."""


CharSet = frozenset[str] | None
"""A set of characters, None for 'any character'."""


def _union(a: CharSet, b: CharSet) -> CharSet:
    return None if a is None or b is None else a | b


def _class(items: list[tuple[Any, Any]], ascii_mode: bool) -> tuple[CharSet, bool]:
    """(non-white characters, whether a white-space character is one) of a character class."""
    chars: set[str] = set()
    space = False
    for op, av in items:
        if op is c.NEGATE:
            return None, True
        if op is c.LITERAL:
            chars.add(chr(av))
        elif op is c.RANGE:
            if av[1] - av[0] > _WIDE:
                return None, True
            chars.update(map(chr, range(av[0], av[1] + 1)))
        elif op is c.CATEGORY and av is c.CATEGORY_DIGIT and ascii_mode:
            chars.update("0123456789")
        elif op is c.CATEGORY and av is c.CATEGORY_SPACE:
            space = True  # ASCII mode: exactly WS; Unicode mode: also these, kept as keys (not stripped)
            if not ascii_mode:
                chars.update(UNICODE_SPACES)
        else:  # \w, \D, \S, \W, a Unicode \d …: too many characters
            return None, True
    space = space or bool(chars & set(WS))
    return frozenset(chars - set(WS)), space


def _sequence(items: list[tuple[Any, Any]], ascii_mode: bool, reverse: bool) -> tuple[CharSet, bool]:
    """(first non-white characters a match can have, whether a match can be white space alone); from
    the end when ``reverse`` (last characters)."""
    first: CharSet = frozenset()
    for op, av in reversed(items) if reverse else items:
        chars, space = _item(op, av, ascii_mode, reverse)
        first = _union(first, chars)
        if not space:
            return first, False
    return first, True


def _item(op: Any, av: Any, ascii_mode: bool, reverse: bool) -> tuple[CharSet, bool]:
    if op is c.LITERAL:
        ch = chr(av)
        return (frozenset(), True) if ch in WS else (frozenset(ch), False)
    if op is c.IN:
        return _class(av, ascii_mode)
    if op in (c.AT, c.ASSERT, c.ASSERT_NOT):
        return frozenset(), True  # zero width: leaves the next item's characters first
    if op is c.SUBPATTERN:
        if av[1] & re.IGNORECASE:
            return None, True
        return _sequence(list(av[3]), ascii_mode, reverse)
    if op is c.ATOMIC_GROUP:
        return _sequence(list(av), ascii_mode, reverse)
    if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
        low, high, sub = av
        if high == 0:
            return frozenset(), True
        chars, space = _sequence(list(sub), ascii_mode, reverse)
        return chars, space or low == 0
    if op is c.BRANCH:
        first: CharSet = frozenset()
        space = False
        for branch in av[1]:
            chars, branch_space = _sequence(list(branch), ascii_mode, reverse)
            first, space = _union(first, chars), space or branch_space
        return first, space
    return None, True  # ANY, NOT_LITERAL, a group reference …: any character


def _ends_at_end(items: list[tuple[Any, Any]]) -> bool:
    """Whether every match of the parsed sequence ends with ``$`` (its last item, in every branch)."""
    if not items:
        return False
    op, av = items[-1]
    if op is c.AT:
        return av is c.AT_END
    if op is c.BRANCH:
        return all(_ends_at_end(list(b)) for b in av[1])
    if op is c.SUBPATTERN and not av[1] & re.IGNORECASE:
        return _ends_at_end(list(av[3]))
    return False


def _starts_at_start(items: list[tuple[Any, Any]]) -> bool:
    """Whether every match of the parsed sequence starts at ``^`` (its first item, in every branch)."""
    if not items:
        return False
    op, av = items[0]
    if op is c.AT:
        return av in (c.AT_BEGINNING, c.AT_BEGINNING_STRING)
    if op is c.BRANCH:
        return all(_starts_at_start(list(b)) for b in av[1])
    if op is c.SUBPATTERN and not av[1] & re.IGNORECASE:
        return _starts_at_start(list(av[3]))
    return False


class NotAnalysable(ValueError):
    """A trigger pattern whose keys :func:`first_chars` cannot read safely: the table is not built."""


def first_chars(pattern: str, flags: int, side: str) -> CharSet:
    """The keys at which ``pattern`` can match: for ``side`` 'right', the first characters other than
    white space of a match at the start of the text (a pattern every branch of which starts with ``^``,
    so ``search`` and ``match`` agree); for 'at', the same of ``pattern.match(text, pos)`` (the rule
    matches at the number's end: no ``^`` can say so); for 'left', the last ones of a match ending at
    the end (``search`` of a pattern every branch of which ends with ``$``). None (any key) when a match
    may be white space alone, when the characters are too many, or for a left-hand pattern not anchored
    at the end. Raises :class:`NotAnalysable` for a 'right' pattern not anchored with ``^`` and for a
    multi-line pattern (its ``^`` / ``$`` match at every line)."""
    parsed = _parser.parse(pattern, flags)
    all_flags = flags | parsed.state.flags
    if all_flags & re.MULTILINE:
        raise NotAnalysable(f"multi-line trigger pattern: {pattern!r}")
    if side == "right" and not _starts_at_start(list(parsed)):
        raise NotAnalysable(f"'right' trigger pattern not anchored with '^': {pattern!r}")
    if all_flags & re.IGNORECASE:
        return None
    if side == "left" and not _ends_at_end(list(parsed)):
        return None
    ascii_mode = bool((flags | parsed.state.flags) & re.ASCII)
    chars, space = _sequence(list(parsed), ascii_mode, reverse=side == "left")
    return None if space else chars


def _keys(p: Any, side: str) -> CharSet:
    """:func:`first_chars` of a pattern of the parser (``LazyPattern``) or a source string (``re``'s
    default flags, as the rules' inline ``re.match`` calls)."""
    if isinstance(p, str):
        return first_chars(p, 0, side)
    return first_chars(p.pattern, p._flags, side)


# Each rule's patterns one of which must match for it to answer (its other patterns are read only
# after one of these did): 'right' on the words after the number the rule reads (after a range's
# second number), 'raw' on the text right after the number, 'left' on the 32 characters before it.
# A rule also runs when its 'always' test of the number and the next one holds.
TRIGGERS: dict[Callable[..., Any], dict[str, Any]] = {
    r._rates_and_money: {
        "right": (
            r.R_ONE_CARD_HOUR, r.R_CNY_PER_CARD_HOUR, r.R_PERCENT, r.R_BUDGET, r.R_MONEY_CNY, r.R_MONEY_USD,
        ),
        "raw": (rl._PER_GPU_HOUR, rl._PER_HOUR),  # bare_price, read at the number's end
        "left": (rl.L_BATCH, rl.L_MFU, rl.L_CURRENCY, rl.L_PRICE),
    },
    r._bytes: {"right": (r.R_BYTES,)},
    r._counts: {
        "right": (
            r.R_GPU_HOURS, r"^\s*[x×*](?P<m>\d{1,2})(?![\d.])", r.R_PER_NODE, r.R_DGX, r.R_NODE_OF,
            r.R_KUAI, r.R_COUNT_GPU, r.R_COUNT_WORD, r.R_DASH_GPU, nw.R_WORDS_THEN_CARDS, r.R_COUNT_MEM_NAME,
            r.R_X_AFTER, nw.R_CARD_NODES,  # s29: 'two A100 servers'
        ),
        "left": (rl.L_NODES_UNKNOWN, rl.L_BUDGET, r.L_GPU_TIMES),
        "always": lambda tok, nxt: nxt is not None and not tok.mag and not nxt.mag,  # 'N nodes × M GPUs'
    },
    r._data_and_size: {
        "right": (
            r.R_TPS, r.R_SEQ_TOKENS, r.R_TOKENS, r.R_PROMPTS, r.R_CHARS, r.R_TOKEN_MODEL, r.R_DATA,
            r.R_ACTIVE, r.R_TOTAL, r.R_PARAMS,
        ),
        "left": (nw.L_ACTIVE, nw.L_TOTAL),
    },
    r._time_and_load: {
        "right": (
            r.R_DAYS, r.R_WEEKS, r.R_MONTHS, r.R_YEARS, r.R_SEQ, r.R_SEQ_JOB, r.R_CONC,
            r"^\s*of\s+(?:them|these|those)\b", fw.R_OF_THEM, r.R_SAMPLES, r.R_EPOCHS,
        ),
        "left": (fw.L_ONLY_HAVE,),  # followup_gpu_count: 'only have 256'
        "always": lambda tok, nxt: tok.kind == "word",  # a number word with no role is none (NO_ROLE)
    },
    r._left_words: {
        "left": (*(p for p, _ in rl.LEFT_ROLES), rl.L_TOKENS, rl.L_PARAMS),
        "always": lambda tok, nxt: tok.mag_scale in ("B", "T", "M"),  # a bare size, or one after a label
    },
}  # fmt: skip
"""Per rule of :data:`bot.parse.roles._RULES`, what can make it answer; a rule not here always runs."""


class _Rule:
    """One rule and its keys (None: any key)."""

    __slots__ = ("always", "left", "raw", "right", "rule")

    def __init__(self, rule: Callable[..., Any]) -> None:
        spec = TRIGGERS.get(rule)
        self.rule = rule
        self.always: Callable[..., bool] | None = (
            (lambda tok, nxt: True) if spec is None else spec.get("always")
        )
        self.right, self.raw, self.left = (self._side(spec, name) for name in ("right", "raw", "left"))

    @staticmethod
    def _side(spec: dict[str, Any] | None, name: str) -> CharSet:
        keys: CharSet = frozenset()
        for p in (spec or {}).get(name, ()):
            keys = _union(keys, _keys(p, {"raw": "at"}.get(name, name)))
        return keys

    def wakes(self, right: str, raw: str, left: str, tok: NumberToken, nxt: NumberToken | None) -> bool:
        return (
            self.right is None
            or self.raw is None
            or self.left is None
            or right in self.right
            or raw in self.raw
            or (raw == _FAR and bool(self.raw))
            or left in self.left
            or (self.always is not None and self.always(tok, nxt))
        )


_CHOICES: dict[tuple[Any, ...], tuple[Callable[..., Any], ...]] = {}
"""(keys, the number's facts) → the rules to ask, in order; filled on first use of each combination."""
MAX_CHOICES = 8192
"""At most this many combinations kept (~1.5 MB; 184 over the corpus): a bot's memory stays bounded, and
a combination beyond them is chosen again at each number (a few µs)."""
_TABLE: list[Any] = []
"""[the rules' tuple, their :class:`_Rule` each] once :func:`warm` ran; empty before. :func:`classify`
checks the tuple is still :data:`bot.parse.roles._RULES` before it uses :data:`_CHOICES`."""


def build() -> list[Any]:
    """[the rules' tuple, their :class:`_Rule` each]; raises :class:`NotAnalysable` on a trigger pattern
    whose keys cannot be read safely (tests build it)."""
    return [r._RULES, [_Rule(rule) for rule in r._RULES]]


def warm() -> None:
    """Read the rules' keys off their patterns (parses ~60 patterns, a few ms): run from a process's
    second message on (:data:`bot.parse.regex.ON_SECOND_MESSAGE`); the first message is classified by
    :func:`bot.parse.roles.classify` itself (``sizing-bot ask`` answers one: start-up), as every
    message is when the private regex parser is missing or not as expected (review item 5)."""
    if not sre_private.OK:
        _TABLE.clear()
        return
    table = build()
    _CHOICES.clear()
    _TABLE[:] = table


ON_SECOND_MESSAGE.append(warm)


def _rules(key: tuple[Any, ...], tok: NumberToken, nxt: NumberToken | None) -> tuple[Callable[..., Any], ...]:
    """The rules ``key`` wakes (``key``'s last three items are all that the 'always' tests read)."""
    chosen = tuple(x.rule for x in _TABLE[1] if x.wakes(key[0], key[1], key[2], tok, nxt))
    if len(_CHOICES) < MAX_CHOICES:
        _CHOICES[key] = chosen
    return chosen


_FAR = "far"
"""The 'raw' key when the 48 characters after the number are all white space (the text goes on)."""


def _first_key(text: str) -> str:
    """The first character of ``text`` other than white space; '' when none ("any": :func:`_rules`)."""
    return text.lstrip(WS)[:1]


def classify(tok: NumberToken, s: str, nxt: NumberToken | None) -> Role | None:
    """:func:`bot.parse.roles.classify`, asking only the rules the number's keys can wake."""
    if not _TABLE:
        return r.classify(tok, s, nxt)
    if _TABLE[0] is not r._RULES:  # the rules were replaced (a test): the choices made are stale
        warm()
    around = r._around(tok, s, nxt)
    raw = s[tok.end : tok.end + 48]
    key = (
        _first_key(around.right),
        _first_key(raw) or (_FAR if len(raw) == 48 else ""),  # read past the 48: any 'raw' key
        around.left.rstrip(WS)[-1:],
        tok.kind == "word",
        tok.mag_scale,
        nxt is not None and not tok.mag and not nxt.mag,
    )
    rules = _CHOICES.get(key)
    if rules is None:
        rules = _rules(key, tok, nxt)
    for rule in rules:
        verdict = rule(around)
        if verdict is not None:
            return None if verdict is NO_ROLE else verdict  # type: ignore[return-value]
    return None
