"""The Markdown dialect's text in the Feishu / Lark card's rich-text (``markdown``) element.

The reply's Markdown (bot.render.dialect) follows CommonMark: a hard line break is a backslash before the
newline (§6.7) and literal punctuation is backslash-escaped (§2.4). Feishu's card Markdown documents
neither: a line break is the newline itself, and a character its syntax uses is shown by its HTML
character reference ("特殊字符转义": ``&#42;`` for ``*``, ``&lt;`` for ``<``; open.feishu.cn
feishu-cards/card-json-v2-components/content-components/rich-text, JSON 2.0 rich text). The s24 trial's
Feishu cards showed "(2 B per parameter)\\", "gpu\\_memory\\_utilization", "\\~$1.2–2.5" (trial 2 #16).

So: the hard break's backslash goes; an escape becomes the character's numeric reference where the
character could start markup there, and the bare character where it cannot — ``_`` between two letters
or digits (CommonMark §6.2: an intraword underscore opens no emphasis) and a ``~`` not beside another
(Feishu's strikethrough is ``~~``). Code spans and fenced blocks are kept as they are (no escapes inside).
"""

from __future__ import annotations

import re

_TOKEN_RE = re.compile(r"(`+)(?:.+?)\1|\\(.)|\\$")
"""A code span (kept), a backslash escape (group 2), or a hard break's backslash at the line's end."""
_FENCE_HEADS = ("```", "~~~")


def _plain_here(line: str, start: int, char: str) -> bool:
    """Whether ``char``, escaped at ``line[start]`` (its backslash), starts no markup as a bare character:
    an intraword ``_``, a lone ``~``."""
    before = line[start - 1] if start > 0 else ""
    after = line[start + 2] if start + 2 < len(line) else ""
    if char == "_":
        return before.isalnum() and after.isalnum()
    if char == "~":
        return before != "~" and after != "~"
    return False


def _line(line: str) -> str:
    def sub(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(0)  # a code span: as it is
        char = m.group(2)
        if char is None:
            return ""  # the hard break's backslash: Feishu breaks on the newline
        return char if _plain_here(line, m.start(), char) else f"&#{ord(char)};"

    return _TOKEN_RE.sub(sub, line) if "\\" in line else line


def lark_markdown(text: str) -> str:
    """``text`` (the Markdown dialect) as Feishu's card Markdown shows it: see the module docstring."""
    out: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if line.startswith(_FENCE_HEADS) and (not fence or line.strip() == fence):
            fence = "" if fence else line[: len(line) - len(line.lstrip(line[0]))]
            out.append(line)
            continue
        out.append(line if fence else _line(line))
    return "\n".join(out)
