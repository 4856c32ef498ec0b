"""A concurrency one card holds, as the user observed it, beside the load asked for (trial s29 #4).

'单卡能撑的并发量不到 50，要支持 200 并发需要几张卡', 'one L40S handles about 40 concurrent, how many for
300 concurrent?': the first number is what one card held in the user's own run, a measurement, not a second
value of the load. It is set aside (role ``per_card_load``, not sized) and named with reason
``per_card_load``; the other value is the load sized.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import attrgetter, eq
from typing import Any

from bot.parse.regex import rc
from bot.parse.roles import Role

_ROLE_OF = attrgetter("role")
_CLAUSE = r"[^,.;:!?，。；：！？]"
PER_CARD_BEFORE_RE = rc(
    r"(?i)(?:单卡|单张(?:卡|显卡|gpu)|一张(?:卡|显卡)|每张(?:卡|显卡)?|每卡|每块(?:卡|显卡|gpu)?|一块(?:卡|显卡|gpu)"
    r"|(?:一张|一块|单张)\s*(?:\ue000|[a-z][a-z0-9-]{1,12})\s*|单个?gpu|\b(?:one|a\s+single)\s+(?:card|gpu)\b"
    r"|\b(?:one|a\s+single)\s+\S{1,24}\s)"
    + _CLAUSE
    + r"{0,14}?(?:能撑|撑|能扛|扛|承载|能支持|支持|能跑|跑|能带|带得动|带|上限|最多|最大"
    + r"|hold|handle|serve|take|support|max|top)"
    + _CLAUSE
    + r"{0,16}$"
)
"""Words before a number that make it one card's observed concurrency ('单卡能撑的并发量不到 ',
'每张卡最多撑 ', 'one L40S handles about '): a card word, then a word of capacity, in the same clause. Not
English 'per GPU' / 'each GPU', which follow a memory amount ('44GB per GPU and serves 30 users' is today's
load, named ``current_load``)"""


def per_card_aside(steps: Any) -> None:
    """Among the numbers read as the concurrency with different values, set aside those said as what one
    card holds (:data:`PER_CARD_BEFORE_RE`) when another is not: role and reason ``per_card_load``."""
    found = list(compress(steps.roles, map(eq, map(_ROLE_OF, steps.roles), repeat("concurrency"))))
    if len({r.value for r in found}) < 2:
        return
    s = steps.s
    per_card = [r for r in found if ceiling_span(s, r.tok) is not None]
    if not per_card or len(per_card) == len(found):
        return
    lost = steps.__dict__.setdefault("_lost", {})
    for role in per_card:
        role.role = "per_card_load"
        lost[id(role)] = "per_card_load"


def count_in_ceiling(steps: Any) -> bool:
    """One card said only inside the per-card ceiling (session 30 #3): in 'L40S 单卡能扛的并发不到 40，
    要支持 200 并发需要几张卡' or 'one L40S handles under 40 concurrent; how many for 200?' the '单卡' /
    'one L40S' is the card the measurement was made on, not the count to size: the question asks the
    count. True when a per-card load was set aside (:func:`per_card_aside`), the count read is 1 and
    each one-card word of the message lies in a ceiling (:data:`PER_CARD_BEFORE_RE`)."""
    lost = steps.__dict__.get("_lost")
    if not lost or "per_card_load" not in lost.values() or steps.f.get("gpu_count") != 1:
        return False
    s = steps.s
    asides = [r for r in steps.roles if r.role == "per_card_load"]
    spans = [span for r in asides if (span := ceiling_span(s, r.tok)) is not None]
    ones = [m.start() for m in ONE_CARD_WORDS_RE.finditer(s)]
    return bool(spans) and all(any(a <= at < b for a, b in spans) for at in ones)


ONE_CARD_WORDS_RE = rc(r"(?i)单卡|单张|一张|一块|单个?gpu|(?:one|a\s+single)\s+(?:card|gpu)|one\s+\S{1,24}\s")
"""The one-card words :data:`PER_CARD_BEFORE_RE` starts with: each must lie inside a per-card ceiling."""


PER_CARD_SHORT_RE = rc(
    r"(?i)(?:单卡|单张(?:卡|显卡)?|每张(?:卡|显卡)?|每卡|每块(?:卡|显卡|gpu)?|单个?gpu)\s*(?:约|大约|大概)?\s*$"
)
"""A card word right before the number ('单卡 40 并发', '每卡约 40 并发'): short (s30 fixa)"""
CONC_AFTER_RE = rc(
    r"(?i)\s*(?:个|路|条)?\s*(?:并发|concurrent(?:\s+(?:users|requests|sequences|sessions))?|concurrency"
    r"|users|sessions|requests|seqs?|sequences)"
)
"""A concurrency word after the number (the short ceiling counts only before one)"""
PER_CARD_AFTER_RE = rc(
    r"(?i)\s*(?:个|路|条)?\s*(?:并发|concurrent(?:\s+(?:users|requests|sequences|sessions))?|concurrency"
    r"|users|sessions|requests|seqs?|sequences)?\s*(?:/\s*(?:卡|张|card|gpu)|每(?:张|块)?卡"
    r"|(?:per|each|a|on\s+(?:one|a\s+single))\s+(?:[a-z0-9-]{1,12}\s+)?(?:card|gpu)\b"
    r"|(?:per|on\s+(?:one|a\s+single|each))\s+(?:\ue000|(?:rtx\s*)?[a-z]{0,3}\d{2,4}[a-z0-9-]*\b))"
)
"""After the number: '40 concurrent per card', '40 users per L40S' (a GPU name is masked U+E000 in the
normalized text), '40 并发/卡' (s30 fixa)"""


def ceiling_span(s: str, tok: Any) -> tuple[int, int] | None:
    """The span of the words that make the number at ``tok`` one card's ceiling, or None: a card and a
    word of capacity before it (:data:`PER_CARD_BEFORE_RE`), a card word right before it followed by a
    concurrency word ('单卡 40 并发'), or a concurrency word and 'per card' after it ('40 concurrent per
    L40S')."""
    if m := PER_CARD_BEFORE_RE.search(s, max(0, tok.start - 40), tok.start):
        return m.span()
    if (m := PER_CARD_SHORT_RE.search(s, max(0, tok.start - 12), tok.start)) and CONC_AFTER_RE.match(
        s, tok.end
    ):
        return m.start(), tok.end
    if a := PER_CARD_AFTER_RE.match(s, tok.end):
        return tok.start, a.end()
    return None


TARGET_BEFORE_RE = rc(
    r"(?i)(?:\bfor|\bto\s+(?:serve|support|handle|reach|hold)|\b(?:need|want)\s+(?:to\s+)?(?:serve|support|handle)"
    r"|\b(?:we|i|they)\s+need|要支持|要撑|需要支持|支持到|扛到|撑到|要带|需要带|(?:我们|我|咱们|他们)?(?:要|需要|得))"
    r"\s*(?:about|around|roughly|约|大约|大概)?\s*$"
)
"""Words before the load asked beside a per-card ceiling: 'how many for 200', 'to serve 200', '要支持 200'."""
TARGET_UNIT_RE = rc(
    r"(?i)\s*(?:个|名|位|路|条)?\s*(?:(?:并发|用户|人|concurren\w*|users?\b|people\b|requests?\b|sessions?\b"
    r"|seqs?\b|sequences\b|streams?\b)|of\s+them\b|(?=$|[-,.;:!?，。；：！？)]|要|需|得|的话|呢|吗"
    r"|\s*(?:how|what|do|should|at|in|then|so|with|on|using|and|or|to|across|per|under|by|if|is|are|will)\b))"
)
"""After the load asked: a load word, or none ('我们要 300 个，要几张', 'we need 300, how many?', 'for 300 of
them'): a target with no unit takes the ceiling's (s31 fixa #1); another noun ('300 个文档', '300 documents')
is not the load."""
HOW_MANY_RE = rc(r"(?i)\bhow\s+many\b")
"""'how many for 200?' beside a per-card ceiling set aside: the count asked (the card is the ceiling's)."""
CARD_WORD_GATE_RE = rc(r"(?i)\bone\s|single|单|每|一张|一块")
"""The call site's gate for :func:`target_after_ceiling` (a ceiling's card word somewhere)."""


def target_after_ceiling(steps: Any) -> None:
    """'one L40S handles under 40 concurrent, how many for 200?' (session 30 fixe #1): when the only
    concurrency read is one card's ceiling (:func:`ceiling_span`), a larger whole number said as the
    load asked (:data:`TARGET_BEFORE_RE`) and otherwise unread is that load: role ``concurrency``, so
    :func:`per_card_aside` sets the ceiling aside and the question sizes the load."""
    found = [r for r in steps.roles if r.role == "concurrency"]
    if len(found) != 1 or ceiling_span(steps.s, found[0].tok) is None:
        return
    s, ceiling = steps.s, found[0].value
    loads = [
        t
        for t in steps.unread_toks
        if t.value > ceiling
        and float(t.value).is_integer()
        and TARGET_BEFORE_RE.search(s, max(0, t.start - 24), t.start)
        and TARGET_UNIT_RE.match(s, t.end)
    ]
    counts = [
        r for r in steps.roles if r.role == "count" and r.value > ceiling and OF_THEM_RE.match(s, r.tok.end)
    ]
    if len(loads) + len(counts) != 1:
        return
    if counts:  # 'how many for 300 of them?': the count rule read 'N of them' as cards
        steps.roles.remove(counts[0])
        steps.roles.append(Role("concurrency", counts[0].value, counts[0].tok))
        return
    read_as_load(steps, loads[0])


OF_THEM_RE = rc(r"(?i)\s*of\s+them\b")
"""'for 300 of them' after a per-card ceiling: the users' count, not the cards' (s31 fixa #1)"""


def read_as_load(steps: Any, tok: Any) -> None:
    """``tok`` (a number token the roles left unread) read as the concurrency: out of the unread lists,
    into ``steps.roles`` (the target after a per-card ceiling here; the load beside a head count in
    :mod:`bot.parse.users_load`)."""
    steps.unread_toks.remove(tok)
    if tok.raw.strip() in steps.unread:
        steps.unread.remove(tok.raw.strip())
    steps.roles.append(Role("concurrency", tok.value, tok))
