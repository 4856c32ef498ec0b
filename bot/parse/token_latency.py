"""A decode speed said as the time one token takes (issue 24 item 2, session 22).

'2 s per output token', 'each token takes 2 seconds', '300 ms per token', '每输出一个 token 要 2 秒',
'2 秒一个 token', '2秒/token': the time per output token (TPOT, the inverse of the decode rate: vLLM's
benchmark ``benchmark_serving.py`` reports TPOT in ms and output tokens/s as 1000 / TPOT for one
sequence), a measured speed, never a duration of the job. It is written as the rate it is, dated to now
('currently 0.5 tok/s': a speed observed, :mod:`bot.parse.now_rate`, unless a target word shares its
clause), which the rate rules read (:mod:`bot.parse.throughput_words`). Before, the '2' was named as an
unread number, or '2 秒' read as a time.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_V = r"(?P<v>\d+(?:\.\d+)?)"
_LO = r"(?:(?P<lo>\d+(?:\.\d+)?)\s*(?:to|-|~|–|到|至)\s*)?"
"""s42: the first end of a range ('50 to 60 ms per token', '每个 token 50-60 毫秒'): both ends are rates."""
_TOKEN = r"(?:output\s+|generated\s+|new\s+|decoded\s+|single\s+)?tokens?\b"
_SEC = r"(?:(?P<ms>ms|milliseconds?|毫秒)|s|secs?|seconds?|秒钟?)"
PER_TOKEN_RES = (
    rc(rf"(?<![\d.]){_LO}{_V}\s*{_SEC}(?![a-z])\s*(?:per|/|an?|for\s+(?:each|every|one|a)|each)\s*{_TOKEN}"),
    rc(
        rf"(?:each|every|one|a)\s+{_TOKEN}\s*(?:takes?|took|needs?|is|=)\s*(?:about\s+|around\s+|~\s*)?{_V}\s*{_SEC}(?![a-z])"
    ),
    rc(
        r"每\s*(?:输出|生成|吐|出|解码|产生)?\s*(?:一个|1\s*个|1|个)?\s*token\s*(?:都|就)?\s*(?:要|需要|耗时|用时|得|花)?"
        rf"\s*(?:大概|大约|约|差不多)?\s*{_LO}{_V}\s*{_SEC}"
    ),
    rc(rf"(?<![\d.]){_V}\s*{_SEC}\s*(?:才|能)?\s*(?:输出|生成|吐|出|解码|产生)?\s*(?:一个|1\s*个)\s*token"),
)
"""The time one output token takes, in seconds or milliseconds (group ``ms``): 'N s per token', 'each token
takes N s', '每输出一个 token 要 N 秒', 'N 秒一个 token'."""
_GATE = re.compile(r"token")


def _rate(m: re.Match[str]) -> str:
    scale = 1000 if m.group("ms") else 1
    seconds = float(m.group("v")) / scale
    lo = float(m.group("lo")) / scale if m.groupdict().get("lo") else None
    if seconds <= 0 or (lo is not None and lo <= 0):
        return m.group(0)
    if lo is not None:  # s42: a range, both ends a rate ('50 to 60 ms per token': 16.7 and 20 tok/s)
        return f" decode currently {1 / seconds:.3g} tok/s and {1 / lo:.3g} tok/s "
    return f" decode currently {1 / seconds:.3g} tok/s "  # s42: decoding, a serving word (lexicon)


def per_token_time(s: str) -> str:
    """The normalized text ``s`` with each time per output token written as its decode rate ('2 s per token'
    → 'decode currently 0.5 tok/s'; '50 ms per token' → 'decode currently 20 tok/s'; s42: 'decode' says
    serving when no other stage word does, bot.parse.lexicon.WEAK_INFERENCE_RE)."""
    if not _GATE.search(s):
        return s
    first, other, every, one = PER_TOKEN_RES
    s = other.sub(_rate, first.sub(_rate, s))
    s = every.sub(_rate, s) if "每" in s else s  # every match of the third holds '每', of the fourth '个'
    return one.sub(_rate, s) if "个" in s else s
