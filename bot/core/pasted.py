"""A config.json pasted into a message: found and cut from the question on every message, without the
config reader and its model (:mod:`bot.core.configfile`: ``ConfigInfo``, imported only when a message
holds one; ``sizing-bot ask`` start-up, bench/RESULTS.md session 27 part s27-spstart).
:mod:`bot.core.configfile` imports these names from here, so old imports still work."""

from __future__ import annotations

import re

MARKER_RE = re.compile(
    r'"(?:model_type|architectures|num_hidden_layers|hidden_size|num_attention_heads|num_layers|'
    r"intermediate_size|n_layer|n_embd|d_model)\"\s*:"
)
"""Keys that make a pasted JSON object a model config (at least one must appear)."""


def split_pasted(text: str) -> tuple[str | None, str]:
    """(the config JSON pasted into ``text``, the rest of the message) — or (None, text) when the
    message holds no JSON object with a model-config key. The object runs from the first ``{`` to the
    last ``}`` (or to the end, when the paste was cut short); what surrounds it is the question
    ("serve this on 2 H100: {…}")."""
    start = text.find("{")
    if start < 0:
        return None, text
    end = text.rfind("}")
    end = end + 1 if end > start else len(text)  # a paste cut short is still a config (and not JSON)
    candidate = text[start:end]
    if not MARKER_RE.search(candidate):
        return None, text
    rest = (text[:start] + " " + text[end:]).strip()
    return candidate, rest
