"""Where a message enters: the same characters however they were typed (s31 metamorphic sweep).

Two ways of writing that change no meaning but changed the answer (``python -m tests.metamorphic``,
tests/data/metamorphic_census.md):

- **Full-width letters, digits and spaces** (U+FF10–U+FF19, U+FF21–U+FF3A, U+FF41–U+FF5A; U+3000, the
  ideographic space), as a Chinese input method types them ('８ 张 Ａ１００', 'Qwen２.５-７２B'): the
  ASCII characters they stand for (Unicode's NFKC maps them so: UAX #15, the <wide> compatibility
  decompositions). The text normalization (bot.parse.normalize) did so already, but the readers of the
  message as typed (pasted configs and launch lines, names as typed, the whole-message steps) saw '８'.
  Full-width punctuation ('，', '：', '（') is left as typed: the readers know it.
- **Markdown emphasis and inline code** around a word ('Llama 2 **70B**', 'on 2x `A100` 80GB'): the words
  inside. '**' between two numbers ('2**70') is Python's power and stays (its reader: bot.parse.normalize
  ``_POWER_RE``); that reader read 'Llama 2 **70B**' as 2⁷⁰ and 'R1 **671B**' as 1⁶⁷¹. An emphasis opens
  after no word character and closes before none (CommonMark 0.31 §6.2: a left-flanking delimiter run is
  not followed by white space, a right-flanking one not preceded by it); a code span's backticks are not
  part of a run of backticks (§6.1), so a fenced block (```yaml) is left as typed.
"""

from __future__ import annotations

import re

_WIDE = "".join(chr(c) for c in (*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)))
_FOLD = str.maketrans({**{w: chr(ord(w) - 0xFEE0) for w in _WIDE}, "\u3000": " "})
"""Full-width digit and letter → its ASCII character (code point − 0xFEE0); the ideographic space → ' '."""

_EMPHASIS_RE = re.compile(r"(?<![\w*])\*\*(?=[^\s*])([^*\n]{1,120}?)(?<=[^\s*])\*\*(?![\w*])")
"""'**70B**' (strong emphasis): the words inside; '2**70' (a power) has a word character before it."""
_CODE_RE = re.compile(r"(?<![`\w])`(?=[^\s`])([^`\n]{1,120}?)(?<=[^\s`])`(?![`\w])")
"""'`A100`' (a code span of one backtick): the words inside; '```' fences are runs, left as typed."""

CUE_RE = re.compile(r"[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\u3000]|\*\*|`")
"""A character :func:`plain_forms` may change: its gate at the call sites (one C search; no call
without it)."""


def plain_forms(text: str) -> str:
    """``text`` with full-width letters, digits and spaces as ASCII and markdown emphasis and code spans
    around words unwrapped (module docstring); the same object when it has none of them (one C search:
    core calls this on every message, and runs no regex of its own: tests/test_core_one_pass.py).
    Idempotent."""
    if CUE_RE.search(text) is None:
        return text
    text = text.translate(_FOLD) if not text.isascii() else text
    if "**" in text:
        text = _EMPHASIS_RE.sub(_inner, text)
    if "`" in text:
        text = _CODE_RE.sub(_inner, text)
    return text


def _inner(m: re.Match[str]) -> str:
    """``r"\\1"`` as a function (a template makes ``re`` call its Python helper on every call)."""
    return m.group(1)
