"""A catalog model's display name in a Chinese reply (s22 trial #11): the name stays as released, its
descriptive note in brackets is worded in Chinese — 'DeepSeek-R1 (671B MoE, V3 architecture)' →
'DeepSeek-R1（671B MoE，V3 架构）' (the note's words through Babel; estimator/data/models/*.toml keep one
English name, the JSON contract's ``model_name``)."""

from __future__ import annotations

import re

from bot.render.i18n import N_, translate

_NOTE_RE = re.compile(r"\s*\(([^()]*\barchitecture\b[^()]*)\)$")
"""A trailing bracketed note naming an architecture ('(236B MoE, V2 architecture)')."""
_ARCH_RE = re.compile(r"([\w.\-]+) architecture\b")
ARCHITECTURE = N_("%(name)s architecture")
"""'V3 architecture': the model family whose shape a release reuses."""


def localized_model_name(name: str, lang: str) -> str:
    """``name`` with its bracketed architecture note worded in ``lang`` (Chinese: full-width brackets and
    comma, '架构'); unchanged in English or without such a note."""
    m = _NOTE_RE.search(name) if lang == "zh" else None
    if m is None:
        return name
    note = _ARCH_RE.sub(lambda a: translate(lang, ARCHITECTURE, name=a.group(1)), m.group(1))
    return f"{name[: m.start()]}（{note.replace(', ', '，')}）"
