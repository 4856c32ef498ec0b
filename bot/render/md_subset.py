"""CommonMark backslash escapes a chat's Markdown subset does not need, dropped line by line.

The Markdown dialect (:func:`bot.render.dialect.md_escape`) escapes every character CommonMark could read
as markup (§2.4 backslash escapes). A chat whose Markdown subset documents no backslash escape shows the
backslash as typed, so a copied flag reads ``use\\_liger\\_kernel``. Here an escape is dropped where the bare
character starts no markup: an intraword ``_`` (CommonMark §6.2: an underscore between two alphanumerics is
neither left- nor right-flanking for emphasis), a ``#`` or ``>`` past the line's start (they mark only a
line's start: §4.2 ATX headings, §5.1 block quotes), and the characters the chat's subset has no markup for
(``anywhere``). Code spans (§6.1) are kept as they are; an escaped backslash or backtick is kept.
"""

from __future__ import annotations

import re

_ESCAPE_RE = re.compile(r"(`+)(?:.+?)\1|\\([|~#>_\\`])")
"""A code span (kept whole), or a backslash escape of a character that may show bare here, of a backslash
or of a backtick (kept: read whole, so the character after them is not taken as escaped nor as a span's
start)."""


def bare_here(line: str, start: int, char: str, anywhere: str) -> bool:
    """Whether ``char``, escaped at ``line[start]`` (its backslash), starts no markup as a bare character:
    one of ``anywhere`` (the subset has no markup for it), ``#``/``>`` past the line's start, or an
    intraword ``_``."""
    if char in anywhere:
        return True
    if char in "\\`|~":
        return False
    if char in "#>":
        return bool(line[:start].strip())
    before = line[start - 1] if start > 0 else ""
    after = line[start + 2] if start + 2 < len(line) else ""
    return before.isalnum() and after.isalnum()


def unescape_line(line: str, anywhere: str = "") -> str:
    """``line`` with the escapes :func:`bare_here` allows dropped; code spans as they are. Other escapes
    (``*``, ``[``, ``<``, ``&``, a ``_`` that could open emphasis) are kept."""

    def sub(m: re.Match[str]) -> str:
        char = m.group(2)
        return char if char is not None and bare_here(line, m.start(), char, anywhere) else m.group(0)

    return _ESCAPE_RE.sub(sub, line) if "\\" in line else line


def unescape_text(text: str, anywhere: str = "") -> str:
    """``text`` with :func:`unescape_line` applied outside fenced code blocks (CommonMark §4.5)."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            lines.append(line)
            continue
        lines.append(line if fenced else unescape_line(line, anywhere))
    return "\n".join(lines)
