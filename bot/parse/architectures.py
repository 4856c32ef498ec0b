"""A model architecture named as the model (s48 names, issue 24 item 4; en44-041: 'How much VRAM does RWKV
need for training?'): RWKV (github.com/BlinkDL/RWKV-LM, an RNN with attention-free token mixing), Mamba and
Mamba-2 (github.com/state-spaces/mamba, selective state spaces), RetNet (Sun et al. 2023, arXiv:2307.08621),
Hyena / StripedHyena (arXiv:2302.10866, github.com/togethercomputer/stripedhyena) and xLSTM
(github.com/NX-AI/xlstm). Such a word is the family of the weights people run, so it is the unknown model,
named as typed (docs/design.md §8) — never a runtime nor a training tool, which the tool readers would make of
a capitalized word as the subject of 'does X need' (:mod:`bot.parse.tool_slots`). The programs named after
an architecture stay programs: ChatRWKV and RWKV-Runner are serving front ends
(:mod:`bot.parse.more_engines`), RWKV-LM the training code; a word joined to another ('RWKV-Runner',
'ChatRWKV', 'mamba-ssm') is never read here. Catalog families (Llama, Qwen, …) are known to the tool readers
through :func:`estimator.catalog.family_of` already.

Loaded on first use: its cue words (:data:`bot.parse.cue_words.ARCHITECTURE_CUES`) are tested in C at each
call site first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

ARCHITECTURE_RE = re.compile(
    r"(?<![a-z0-9\-_./])(?P<name>(?:rwkv|mamba|retnet|striped[\-_]?hyena|hyena|xlstm)(?:[\-_]?v?\d+(?:\.\d+)?)?)"
    r"(?![a-z0-9\-_]|\.[a-z0-9])"
)
"""An architecture word alone, with its generation ('RWKV', 'RWKV-7', 'rwkv_v4', 'Mamba2', 'Mamba-2',
'xLSTM'), on the normalized (lower-case) text; not inside or joined to another word ('ChatRWKV',
'RWKV-Runner', 'RWKV-LM', 'mamba_ssm', 'rwkv.cpp')."""


def is_architecture(name: str) -> bool:
    """Whether ``name`` (any case) is an architecture word of :data:`ARCHITECTURE_RE`, whole."""
    m = ARCHITECTURE_RE.fullmatch(name.lower())
    return m is not None


def architecture_named(s: str, typed: Callable[[str], str]) -> tuple[int, int, str] | None:
    """(start, end, name as typed by ``typed``) of the first architecture word in the normalized text ``s``,
    or None."""
    m = ARCHITECTURE_RE.search(s)
    return (m.start("name"), m.end("name"), typed(m.group("name"))) if m else None
