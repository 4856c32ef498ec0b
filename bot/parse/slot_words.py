"""llama.cpp's server slots said in prose (trial s12 B2): '4 parallel slots', '4 slots', '4 个并行槽位'.

llama-server runs one sequence per slot at once (its ``-np`` / ``--parallel`` flag, llama.cpp
tools/server/README.md: "number of parallel sequences to decode"), so the slots in prose are the load the
flag is read as (:data:`bot.parse.prose_forms.CAP_RE`). They are written in the flag's form. Before, the
'4' was named as 'no word said what it is' and one sequence at a time was sized.
"""

from __future__ import annotations

from bot.parse.regex import rc

SLOTS_RE = rc(
    r"(?<![\w.\-])(?P<n>\d{1,4})\s*(?:个\s*)?(?:parallel\s+|concurrent\s+|server\s+|并行\s*|并发\s*)?"
    r"(?:slots?(?![a-z])|槽位|槽)"
)
"""'4 parallel slots', '4 slots', '4 个并行槽位', '4 个槽'."""


def slots_as_flag(s: str, training: bool) -> str:
    """The normalized text ``s`` with slots in prose written as llama.cpp's '--parallel N' (serving only)."""
    if training or not ("slot" in s or "槽" in s):
        return s
    return SLOTS_RE.sub(lambda m: f"--parallel {m.group('n')}".ljust(m.end() - m.start()), s)  # same length
