"""A request rate today and at its peak (trial s18 #1): the peak is the rate sized, today's is named.

'today 20 requests/s, peak 60 requests/s, 512 in 256 out', 'currently 10 req/s, peaking at 40 req/s',
'现在 QPS 5，高峰 QPS 20，每次输出 300 token': before, the first rate was the one kept (QPS 5 sized, '20'
unread) or the peak rate, left to the role rules, became 60 concurrent sequences. A question for the cards
plans capacity for the peak, as two concurrencies do (:mod:`bot.parse.target_load`): among the rates of
:data:`bot.parse.throughput_words.QPS_RE` with different values, the one said with a peak, target or future
word is the rate sized (× the output tokens per request: the decode tokens/s, ``rate_times_output``) and the
others are named as the load of today (``current_load``), every one masked so that no other rule reads it.
"""

from __future__ import annotations

import re

from bot.parse.target_load import said_as_target
from bot.parse.throughput_words import QPS_RE


def _value(m: re.Match[str]) -> float:
    """Requests per second of a :data:`QPS_RE` match (a per-minute rate ÷ 60)."""
    raw = next(g for g in m.groups() if g is not None)
    return float(raw) / (60 if per_minute(m) else 1)


def per_minute(m: re.Match[str]) -> bool:
    """Whether a :data:`QPS_RE` match is a rate per minute ('300 rpm', '300 requests per minute', '每分钟
    300 个请求': before s18 the Chinese one was taken per second)."""
    return m.group("z") is not None or "分钟" in m.group(0)


def per_minute_typed(s: str) -> str | None:
    """The number of the sized rate of ``s`` as typed when it is a rate per minute, else None."""
    m = sized_rate(s)
    return next(g for g in m.groups() if g is not None) if m is not None and per_minute(m) else None


def sized_rate(s: str) -> re.Match[str] | None:
    """The request rate of the normalized text ``s`` that is sized: the one said as a peak or target when
    rates of different values are given (module doc), else the first; None when ``s`` states none."""
    m = QPS_RE.search(s)
    if m is None:
        return None
    found = [m, *QPS_RE.finditer(s, m.end())]
    if len(found) < 2 or len({_value(r) for r in found}) < 2:
        return m
    targets = [r for r in found if said_as_target(s, r.start(), r.end())]
    return targets[-1] if targets and len(targets) < len(found) else m


def serving_rates(s: str, unused: list[tuple[str, str]]) -> str:
    """The normalized text ``s`` with its request rates masked: the sized one (:func:`sized_rate`) named
    'qps_needs_output' in ``unused`` (made a tokens/s target once the output per request is read,
    :func:`bot.parse.output_forms.rate_times_output`), the others of another value 'current_load'."""
    if QPS_RE.search(s) is None:  # most messages: no Python call past this one
        return s
    m = sized_rate(s)
    if m is None or _value(m) <= 0:
        return s
    unused.append((m.group(0).strip(), "qps_needs_output"))
    for other in [r for r in QPS_RE.finditer(s) if r.start() != m.start()]:
        if _value(other) != _value(m):
            unused.append((other.group(0).strip(), "current_load"))
        s = _blank(s, other)
    return _blank(s, m)


def _blank(s: str, m: re.Match[str]) -> str:
    """``s`` with the span of ``m`` blanked (same length)."""
    return s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]


def rate_said(rate: float, output: float, prompt: float | None = None, minute: str | None = None) -> str:
    """The rate sized as the reply names it, with the decode throughput it makes: 'qps: 60 × 256 output
    tokens = 15,360 tokens/s' (``rate`` in requests/s, ``output`` and ``prompt`` in tokens per request;
    ``minute``: the rate as typed per minute, said with it); with a prompt length, the prefill it makes
    too ('; × 512 input tokens = 30,720 prefill tokens/s'), named, not sized for throughput (the estimator
    times a prefill as each request's first-token time)."""
    said = f"qps: {rate:g}" + (f" ({minute} a minute)" if minute else "")
    said += f" × {output:,.0f} output tokens = {rate * output:,.0f} tokens/s"
    if prompt:
        said += f"; × {prompt:,.0f} input tokens = {rate * prompt:,.0f} prefill tokens/s"
    return said
