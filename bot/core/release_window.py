"""A long-context release's own window (s28 trial): 'chatglm3-6b-32k' is sized as ChatGLM3-6B (same weights,
bot.parse.context_release), so the estimator's note that ChatGLM3-6B was released for 8,192 tokens would
contradict the release the user named. Up to the release's suffix ('-32k': 32 × 1,024 tokens; THUDM's
ChatGLM3-6B-32K card), the window notes are dropped; past it they stay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.context_release import LONG_CONTEXT, SUFFIX_END

if TYPE_CHECKING:
    from bot.parse.result import ParseResult
    from estimator.models import SizingReport

WINDOW_NOTES = frozenset({"beyond_context_window", "rope_scaling_needed"})
"""The estimator's notes on a length past the sized model's window (estimator/context_window.py)."""


def release_window(report: SizingReport, parsed: ParseResult) -> SizingReport:
    """``report`` without its :data:`WINDOW_NOTES` at a length within the typed release's suffix, when the
    model was read as a long-context release (``model_substitution`` 'long_context'); else unchanged."""
    m = SUFFIX_END(parsed.model_typed or "") if parsed.model_substitution == LONG_CONTEXT else None
    if m is None:
        return report
    size = m.group(1).lower()
    window = int(size[:-1]) * (1024 if size.endswith("k") else 1024 * 1024)
    kept = [
        n for n in report.warnings if n.code not in WINDOW_NOTES or (n.params.get("length") or 0) > window
    ]
    return report if len(kept) == len(report.warnings) else report.model_copy(update={"warnings": kept})
