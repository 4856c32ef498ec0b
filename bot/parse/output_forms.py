"""How people write a serving request's output length and its request rate (issue 24, round 3).

- **Output tokens in other words** ("512 output tokens", "512 tokens of output", "max_tokens 512",
  "generating 512 tokens each", "512 new tokens"): written 'output 512 tokens', the form the reply rule of
  :mod:`bot.parse.roles` reads (a serving context is the prompt plus the reply).
- **A request rate with its output length** ("10 requests per second, 512 output tokens each"): the
  output tokens per second the service must produce, rate × output tokens (Little's law applied to
  decode: every request generates its reply; prefill is sized from the prompt). Without an output length
  the rate stays named (``qps_needs_output``).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.regex import rc

_N = r"(\d[\d,]*(?:\.\d+)?\s*k?)"
_OUT = r"output \1 tokens"
_EACH = (
    r"(?:\s*(?:each|per\s+(?:request|response|query|call|reply|answer)|/\s*req(?:uest)?|a\s+request|apiece))?"
)
"""'each', 'per request' after the length: part of the form (else the per-sample rule reads it first)."""
REPLY_FORMS = (
    (rc(rf"(?<![\w.]){_N}\s*(?:output|generated|completion|new|response|decoded?)\s+tokens?\b{_EACH}"), _OUT),
    (rc(rf"(?<![\w.]){_N}\s*tokens?\s+(?:of\s+)?(?:output|generation|completion|response)\b{_EACH}"), _OUT),
    (rc(rf"\bmax[_\s\-]?tokens\s*[=:]?\s*{_N}(?![\d.])"), _OUT),
    (rc(rf"\bgenerat(?:e|es|ing)\s+(?:up\s+to\s+|about\s+|around\s+|~\s*)?{_N}\s*tokens?\b{_EACH}"), _OUT),
)
"""(pattern, rewrite): the output length of each request, written 'output N tokens'."""
_GATE = ("output", "generat", "new token", "completion", "response", "decode", "max_token", "max token")


def output_forms(s: str) -> str:
    """The normalized text ``s`` with each request's output length written 'output N tokens'."""
    if not any(word in s for word in _GATE):
        return s
    for pattern, words in REPLY_FORMS:
        s = pattern.sub(words, s)
    return s


_RATE_RE = re.compile(r"\d+(?:\.\d+)?")


def rate_times_output(named: list[tuple[str, str]], reply: float | None, fields: dict[str, Any]) -> None:
    """When a request rate was named for want of an output length (``qps_needs_output``) and the
    message gives the output tokens per request (``reply``), set ``target_tokens_per_s`` = rate × reply
    and drop the naming; otherwise leave both as they are."""
    if not reply or fields.get("target_tokens_per_s") is not None:
        return
    for item in named:
        if item[1] == "qps_needs_output" and (m := _RATE_RE.search(item[0])):
            fields["target_tokens_per_s"] = float(m.group()) * reply
            named.remove(item)
            return
