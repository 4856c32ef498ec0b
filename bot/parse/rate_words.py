"""Words around a tokens/s rate that tell a measurement from a target (session 13 review finding 2), read by
:func:`bot.parse.structure.rate_not_target`: a benchmark's or a run's report before the rate makes it what
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
