"""Words around a tokens/s rate that tell a measurement from a target (session 13 review finding 2), read by
:func:`bot.parse.withheld.rate_not_target`: a benchmark's or a run's report before the rate makes it what
was measured ('the benchmark shows 900 tokens/s', 'gave us 900 tokens/s', '压测结果 900 tokens/s'), unless a
wanted word stands between ('the benchmark must show 2000 tokens/s')."""

from __future__ import annotations

from bot.parse.cue_words import REQUIRED
from bot.parse.regex import rc

BENCHMARK_RE = rc(
    r"(?i)\bbench(?:mark)?(?:s|ed|ing)?\b|\b(?:reported|reports|showed|shows|shown|gave|gives|yielded"
    r"|delivered|delivers|did|managed)\b|\bgot\b|压测|测试结果|测出|测得|测下来|跑出来|跑出了|结果是?|实测|跑分"
)
"""A measurement said in a rate's clause before it ('the benchmark shows 900 tokens/s', 'gave us 900
tokens/s', 'vLLM benchmark reported 1500 tokens/s', '压测结果 900 tokens/s', '测出来 900 tokens/s'): the rate
is what was measured, unless a wanted word lies between (:data:`WANTED_RE`; session 13 review finding 2)."""
WANTED_RE = rc(rf"(?i){REQUIRED}|\btarget|\bat\s+least\b|\bwant|\bneed|目标|至少|希望|想要")
"""A word that makes the rate after it wanted, not measured ('the benchmark must show 2000 tokens/s')."""
LOAD_AFTER_RE = rc(
    r"(?i)\s*(?:at|with|for|under|@)\s+(?P<n>\d{1,6})\s*(?:concurrent\s+|parallel\s+)?"
    r"(?:users?|requests?|sequences?|seqs?|clients?|concurrency)\b"
    r"|\s*[(（]\s*(?P<m>\d{1,6})\s*(?:个\s*)?(?:并发|路|用户|users?|concurrent)"
)
"""The load a rate was had at, right after it ('900 tokens/s at 16 users', '900 tokens/s（16 并发）')."""
LOAD_RE = rc(r"(?i)(?<![\d.])(\d{1,6})\s*(?:个\s*)?(?:concurrent\s+)?(?:users?\b|并发|路并发|个?用户)")
"""Any load said in the message ('100 users', '100 并发', '100 个用户')."""


SWEEP_AT_RE = rc(
    r"(?i)(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps)\s+at\s+(?:concurrency\s*(?:of\s+)?)?(\d{1,4})(?![\d.]|\s*(?:k\b|gb|%))"
)
"""A rate at a load in a sweep ('96 tok/s at concurrency 1', '772 tok/s at 16')."""
SWEEP_ZH_RE = rc(
    r"并发\s*(?:数|度)?\s*(?:为|是|=)?\s*(\d{1,4})\s*(?:时|的时候|下)\s*[，,]?\s*(?:输出|吞吐|速度)?\s*(?:约|大约|大概)?\s*"
    r"\d[\d.,]*\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps|token/s)"
)
"""The same in Chinese, the load first ('并发 1 时 96 tok/s，并发 16 时 772 tok/s')."""


def measured_at_load(s: str, end: int) -> bool:
    """Whether the rate ending at ``end`` of ``s`` is said at a load ('at 16 users') and the message states
    another load: the rate is what that load gave, the other load the one asked about (session 13 review
    finding 2: 'the benchmark shows 900 tokens/s at 16 users. We expect 100 users'). A sweep, two or more
    rates each at its own load ('from 96 tok/s at concurrency 1 to 772 tok/s at 16': s46 review N3, the 96
    was read as a target), is measured too."""
    if "concurren" in s and len({m.group(1) for m in SWEEP_AT_RE.finditer(s)}) > 1:
        return any(m.end() > end and m.start() <= end for m in SWEEP_AT_RE.finditer(s, max(0, end - 12)))
    if "并发" in s and len({m.group(1) for m in SWEEP_ZH_RE.finditer(s)}) > 1:
        return any(m.start() < end <= m.end() for m in SWEEP_ZH_RE.finditer(s))
    at = LOAD_AFTER_RE.match(s, end)
    if at is None:
        return False
    n = at.group("n") or at.group("m")
    return any(x.group(1) != n for x in LOAD_RE.finditer(s) if not at.start() <= x.start() < at.end())
