"""A long-context release's own window (s28 trial): 'chatglm3-6b-32k' is sized as ChatGLM3-6B (same weights,
bot.parse.context_release), so the estimator's note that ChatGLM3-6B was released for 8,192 tokens would
contradict the release the user named. Up to the release's suffix ('-32k': 32 × 1,024 tokens; THUDM's
ChatGLM3-6B-32K card), the window notes are dropped; past it they stay."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.context_release import LONG_CONTEXT, SUFFIX_END
from bot.parse.fine_tunes import FINE_TUNE

if TYPE_CHECKING:
    from bot.parse.result import ParseResult
    from estimator.models import Note, SizingReport

SUFFIXED = (LONG_CONTEXT, FINE_TUNE)
"""The substitutions whose typed name's context suffix is the release's window ('vicuna-13b-v1.5-16k': 16K,
lmsys/vicuna-13b-v1.5-16k config.json, rope_scaling linear 4.0 × 4,096)."""
WINDOW_NOTES = frozenset(
    {"beyond_context_window", "rope_scaling_needed", "rope_scaling_set", "later_version_window"}
)
"""The estimator's notes on a length past the sized model's window (estimator/context_window.py)."""


CHAT_TYPED = re.compile(r"chat|instruct|(?<![a-z])it$|:", re.IGNORECASE).search
"""A name typed as the chat release: '-chat', 'chatglm4', '-Instruct', Gemma's '-it', or an Ollama library tag
('glm4:9b': Ollama's library serves the chat releases)."""
BASE_TYPED = re.compile(r"base|text", re.IGNORECASE).search
"""A name typed as the base release ('glm-4-9b-base', Ollama's '…:text' tags)."""


def chat_window(report: SizingReport, parsed: ParseResult) -> int | None:
    """The chat release's window (the catalog's ``chat_context``: GLM-4-9B's chat release 131,072 tokens,
    THUDM/glm-4-9b-chat config.json seq_length, its base 8,192) when the name typed or the runtime
    (Ollama) names the chat release; else None (fresh-user trial s34 #3)."""
    model, typed = report.request.model, parsed.model_typed or ""
    if model is None or BASE_TYPED(typed):
        return None
    if not CHAT_TYPED(typed) and report.request.runtime != "Ollama":
        return None
    from estimator import catalog

    spec = catalog.models().get(model)
    return spec.chat_context if spec is not None else None


def release_window(report: SizingReport, parsed: ParseResult) -> SizingReport:
    """``report`` without its :data:`WINDOW_NOTES` at a length within the typed release's suffix, when the
    model was read as a long-context release (``model_substitution`` 'long_context'), or within the chat
    release's window when one was named (:func:`chat_window`); else unchanged."""
    if not any(n.code in WINDOW_NOTES for n in report.warnings):
        return report  # no length past the window: nothing to look up
    m = SUFFIX_END(parsed.model_typed or "") if parsed.model_substitution in SUFFIXED else None
    chat = chat_window(report, parsed) if m is None else None
    if m is None and chat is None:
        return report
    size = m.group(1).lower() if m is not None else ""
    window = chat or int(size[:-1]) * (1024 if size.endswith("k") else 1024 * 1024)
    kept = [
        n for n in report.warnings if n.code not in WINDOW_NOTES or (n.params.get("length") or 0) > window
    ]
    if chat is not None:  # past the chat release's window: that window is the one named (not the base's)
        kept = [_chat_note(n, chat) for n in kept]
    return report.model_copy(update={"warnings": kept})


def _chat_note(note: Note, window: int) -> Note:
    if note.code != "beyond_context_window":
        return note
    return note.model_copy(update={"params": {**note.params, "window": window}})
