"""Which of the settings readers of :func:`bot.parse.settings.extract_settings` run: one scan of the text
for all their key words (issue 23 item 7).

The last eight readers of the settings step (TP/PP, LoRA, precision words, recompute, throughput,
hours, serving engine, methods) each searched the text with 2–8 patterns, each behind its own presence
gate: ~30 searches and ~25 Python calls a message, most of which find nothing. A reader changes nothing
unless one of its first patterns (:data:`FIRST`: those it reads before any other, and with no match
of which it returns untouched) matches; every match of a pattern contains one of the literals
:func:`bot.parse.regex_gate.required_literals` reads off it. So one scan (``literal in text`` for the
union of the literals, in C) says which readers can find anything; the others are not called. The
readers only mask what they read with spaces, so a literal absent from the text before them stays
absent: a literal with white space in it (which masking could make) makes its reader run always, as
a pattern without required literals does. The literal table is read off the patterns from a process's
second message on (:data:`bot.parse.regex.ON_SECOND_MESSAGE`); before that, every reader runs.
tests/test_parse_settings_scan.py compares the step with and without the scan on every text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import _parser
from typing import Any

from bot.parse.regex import ON_SECOND_MESSAGE
from bot.parse.regex_gate import required_literals

FIRST: dict[str, tuple[str, ...]] = {
    "_parallel": ("TP_RE", "PP_RE"),
    "_lora": ("RANK_RE", "TARGET_RE", "ALL_LINEAR_RE", "FREEZE_LAYERS_RE", "PREFIX_RE"),
    "_precision_words": ("OPTIMIZER_RE", "PURE_BF16_RE", "QUANT_BIT_RE"),
    "_recompute": ("NO_FULL_RECOMPUTE_RE", "NO_RECOMPUTE_RE", "SELECTIVE_RE", "FULL_RECOMPUTE_RE"),
    "_throughput": ("TFLOPS_RE", "TPS_RE"),  # and, when not training, the serving targets: always then
    "_hours": ("HOURS_RE",),
    "_serving": ("UTIL_RE", "RUNTIMES", "COLOCATE_RE"),
    "_methods": ("METHOD_WORDS",),
}
"""Reader of :mod:`bot.parse.settings` (in the order it runs them) → the names of its first patterns
(a tuple of (pattern, value) pairs gives each of its patterns)."""
WITH_TRAINING = frozenset({"_throughput", "_serving"})
"""Readers called with ``training`` too."""
ALWAYS_UNLESS_TRAINING = frozenset({"_throughput"})
"""Readers that run whenever the message is not about training (their other reads have no table)."""

_TABLE: list[Any] = []
"""[(reader, with training, its literals or None: always), …] once :func:`warm` ran."""


def literals_of(patterns: list[Any]) -> frozenset[str] | None:
    """The literals one of which every match of any of ``patterns`` contains; None when a pattern has
    none, ignores case, or one has white space (masking with spaces could make it)."""
    out: set[str] = set()
    for p in patterns:
        p = p.pattern if hasattr(p, "_branches") else p  # an AnyBranch: its whole pattern
        source, flags = p.pattern, getattr(p, "_flags", None)
        flags = p.flags if flags is None else flags  # a compiled re.Pattern
        parsed = _parser.parse(source, flags)
        if (flags | parsed.state.flags) & re.IGNORECASE:
            return None
        lits = required_literals(parsed)
        if not lits or any(ch.isspace() for lit in lits for ch in lit):
            return None
        out |= lits
    return frozenset(out)


def _patterns(module: Any, names: tuple[str, ...]) -> list[Any]:
    found: list[Any] = []
    for name in names:
        value = getattr(module, name)
        found += [p for p, _ in value] if isinstance(value, tuple) else [value]
    return found


def warm() -> None:
    """Read the readers' literals off their patterns (a few ms, once)."""
    from bot.parse import settings

    _TABLE[:] = [
        (getattr(settings, name), name in WITH_TRAINING, name, literals_of(_patterns(settings, names)))
        for name, names in FIRST.items()
    ]


ON_SECOND_MESSAGE.append(warm)


def _all() -> list[tuple[Callable[..., Any], bool, str, frozenset[str] | None]]:
    from bot.parse import settings

    return [(getattr(settings, name), name in WITH_TRAINING, name, None) for name in FIRST]


def run_readers(out: Any, training: bool) -> None:
    """The readers of :data:`FIRST` on ``out`` (a :class:`bot.parse.settings.Settings`), in order,
    each only when the text has one of its literals (every reader before :func:`warm`)."""
    table = _TABLE or _all()
    s = out.s
    for reader, with_training, name, lits in table:
        always = lits is None or (not training and name in ALWAYS_UNLESS_TRAINING)
        if not always and not any(map(s.__contains__, lits)):  # type: ignore[arg-type]
            continue  # none of its key words: it would find nothing
        if with_training:
            reader(out, training)
        else:
            reader(out)
