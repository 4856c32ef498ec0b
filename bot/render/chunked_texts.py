"""The notes of Llama 4's chunked local attention as the runtime allocates it (s45,
:mod:`estimator.chunked_kv`), kept apart from :mod:`bot.render.wording_extra` (at its 500-line cap);
:mod:`bot.render.wording` merges them into its note messages. Params: ``model``, ``chunk`` (tokens),
``chunked`` and ``layers`` (layer counts), ``window`` (tokens a chunked layer keeps), ``said`` (the
runtime, flag or release as written), ``env`` (vLLM's environment variable)."""

from __future__ import annotations

from bot.render.i18n import N_
from bot.render.note_codes import NoteCode

CHUNKED_NOTE_MESSAGES: dict[NoteCode, str] = {
    NoteCode.chunked_kv_assumed: N_(
        "%(model)s attends within %(chunk)s-token chunks on %(chunked)s of its %(layers)s layers: their KV "
        "cache is sized at one chunk plus the tokens vLLM schedules a step (%(window)s tokens a sequence), "
        "as vLLM allocates it by default since v0.16 (%(env)s=1, turned on by "
        "vllm#29627). vLLM v0.12 and earlier, or %(env)s=0, keep the whole context on every layer: several "
        "times the KV cache at long contexts. Say your vLLM release or that setting to size it so."
    ),
    NoteCode.chunked_kv_stated: N_(
        "%(model)s attends within %(chunk)s-token chunks on %(chunked)s of its %(layers)s layers: with "
        "%(said)s those layers keep %(window)s tokens of KV a sequence, sized so; the other layers keep the "
        "whole context."
    ),
    NoteCode.chunked_kv_full: N_(
        "%(model)s attends within %(chunk)s-token chunks on %(chunked)s of its %(layers)s layers, but "
        "%(said)s keeps the whole context's KV on every layer, so it is sized so. vLLM v0.16 and later "
        "(or %(env)s=1 on an older one), SGLang with --hybrid-kvcache-ratio, or llama.cpp keep about one "
        "chunk on those layers instead."
    ),
}
