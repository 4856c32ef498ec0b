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
from typing import Any

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
    """The number of the sized rate of ``s`` as typed when it is a rate per minute, else None; with the
    user count it is multiplied by when said per user ('2 each × 50 users')."""
    m = sized_rate(s)
    if m is None or not per_minute(m):
        return None
    typed = next(g for g in m.groups() if g is not None)
    times = users_times(s, m) if EACH_RE.search(s) else None
    return f"{typed} a minute each × {times[1]}" if times and times[1] else typed


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
    :func:`bot.parse.output_forms.rate_times_output`), the others of another value 'current_load'; a rate
    said per user with no user count 'per_user_rate' (named, never sized as the whole load, s18-fxa)."""
    if QPS_RE.search(s) is None:  # most messages: no Python call past this one
        return s
    m = sized_rate(s)
    if m is None or _value(m) <= 0:
        return s
    alone = EACH_RE.search(s) is not None and users_times(s, m) is None  # 'each user sends 2 a minute'
    unused.append((m.group(0).strip(), "per_user_rate" if alone else "qps_needs_output"))
    for other in [r for r in QPS_RE.finditer(s) if r.start() != m.start()]:
        if _value(other) != _value(m):
            unused.append((other.group(0).strip(), "current_load"))
        s = _blank(s, other)
    return _blank(s, m)


def _blank(s: str, m: re.Match[str]) -> str:
    """``s`` with the span of ``m`` blanked (same length)."""
    return s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]


EACH_RE = re.compile(
    r"\beach\b|\bper\s+(?:user|person|head|client|customer)\b|\ba\s+(?:user|person)\b"
    r"|每人|每个人|每个用户|每位用户|每(?:个|位|名)?(?:客户|用户)|人均"
)
"""A rate said per user ('50 users each send 2 requests a minute', '每人每分钟 2 个请求')."""

_USERS_RE = re.compile(
    r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*(?P<k>k|万|千)?\s*(?:个|位|名)?\s*"
    r"(?:(?:concurrent|active|online|daily)\s+)?(?:users?|people|persons|clients|customers|用户|人|客户)"
)
"""A user count ('50 users', '50 个用户', '1k people')."""

_SCALE = {"k": 1e3, "千": 1e3, "万": 1e4}


def users_times(s: str, m: re.Match[str]) -> tuple[float, str] | None:
    """The multiplier of the rate ``m`` of the normalized text ``s``: (1, '') when it is the service's
    rate, (users, '50 users') when it is said per user and a user count is written in ``s``
    ('50 users each send 2 requests per minute': × 50 = 1.67 req/s, s18-fxa); None when it is said per
    user and no count is read (the rate is then named as unread, never sized as the whole load)."""
    lo = max(s.rfind(c, 0, m.start()) for c in ",，;；。") + 1
    hi = min((i for i in (s.find(c, m.end()) for c in ",，;；。") if i >= 0), default=len(s))
    if not EACH_RE.search(s, lo, hi):
        return 1.0, ""
    users = [u for u in _USERS_RE.finditer(s) if u.end() <= m.start() or u.start() >= m.end()]
    if not users:
        return None
    u = users[0]
    n = float(u.group("n")) * _SCALE.get(u.group("k") or "", 1.0)
    return n, f"{n:g} users"


def rate_said(
    rate: float,
    output: float,
    prompt: float | None = None,
    minute: str | None = None,
    day: float | None = None,
    hour: float | None = None,
) -> str:
    """The rate sized as the reply names it, with the decode throughput it makes: 'qps: 60 × 256 output
    tokens = 15,360 tokens/s' (``rate`` in requests/s, ``output`` and ``prompt`` in tokens per request;
    ``minute``: the rate as typed per minute, said with it; ``day``: the requests a day it averages, said
    with it; ``hour``: the requests an hour it is, said with it); with a prompt length, the prefill it
    makes too ('; × 512 input tokens = 30,720 prefill tokens/s'), named, not sized for throughput (the
    estimator times a prefill as each request's first-token time)."""
    said = f"qps: {rate:.3g}" if day or hour else f"qps: {rate:g}"
    said += f" ({day:,.0f} a day ÷ 86,400 s × 3, the busiest hour)" if day else ""  # request_volume (s35)
    said += f" ({hour:,.0f} an hour ÷ 3,600 s)" if hour else ""  # s44: a volume an hour
    said += f" ({minute})" if minute and "×" in minute else ""
    said += f" ({minute} a minute)" if minute and "×" not in minute else ""
    said += f" × {output:,.0f} output tokens = {rate * output:,.0f} tokens/s"
    if prompt:
        said += f"; × {prompt:,.0f} input tokens = {rate * prompt:,.0f} prefill tokens/s"
    return said


def used_rate(item: tuple[str, str]) -> bool:
    """A named item a rate sized with the output per request replaces: the rate's 'needs an output'
    ('qps_needs_output') and a day's volume named as no field ('requests_per_day: …', trial s21 #5)."""
    return item[1] == "qps_needs_output" or item[0].startswith("requests_per_day:")


def prompt_in_default(fields: dict[str, Any], reply: float) -> dict[str, int]:
    """A request rate and an output length with no context nor prompt ('部署 72B，QPS 5，输出 512 token'): the
    prompt is the default serving context's rest (4,096 − 512 = 3,584), so the rate's prefill, the TTFT
    and the decode all count the output the user stated, never the context's last quarter (trial s37 #3)."""
    from estimator.defaults import SERVE_CONTEXT

    if fields.get("prompt_tokens") or not 0 < reply < SERVE_CONTEXT.value:
        return {}
    return {"prompt_tokens": round(SERVE_CONTEXT.value - reply)}


def output_alone(steps: Any, reply: float) -> None:
    """An output length with no prompt ('with 256 output tokens', r35 en: beside a context with no rate): no
    output-length field (a context is prompt + output), so named (``output_in_context``) unless a request
    rate used it (a rows x tokens batch timed uses it too: bot.core.interpretation, s45 review B3)."""
    # r35 en: a target speed the user typed ('is 83 tok/s expected?') used no output: the output is named
    used = any(why in ("qps_needs_output", "rate_times_output") for _, why in steps.named_unused)
    if not used:
        steps.named_unused.append((f"output_tokens: {reply:,.0f}", "output_in_context"))
