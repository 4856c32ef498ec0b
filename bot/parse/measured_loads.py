"""Several loads measured in one message, each beside its figure (issue 24 item 4, s46-workmiss).

People report a serving benchmark as a sweep of loads: 'Output goes from 96 tok/s at concurrency 1 to 772
tok/s at 16', 'a single request gets 44.3 tok/s, 10 concurrent requests 222.4 tok/s', 'throughput plateaus
between concurrency 4 and 16', '并发 1 时 30 token/s，并发 8 时 120 token/s'. One load is sized (the one
the load readers pick); before, each other load of the sweep was named as a bare number ('16', reason
``observed`` or ``repeated``), as another setup's, or not at all ('a single request'): the reply never said
it was a load. Here each other load measured is named as a concurrency (``concurrency: 16``) with reason
``measured_load``: a load of the user's own run, its figure observed, not a second load to size
(docs/design.md §8: every number used, or named as not used and why). bot.parse.value_list reads these as
a list of loads, so a sized model gets a row per load (bot.core.per_value) to set beside the figures.

A load counts as measured only in a sentence that reports a measurement: a rate ('tok/s', 't/s', 'TPS',
'tokens per second', 'token/s'), throughput, latency, TTFT/TPOT, a plateau, '吞吐', '延迟', '首字'. A load
asked about ('What about 32 concurrent users?') has none: it is left to the load readers.

Gated at its call site (bot.parse.assemble) by 'concurren' or '并发' in the normalized text and a sized
concurrency, so a message without either pays one substring test.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_NO_UNIT = r"(?![\d.]|,\d{3}|\s*(?:k\b|tok|t/s|tps|token|ms\b|s\b|gb|w\b|%|秒|字))"
"""Not a figure: a load is no rate ('1 to 772 tok/s': the 772), no length in k, no time, memory or power,
and no digits of a grouped number ('8 and 2,100 at 32': the 2 of 2,100)."""
_LOAD_RE = rc(
    rf"\bconcurrenc(?:y|ies)\s*(?:of|=|:|at|is|to)?\s*(?P<a>\d{{1,4}}){_NO_UNIT}"
    rf"(?P<run>(?:\s*(?:,|and|or|to)\s*\d{{1,4}}{_NO_UNIT})*)"
    r"|(?<![\w.])(?P<b>\d{1,4}(?:\s*(?:,|and|or)\s*\d{1,4})*)\s+concurrent\b"
    r"|\b(?:a\s+single|one|single)[\s\-]+(?:request|stream|user|sequence)\b(?P<one>)"
    rf"|并发(?:数|度)?\s*(?:为|是|=|:|到)?\s*(?P<c>\d{{1,4}}){_NO_UNIT}"
    rf"(?P<zrun>(?:\s*(?:、|和|或|到|与|跟)\s*\d{{1,4}}{_NO_UNIT}(?!\s*(?:张|块|台|卡|个?节点)))*)"
    r"|(?<![\d.])(?P<d>\d{1,4})\s*(?:个|路)?\s*(?:用户)?\s*并发"
    r"|(?:单并发|单个请求|单请求|单路)(?P<zone>)"
)
"""A load as people write it in a sweep: 'concurrency 1', 'concurrency 4 and 16', '10 concurrent', '1, 2 and
4 concurrent streams', 'a single request', '并发 8', '并发 4 和 16', '8 并发', '8 个并发', '单并发' (1)."""
_AT_AFTER_RATE_RE = rc(
    r"(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps)\s+at\s+(\d{1,4})(?![\d.]|\s*(?:k\b|tokens?|ms\b|s\b|gb|w\b|%))"
)
"""'772 tok/s at 16' in a sentence that names a concurrency: the sweep's next load."""
_MEASURE_RE = rc(
    r"\d\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?\b|t/s\b|tps\b|tokens?\s+per\s+second|token/s)"
    r"|\b(?:throughput|plateaus?|saturat\w*)\b|吞吐"
)
"""A measurement in the sentence (a rate, throughput, a plateau): the loads beside it were run. Not a
latency or TTFT, which people state as targets as often ('TTFT under 2 s')."""
_TARGET_RE = rc(r"\b(?:peaks?|target\w*|at\s+most|scale|grow|handle|sustain)\b|峰值|高峰|目标|扩到|撑住")
"""A peak or target in the sentence: its loads are planned, not measured (bot.parse.target_load's)."""
_RATE_FIGURE_RE = rc(r"(?<![\d.])(\d{1,6})\s*(?:tok(?:en)?s?\s*/\s*s(?:ec)?|t/s|tps|token/s)")
"""A rate's figure ('300 tok/s'): never a load, whatever an older reader named it as."""
_SENTENCE_RE = re.compile(r"(?<!\d)\.(?!\d)|[?!;。？！；\n]")
_NAMED_AS = frozenset({"unread", "repeated", "observed", "other_setup"})
"""The reasons a measured load was named with before: replaced by ``measured_load``."""


def _loads(sentence: str) -> list[int]:
    """The loads written in one sentence (:data:`_LOAD_RE`, :data:`_AT_AFTER_RATE_RE`), in order."""
    out: list[int] = []
    for m in _LOAD_RE.finditer(sentence):
        if m.group("one") is not None or m.group("zone") is not None:
            out.append(1)
            continue
        digits = m.group("a") or m.group("b") or m.group("c") or m.group("d") or ""
        out += [int(n) for n in re.findall(r"\d+", digits + (m.group("run") or m.group("zrun") or ""))]
    if out:
        out += [int(n) for n in _AT_AFTER_RATE_RE.findall(sentence)]
    return out


def measured_loads(s: str, concurrency: float) -> list[int]:
    """The loads of the normalized message ``s`` written in sentences that report a measurement, in order,
    each once, when there are two or more and the sized ``concurrency`` is one of them; else []."""
    loads: list[int] = []
    for sentence in _SENTENCE_RE.split(s):
        if _MEASURE_RE.search(sentence) and not _TARGET_RE.search(sentence):
            loads += [n for n in _loads(sentence) if n > 0]
    loads = list(dict.fromkeys(loads))
    return loads if len(loads) > 1 and concurrency in loads else []


def measured(s: str, unused: list[tuple[str, str]], concurrency: float) -> list[tuple[str, str]]:
    """``unused`` (the parse's (text, reason) items) with each load of :func:`measured_loads` other than the
    sized ``concurrency`` named ``('concurrency: N', 'measured_load')``, in place of the bare number or the
    field it was named as before (reasons :data:`_NAMED_AS`); unchanged when no sweep is read."""
    loads = [n for n in measured_loads(s, concurrency) if n != concurrency]
    if not loads:
        return unused
    drop = {str(n) for n in loads} | {f"concurrency: {n}" for n in loads}
    rates = {f"concurrency: {n}": n for n in _RATE_FIGURE_RE.findall(s)}  # '1 and 300 tok/s' read as a list
    kept = [
        (rates.get(t.strip(), t), "observed" if t.strip() in rates and why in _NAMED_AS else why)
        for t, why in unused
        if not (why in _NAMED_AS and t.strip() in drop)
    ]
    return kept + [(f"concurrency: {n}", "measured_load") for n in loads]
