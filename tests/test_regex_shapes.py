"""The parser's patterns have no shape that costs O(n²) on a long message (s24 trial #1: a 10,000-character
message took 12 s, a 20,000-character one 45 s, all in one ``search``).

Not timed: the shapes are read off the parsed patterns (CPython's ``re._parser``, as
:mod:`bot.parse.sre_private` reads them). A lookahead that scans on (``(?=.*?word)``) in a pattern not
anchored at the start is retried by ``search`` at every position, each try a scan to the end; two
unbounded repeats in a row whose characters overlap (``[a-z]{2,}[a-z\\-]*``) split one run of letters
every way from one start.
"""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import re
import sys

import pytest

import bot.parse
from bot.parse import sre_private
from bot.parse.regex import LazyPattern

c = sre_private.c
pytestmark = pytest.mark.skipif(
    not sre_private.OK, reason="CPython's private regex parser is not as expected"
)

_ANCHORS = ("AT_BEGINNING", "AT_BEGINNING_STRING")


def _module_patterns() -> dict[str, tuple[str, int]]:
    """Every module-level pattern of :mod:`bot.parse` (``re.compile`` and :func:`bot.parse.regex.rc`)."""
    for info in pkgutil.walk_packages(bot.parse.__path__, "bot.parse."):
        importlib.import_module(info.name)
    found: dict[str, tuple[str, int]] = {}
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("bot.parse") or module is None:
            continue
        for key, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                found.setdefault(f"{name}.{key}", (value.pattern, value.flags))
            elif isinstance(value, LazyPattern):
                found.setdefault(f"{name}.{key}", (value.pattern, value._flags))
    return found


def _scanning_lookaheads(items, anchored: bool) -> list[str]:
    """Lookaheads in ``items`` whose body starts with an unbounded repeat of any character, in a
    sequence that does not start at ``\\A`` / ``^``."""
    found: list[str] = []
    items = list(items)
    if items and items[0][0] is c.AT and str(items[0][1]) in _ANCHORS:
        anchored = True
    for op, av in items:
        if op in (c.ASSERT, c.ASSERT_NOT) and av[0] == 1:  # a lookahead
            body = list(av[1])
            head = body[0] if body else None
            if (
                not anchored
                and head is not None
                and head[0] in (c.MAX_REPEAT, c.MIN_REPEAT)
                and head[1][1] == c.MAXREPEAT
                and [x[0] for x in head[1][2]] == [c.ANY]
            ):
                found.append(str(op))
            found += _scanning_lookaheads(body, anchored)
        elif op is c.BRANCH:
            for branch in av[1]:
                found += _scanning_lookaheads(branch, anchored)
        elif op is c.SUBPATTERN:
            found += _scanning_lookaheads(av[3], anchored)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            found += _scanning_lookaheads(av[2], anchored)
    return found


def _char_set(item, flags: int) -> set[int] | None:
    """The characters below U+0100 that one-character ``item`` matches, or None when it is not one."""
    op, av = item
    if op is c.LITERAL:
        return {av}
    if op is c.ANY:
        return set(range(256)) - ({10} if not flags & re.DOTALL else set())
    if op is c.IN:
        out: set[int] = set()
        negate = False
        for kind, value in av:
            if kind is c.NEGATE:
                negate = True
            elif kind is c.LITERAL:
                out.add(value)
            elif kind is c.RANGE:
                out |= set(range(value[0], min(value[1], 255) + 1))
            elif kind is c.CATEGORY:
                cat = {
                    c.CATEGORY_DIGIT: r"\d",
                    c.CATEGORY_NOT_DIGIT: r"\D",
                    c.CATEGORY_SPACE: r"\s",
                    c.CATEGORY_NOT_SPACE: r"\S",
                    c.CATEGORY_WORD: r"\w",
                    c.CATEGORY_NOT_WORD: r"\W",
                }.get(value)
                if cat is None:
                    return None
                out |= {i for i in range(256) if re.match(cat, chr(i), re.ASCII)}
            else:
                return None
        return set(range(256)) - out if negate else out
    return None


def _unbounded_single(item, flags: int) -> set[int] | None:
    op, av = item
    if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[1] == c.MAXREPEAT and len(av[2]) == 1:
        return _char_set(next(iter(av[2])), flags)
    return None


def _overlapping_runs(items, flags: int) -> int:
    """How many places in ``items`` hold two unbounded one-character repeats in a row, the first at
    least one long, whose characters overlap (letters only: a run of letters is what a pasted
    identifier or blob is made of)."""
    items = list(items)
    count = 0
    letters = set(range(ord("a"), ord("z") + 1))
    for first, second in itertools.pairwise(items):
        a, b = _unbounded_single(first, flags), _unbounded_single(second, flags)
        if a and b and first[1][0] >= 1 and a & b & letters:
            count += 1
    for op, av in items:
        if op is c.BRANCH:
            count += sum(_overlapping_runs(branch, flags) for branch in av[1])
        elif op is c.SUBPATTERN:
            count += _overlapping_runs(av[3], flags)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT, c.ASSERT, c.ASSERT_NOT):
            count += _overlapping_runs(av[-1] if op in (c.ASSERT, c.ASSERT_NOT) else av[2], flags)
    return count


def test_the_checks_see_the_shapes():
    """The two detectors flag the shapes that were slow, and not their linear rewrites."""
    old_gate = r"(?=.*?(?:sft|lora))(?=.*?(?:then|[.?!]))"
    assert _scanning_lookaheads(sre_private._parser.parse(old_gate, re.DOTALL), False)
    assert not _scanning_lookaheads(sre_private._parser.parse(r"\A" + old_gate, re.DOTALL), False)
    assert _overlapping_runs(sre_private._parser.parse(r"[a-z]{2,}[a-z\-_.]*\d", re.ASCII), re.ASCII) == 1
    assert _overlapping_runs(sre_private._parser.parse(r"[a-z]{2}[a-z\-_.]*\d", re.ASCII), re.ASCII) == 0


def test_no_unanchored_scanning_lookahead():
    """No pattern of the parser retries a ``(?=.*…)`` at every position."""
    found = _module_patterns()
    assert len(found) > 300  # the walk saw the parser's patterns
    bad = [
        name
        for name, (pattern, flags) in found.items()
        if _scanning_lookaheads(sre_private._parser.parse(pattern, flags), False)
    ]
    assert bad == []


def test_no_overlapping_letter_runs():
    """No pattern of the parser has two unbounded letter runs in a row that can split one run of letters
    many ways (``[a-z]{2,}[a-z._-]*``: quadratic under ``search`` on a pasted blob; s24 review #12: the
    detector was only tried on its own examples)."""
    found = _module_patterns()
    assert len(found) > 300
    bad = [
        name
        for name, (pattern, flags) in found.items()
        if _overlapping_runs(sre_private._parser.parse(pattern, flags), flags)
    ]
    assert bad == []


def test_stage_rigs_gate_anchored_and_still_reads_both_stages():
    """s24 trial #1: the two-stage gate is tried at the start only, and still finds words anywhere."""
    from bot.parse.stage_rigs import GATE_RE

    assert GATE_RE.pattern.startswith(r"\A")
    assert GATE_RE.search("We pretrain a 7B on 1T tokens on 64 H800, then SFT it on 8 A100. How long?")
    assert GATE_RE.search("先用64张H800预训练7B模型1万亿token，再在8张A100上SFT 10亿token，SFT要多久？")
    assert not GATE_RE.search("x" * 20000)
    assert not GATE_RE.search("fine-tune a 7B on 8 A100")  # one stage word: not two stages
