"""A model family's native port named as the tool (issue 24, round 12: 'reach 1 token/s … with llama2.c':
'llama2' read as the model and the port dropped in silence).

People name the C, C++, Rust, Mojo and Zig ports of a model family by the family and the language's file
extension — karpathy's llama2.c and llm.c, google's gemma.cpp, qwen.cpp, bitnet.cpp, llama2.mojo,
mistral.rs, chatglm.cpp, llama.cpp. The grammar is the name: a catalog family (or 'llm' / 'gpt') then
``.c``, ``.cpp``, ``.rs``, ``.mojo`` or ``.zig``. Such a name is a tool, never a model: its family part names
no model (:func:`drop_port_stems`), and the port is named as typed — the runtime of a serving job
(``runtime_not_modelled``), the training tool of a training job (``no_field``: llm.c trains GPT-2) — unless a
table knows it (llama.cpp is modelled; chatglm.cpp and mistral.rs are named by
:data:`bot.parse.more_engines.MORE_RUNTIMES`).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.lower_tools import tool_item
from bot.parse.regex import rc

PORT_RE = rc(r"(?<![a-z0-9_./\-])(?P<stem>[a-z][a-z0-9_\-]{0,24}?)\.(?:cpp|c|rs|mojo|zig)(?![a-z0-9_.])")
"""A name then a native language's file extension ('llama2.c', 'gemma.cpp', 'mistral.rs'); not inside a
path ('src/main.c') nor a longer name ('x.c.o')."""
_PORT_AFTER = re.compile(r"\.(?:cpp|c|rs|mojo|zig)(?![a-z0-9_.])")
_TABLED = frozenset(("llama", "chatglm", "mistral"))
"""Stems of ports a table names already (llama.cpp, chatglm.cpp, mistral.rs)."""


def family_stem(stem: str) -> bool:
    """Whether ``stem`` is a model family of the model reader, with a version ('llama2') or not, or the
    generic 'llm' / 'gpt' / 'bitnet'."""
    from bot.parse.model_index import _model_index  # here: bot.parse.models imports this module

    core = re.sub(r"[\d_\-.]+$", "", stem)
    return core in ("llm", "gpt", "bitnet") or core in _model_index().families


def port_tools(raw: str, s: str, training: bool) -> list[tuple[str, str]]:
    """('runtime: gemma.cpp', 'runtime_not_modelled') — ('training_tool: llm.c', 'no_field') in a training
    job — for each port of a model family in the normalized text ``s`` (as typed in ``raw``), each once."""
    out: list[tuple[str, str]] = []
    for m in PORT_RE.finditer(s):
        if m.group("stem") in _TABLED or not family_stem(m.group("stem")):
            continue
        found = re.search(re.escape(m.group(0)), raw, re.IGNORECASE)
        name = found.group(0) if found else m.group(0)
        item = tool_item(name, training)
        if item not in out:
            out.append(item)
    return out


def drop_port_stems(original: str, s: str, mentions: list[Any]) -> tuple[str, list[Any]]:
    """``s`` (``original`` with its model mentions masked) with each port's family part unmasked, and
    ``mentions`` less those parts ('llama2' of 'llama2.c'): a tool's name, no model."""
    kept = []
    for m in mentions:
        if _PORT_AFTER.match(s, m.end):
            s = s[: m.start] + original[m.start : m.end] + s[m.end :]
        else:
            kept.append(m)
    return s, kept
