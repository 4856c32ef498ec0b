"""A load said only by its peak word (session 14 fresh-user trial #3): 'average 10 concurrent users,
peaks of 60', 'peaking at 60', 'spikes to 60', 'bursts of 60', 'up to 60 during the day', '平时30、峰值200',
'高峰时 60', '高峰 120'.

The number after the peak word had no load word of its own, so it was named 'no word said what it is'
(English) or a run's result (Chinese) and the average was sized. :data:`L_PEAK` is a left-hand word that
makes the number a concurrency; :mod:`bot.parse.target_load` then sizes it (a peak word is a target) and
names the average load (``current_load``). :func:`daytime_peak` writes 'up to 60 during the day' as
'peak 60 during the day' (same length) so that the same rule reads it.
"""

from __future__ import annotations

from bot.parse.regex import rc

L_PEAK = rc(
    r"(?:(?<![a-z])(?:peaks?|peaking|spikes?|spiking|bursts?|bursting)"
    r"(?:\s+(?:load|traffic|usage|demand))?"
    r"(?:\s+(?:of|at|to|around|near|reach(?:ing|es)?|hitting|hits|up\s+to|as\s+high\s+as|is|are|was|of\s+about))*"
    r"(?:\s+(?:about|around|roughly|maybe|~))?"
    r"|(?:峰值|高峰(?:期|时段|时期)?|平时|平常|日常|平日)(?:的)?(?:时|时候|期间)?(?:用户|在线|访问|请求)?(?:数|量)?"
    r"(?:=|:|为|是|有|到|能到|会到|可达|达|达到|可能|大概|大约|约|预计|估计|会|要)*)\s*$"
)
"""A peak word right before a number with no word of its own: 'peaks of 60', 'peaking at 60', 'spikes to
60', 'bursts of 60', '峰值 200', '高峰时 60', '高峰期能到 120'; or the load of every day ('平时30、峰值200':
then named as the current load, :mod:`bot.parse.target_load`). Right-hand words decide first ('peaks
at 60 GB' is memory, :mod:`bot.parse.roles`)."""

_DAYTIME_RE = rc(
    r"\bup\s+to(?P<n>\s+\d{1,6})(?=\s+(?:during|in|at|over)\s+(?:the\s+)?(?:day(?:time)?|peaks?|peak\s+hours?"
    r"|busy\s+hours?|rush\s+hours?|office\s+hours|working\s+hours|business\s+hours|lunch)\b)"
)
"""'up to 60 during the day', 'up to 60 in peak hours' (serving): a peak load."""


_NOW_UP_TO_RE = rc(
    r"\b(?:now|today|currently|normally|usually|typically|on\s+average|average|most\s+of\s+the\s+time)\b"
    r"[^.;!?\d]{0,12}[,;]?\s*(?:and\s+|but\s+|going\s+|rising\s+|spiking\s+)?(?P<up>up\s+to)(?=\s+\d{1,6}"
    r"(?:\s*(?:[,.;!?)]|$)|\s+(?:at|during|in|when|on|concurrent|users?|requests?|sessions?|people)\b))"
)
"""'40 concurrent users normally, up to 150' (trial s16 #1): the 'up to' after a load of today is its peak."""
_ZH_NOW_MOST_RE = rc(
    r"(?:现在|目前|当前|平时|平常|日常|平均|一般)[^。；;!?！？]{0,12}?\d{1,6}[^。；;!?！？\d]{0,8}?[，,、]\s*"
    r"(?:忙的时候|多的时候)?(?P<up>最多|最高)(?=\s*(?:能?到|会到|达到?|可达)?\s*\d{1,6}\s*(?:个|路|人|并发|[，。,;；!?！？]|$))"
)
"""'平时40并发，最多150' (trial s16 #1): the most after a load of today is its peak."""


def daytime_peak(s: str, training: bool) -> str:
    """The normalized text ``s`` with 'up to N during the day' and 'N users normally, up to M' written
    'peak N …' (serving only, same length: 'up to' and 'peak ' are five characters each)."""
    if training:
        return s
    s = _ZH_NOW_MOST_RE.sub(lambda m: m.group(0)[: m.start("up") - m.start()] + "峰值", s)
    if "up to" not in s:
        return s
    s = _DAYTIME_RE.sub(lambda m: "peak " + m.group("n").rjust(m.end() - m.start() - 5), s)
    return _NOW_UP_TO_RE.sub(lambda m: m.group(0)[: m.start("up") - m.start()] + "peak ", s)
