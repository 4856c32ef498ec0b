"""bot.parse.unit_cues: each tuple of words is a necessary condition of its number-and-unit pattern, so the
``in`` test its call site asks first never skips a match (issue 23 item 7, session 32)."""

from __future__ import annotations

import re

import pytest

from bot.parse import unit_cues as uc
from bot.parse.bound_memory import GATE_RE as BOUND_MEMORY_GATE
from bot.parse.chassis_slots import CHASSIS_GATE
from bot.parse.count_forms import _PRODUCT_PAIR_GATE
from bot.parse.gpu_kinds import KINDS_RE
from bot.parse.hardware_specs import _LAPTOP_AFTER_GATE
from bot.parse.normalize import _MANTISSA_POWER_RE, _POWER_RE, normalize
from bot.parse.sre_private import OK, _parser, c
from bot.parse.time_forms import _RANGE_GATE
from bot.parse.token_latency import PER_TOKEN_RES
from bot.parse.written_products import _PRODUCT_GATE
from tests.cli_run import CORPUS_QUESTIONS

SITES = [
    (uc.ALT_MEMORY, uc.ALT_MEMORY_GATE),
    (uc.USED_OF, uc.USED_OF_GATE),
    (uc.KIND_EACH, uc.KIND_EACH_GATE),
    (uc.CARD_KINDS, KINDS_RE),
    (uc.LAPTOP_AFTER, _LAPTOP_AFTER_GATE),
    (uc.POWER, _MANTISSA_POWER_RE),
    (uc.POWER, _POWER_RE),
    (uc.CHASSIS, CHASSIS_GATE),
    (uc.BOUND_MEMORY, BOUND_MEMORY_GATE),
    (uc.TIMES, _PRODUCT_PAIR_GATE),
    (uc.TIMES, _PRODUCT_GATE),
    (uc.RANGE_UNITS, _RANGE_GATE),
    (("每",), PER_TOKEN_RES[2]),  # bot.parse.token_latency.per_token_time's own tests
    (("个",), PER_TOKEN_RES[3]),
]
IDS = [f"{i}:{cues[0]}" for i, (cues, _) in enumerate(SITES)]


def _covers(items: list, cues: tuple[str, ...]) -> bool:
    """Whether every match of the parsed sequence ``items`` puts one of ``cues`` in the searched text: a
    run of literals holding a cue, a group or a repeat (at least once) that does, a lookaround (positive:
    its text is in the string), an alternation each branch of which does, or a class of cue characters."""
    run = ""
    for op, av in items:
        if op is c.LITERAL:
            run += chr(av)
            if any(cue in run for cue in cues):
                return True
            continue
        run = ""
        if op is c.SUBPATTERN and not av[1] & re.IGNORECASE and _covers(list(av[3]), cues):
            return True
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1 and _covers(list(av[2]), cues):
            return True
        if op is c.ASSERT and _covers(list(av[1]), cues):
            return True
        if op is c.BRANCH and all(_covers(list(b), cues) for b in av[1]):
            return True
        if op is c.IN and all(o is c.LITERAL and chr(ch) in cues for o, ch in av):
            return True
    return False


@pytest.mark.skipif(not OK, reason="the private regex parser is not as expected")
@pytest.mark.parametrize(("cues", "pattern"), SITES, ids=IDS)
def test_every_match_holds_a_cue(cues, pattern):
    """Proved from the pattern's parsed form (case-sensitive patterns only: a cue is an exact ``in``)."""
    flags = int(pattern.flags)
    assert not flags & re.IGNORECASE
    assert _covers(list(_parser.parse(pattern.pattern, flags)), cues)


def test_the_proof_rejects_a_missing_cue():
    """The checker is not vacuous: a cue set without one branch's word, or an optional word, is refused."""
    assert not _covers(list(_parser.parse(uc.ALT_MEMORY_GATE.pattern, re.ASCII)), ("/", "或", "还是"))
    assert not _covers(list(_parser.parse(r"\d\s*(?:g)?x", re.ASCII)), ("g",))
    assert _covers(list(_parser.parse(r"\d\s*(?:g)+x", re.ASCII)), ("g",))
    assert not _covers(list(_parser.parse(r"\d(?!\s*gb)", re.ASCII)), ("gb",))


@pytest.mark.parametrize(("cues", "pattern"), SITES, ids=IDS)
def test_the_corpus_agrees(cues, pattern):
    """Over the corpus questions (normalized and as typed, lower-cased) and forms each pattern reads, a
    text the pattern matches holds a cue; and some text does match (the pattern is exercised)."""
    crafted = [
        "12g 或者 16g 的显卡",
        "a 12gb or 16gb card",
        "using 20gb/80gb",
        "4 gpus, 24 gb of vram each",
        "公司有三种卡",
        "three gpu types",
        "these two cards",
        "a 4090 laptop",
        "4.2×10^22 flops",
        "10**21",
        "an 8-gpu chassis with 4x mi100",
        "8g 以下的显存",
        "2x8 or 4x8 a100",
        "49gb*4",
        "2 到 3 周",
        "3-4 weeks",
        "每输出一个 token 要 2 秒",
        "2 秒一个 token",
    ]
    texts = [*crafted, *(q.lower() for q in CORPUS_QUESTIONS), *map(normalize, CORPUS_QUESTIONS)]
    matched = [t for t in texts if pattern.search(t)]
    assert matched
    assert all(any(cue in t for cue in cues) for t in matched)


def test_a_reader_s_literal_search_is_the_literal_test():
    """bot.parse.settings_scan: the compiled alternation of a reader's literals finds a match exactly when
    one of the literals is in the text, over the corpus (normalized), each literal alone and inside words."""
    from bot.parse import settings_scan

    settings_scan.warm()
    tables = [lits for _, lits in settings_scan._TABLE if lits]
    assert len(tables) >= 8
    words = sorted(set().union(*tables))
    texts = [*map(normalize, CORPUS_QUESTIONS), *words, *(f"x{w}y {w[:-1]}" for w in words), "", "7b a100"]
    for lits in tables:
        search = settings_scan._SEARCH[lits]
        for s in texts:
            assert (search(s) is not None) == any(w in s for w in lits), (sorted(lits)[:3], s)
