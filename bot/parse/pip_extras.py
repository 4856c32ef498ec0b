"""A package named with its pip extras (issue 24 item 3, session 49: the stack named and neither used nor
mentioned): 'transformers INT4 (bigdl-llm[xpu])', 'pip install ipex-llm[xpu]', '用 autoawq[kernels] 量化'.
The brackets after a name are the optional dependencies of a Python package (PEP 508, "Extras"; pip's
``pip install 'pkg[extra]'``), so the name is software the job runs, whatever its spelling: a tool the
tables do not know is named as typed, not dropped in silence (docs/design.md §8). A name another reader has
(``vllm[tpu]``, a model, a card) is left to it, as are a config key indexed with brackets
('target_modules[0]', 'layers[-1]': a digit or a sign inside) and a list of words in brackets after a
plain word ('GPUs [A100, H100]': a space inside, or a capital).

Loaded on first use, behind the brackets' characters at its call site (bot.parse.unknown_tools); pure,
never raises."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.parse.lower_tools import tool_item
from bot.parse.tool_slots import tool_shaped

EXTRAS_RE = re.compile(
    r"(?<![A-Za-z0-9_\-.\[])(?P<name>[A-Za-z][A-Za-z0-9]*(?:[.\-_][A-Za-z0-9]+)*)"
    r"\[(?P<extras>[a-z][a-z0-9\-_]*(?:,\s?[a-z][a-z0-9\-_]*)*)\]"
)
"""A package's name and its extras, as pip writes them: 'bigdl-llm[xpu]', 'ipex-llm[cpp]',
'unsloth[colab-new]', 'deepspeed[1bit,autotuning]' — lower-case extras of letters, digits, '-' and '_',
comma-separated."""


def extras_tools(raw: str, training: bool, known: Callable[[str, bool], bool]) -> list[tuple[str, str]]:
    """The 'not used' item (:func:`bot.parse.lower_tools.tool_item`) of each package in ``raw`` (as typed)
    written with its extras (:data:`EXTRAS_RE`) whose name is spelled as software and that no other reader
    knows (:func:`bot.parse.tool_slots.tool_shaped`, ``known`` as it takes), in order, each once."""
    out: list[tuple[str, str]] = []
    if not glued_bracket(raw):
        return out  # no regex search for brackets apart from a name ('GPUs [A100, H100]', a link's text)
    zh = None
    for m in EXTRAS_RE.finditer(raw):
        item = tool_item(m.group("name"), training)
        zh = any("\u4e00" <= c <= "\u9fff" for c in raw) if zh is None else zh
        if item not in out and tool_shaped(m.group("name"), zh, known):
            out.append(item)
    return out


def glued_bracket(raw: str) -> bool:
    """Whether an opening bracket in ``raw`` follows a letter or a digit ('bigdl-llm[xpu]'), by string methods
    (the parse's regex searches are pinned: tests/test_parse_render_speed.py)."""
    i = raw.find("[")
    while i > 0:
        if raw[i - 1].isalnum():
            return True
        i = raw.find("[", i + 1)
    return False
