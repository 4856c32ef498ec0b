"""Long runs of white space squeezed before any reader sees the text (session 24 trial, item 3).

Many reader patterns start with ``\\s*`` or ``\\s+``; ``re.search`` tries them at every position of a
run, each try scanning to the run's end: O(run²) over one run (8,000 newlines: ~5 s in
:func:`bot.parse.past_then_now.split_at_job`). A run longer than :data:`LONG_RUN` characters is no
part of a question's meaning, so it is squeezed: within a line to one space; across lines to one blank
line, keeping the next line's own indentation (a pasted YAML key stays under its parent) when that
is at most :data:`LONG_RUN` characters.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

LONG_RUN = 64
"""Characters of white space kept as they are; a longer run is squeezed (a config's indentation is
well under it: YAML and JSON indent by 2–8 per level)."""

_SPACE = r"[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
"""White space: ASCII's (the parser's patterns are ASCII-mode) and Unicode's spaces (no-break, em,
ideographic U+3000), which NFKC turns into ASCII spaces later."""
LONG_RUN_RE = rc(f"{_SPACE}{{{LONG_RUN + 1},}}")
"""A run of more than :data:`LONG_RUN` white-space characters (no literal: the search is ``re``'s own
C method, no gate frame; a message without such a run costs no Python call)."""


def _squeezed(m: re.Match[str]) -> str:
    """One space for a run within a line; one blank line and the next line's indentation for a run
    across lines (``\\r\\n`` line ends count as line ends)."""
    run = m.group(0)
    last = max(run.rfind("\n"), run.rfind("\r"))
    if last < 0:
        return " "
    indent = run[last + 1 :]
    return "\n\n" + (indent if len(indent) <= LONG_RUN else " ")


def squeeze_whitespace(text: str) -> str:
    """``text`` with every white-space run longer than :data:`LONG_RUN` characters squeezed: within a
    line to one space, across lines to a blank line (str → str, never longer; a text without such a
    run is returned as it is)."""
    return LONG_RUN_RE.sub(_squeezed, text)
