"""A timed run's speed: 'generates 128 tokens in 3 s' is an observed decode speed of 128 / 3 = 42.7
tokens/s as well as the run's output length (s43 fixread2, issue 24 item 4). Before, the output length was
read (:data:`bot.parse.output_forms.TIMED_FORMS`) and the time left unread in silence, or named 'unread'.

The speed is written in brackets right after the time ('in 3 s (~42.7 tok/s)'), the form people write a
run's measured rate in (:data:`bot.parse.cue_words.MEASURED_BEFORE`: a rate in brackets after a time is an
observation, never a throughput asked for), so it is named as observed with the time. Read only when the
message has one timed run and states no rate itself: several timings are several runs (test_s41_workmiss).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_N = r"(?P<n>\d+(?:,\d{3})*(?:\.\d+)?)(?P<k>\s*k(?![a-z]))?"
_T = r"(?P<t>\d+(?:\.\d+)?)\s*(?P<u>ms|milliseconds?|毫秒|secs?|seconds?|s|秒|mins?|minutes?|分钟)(?![a-z])"
_NOT_STEP = r"(?!\s*(?:per|a|an|/|each|every)\s*(?:training\s+)?(?:step|iter|iteration|batch))"
NOT_PREFILL_ZH = (
    r"(?<!处理)(?<!处理\s)(?<!处理了)(?<!处理了\s)(?<!预填充)(?<!预填充\s)"
    r"(?<!输入)(?<!输入\s)(?<!提示词)(?<!提示词\s)"
)
"""Not a prompt's processing ('处理 4096 个 token 用了 2 秒'): no decode speed."""
TIMED_RUN_RES = (
    # '128 tokens in 3 s', 'output 128 tokens in 3 seconds' (not a prompt's, an input's, a prefill's)
    rc(
        r"(?<!prompt\s)(?<!input\s)(?<!prefill\s)(?<!processed\s)(?<!processing\s)(?<!process\s)(?<!of\s)"
        rf"(?<![\w.]){_N}\s*tokens?\s+in\s+{_T}{_NOT_STEP}"
    ),
    # '3 秒生成 128 个 token', '3 秒 output 128 tokens' (the form TIMED_FORMS writes), '3 s for output 128
    # tokens', '3 s to generate 128 tokens'
    rc(
        rf"(?<![\w.]){_T}\s*(?:内|之内)?\s*(?:(?:生成|输出)了?|for|to\s+(?:generate|produce|get|output))?\s*"
        rf"(?:output\s+)?{_N}\s*(?:个\s*)?(?:new\s+|output\s+|generated\s+)?(?:tokens?|词元)(?![a-z])"
        r"(?!\s*(?:of\s+)?(?:prompt|input|context|prefill))" + _NOT_STEP
    ),
    # '128 个 token 用了 3 秒', '生成 128 个 token 要 3 秒'
    rc(rf"{NOT_PREFILL_ZH}(?<![\w.]){_N}\s*(?:个\s*)?(?:tokens?|词元)\s*(?:要|用了?|花了?|需要|耗时)\s*{_T}"),
)
"""A run's tokens and the time it took, in the orders people write them."""
RATE_SAID_RE = rc(r"tok(?:en)?s?\s*/\s*s|tokens?\s*/\s*sec|tokens?\s+(?:per|a)\s+sec|t/s\b|每秒|tps\b|it/s")
"""A rate the message states itself: then no rate is computed."""
TIME_GATE_RE = re.compile(r"\d\s*(?:ms|milliseconds?|毫秒|secs?|seconds?|s|秒|mins?|minutes?|分钟)(?![a-z])")
"""The caller's gate: a time (one search, in a message that says 'token')."""
_SECONDS = {"ms": 1e-3, "millisecond": 1e-3, "毫秒": 1e-3, "min": 60.0, "minute": 60.0, "分钟": 60.0}


def _seconds(m: re.Match[str]) -> float:
    unit = m.group("u").rstrip("s") if m.group("u") not in ("s", "ms") else m.group("u")
    return float(m.group("t")) * _SECONDS.get(unit, 1.0)


def timed_rate(s: str) -> str:
    """``s`` (normalized) with its one timed run's speed written after the time: '… in 3 s (~42.7 tok/s)'
    (tokens ÷ seconds, four significant figures); ``s`` unchanged when it states a rate, has no timed run
    or several, or the time is zero. The caller gates on a time word or 'tokens in '."""
    if RATE_SAID_RE.search(s):
        return s
    found = [m for pattern in TIMED_RUN_RES for m in pattern.finditer(s)]
    if len(found) != 1:
        return s
    m = found[0]
    seconds = _seconds(m)
    tokens = float(m.group("n").replace(",", "")) * (1000 if m.group("k") else 1)
    if seconds <= 0 or tokens <= 0:
        return s
    at = m.end("u")
    return f"{s[:at]} (~{tokens / seconds:.4g} tok/s){s[at:]}"
