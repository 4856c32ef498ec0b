"""The rate sized, in the reply's language (s18-fxc #4).

:func:`bot.parse.rate_forms.rate_said` names the rate as the parser keeps it, in English ('qps: 2 (120 a
minute) × 300 output tokens = 600 tokens/s; × 1,000 input tokens = 2,000 prefill tokens/s'); a Chinese
reply printed that inside its '已使用：' line. :func:`rate_text` words the same figures as translated
messages; text of any other form is returned unchanged.
"""

from __future__ import annotations

import re

from bot.render.i18n import N_, translate

_SAID_RE = re.compile(
    r"qps: (?P<rate>\S+)(?: \((?P<day>[\d,]+) a day ÷ 86,400 s, the average\))?"
    r"(?: \((?P<minute>\S+) a minute\))?"
    r" × (?P<output>[\d,]+) output tokens = "
    r"(?P<tps>[\d,]+) tokens/s(?:; × (?P<prompt>[\d,]+) input tokens = (?P<prefill>[\d,]+) prefill tokens/s)?"
)
RATE = N_("qps: %(rate)s")
PER_MINUTE = N_(" (%(minute)s a minute)")
PER_DAY = N_(
    " (%(day)s a day ÷ 86,400 s: the day's average; peaks run higher, size for them if you know them)"
)
DECODE = N_(" × %(output)s output tokens = %(tps)s tokens/s")
PREFILL = N_("; × %(prompt)s input tokens = %(prefill)s prefill tokens/s")


def rate_text(text: str, lang: str) -> str:
    """``text`` (a ``rate_times_output`` item as the parser wrote it) in ``lang`` ('zh' or 'en'), the
    figures as written; unchanged when it is not of :func:`bot.parse.rate_forms.rate_said`'s form."""
    m = _SAID_RE.fullmatch(text)
    if m is None:
        return text
    out = translate(lang, RATE, rate=m["rate"])
    if m["day"]:  # a day's volume: its average rate, said as such (trial s21 #5)
        out += translate(lang, PER_DAY, day=m["day"])
    if m["minute"]:
        out += translate(lang, PER_MINUTE, minute=m["minute"])
    out += translate(lang, DECODE, output=m["output"], tps=m["tps"])
    if m["prompt"]:
        out += translate(lang, PREFILL, prompt=m["prompt"], prefill=m["prefill"])
    return out
