"""YAML anchors and aliases in a config file (issue 24 item 7): a file whose aliases would expand it far
beyond any real config ("billion laughs": ``a: &a [x, x, …]``, ``b: &b [*a, *a, …]`` … eight levels of
nine add 9² + … + 9⁸ ≈ 48 million nodes to a few hundred bytes) is refused as such, never read as JSON.

The training and serving reader (:mod:`bot.parse.configs.yamlish`) never expands an alias, so nothing
is expanded here either: each anchor's weight is counted once, line by line, from the text. Pure; never
raises.
"""

from __future__ import annotations

import re

MAX_ALIASES = 100
"""Aliases a config may use. Training configs (LLaMA-Factory, axolotl, torchtune) use none or a few
(``<<: *defaults``); a bomb needs one per copy at each level (63 for 7 levels of 9)."""
MAX_EXPANDED_NODES = 10_000
"""Nodes a config may hold once its aliases are expanded: LLaMA-Factory's and axolotl's example configs
hold under 200 keys and values (50× room). go-yaml v3 refuses the same attack by the ratio of aliases to
nodes decoded ("document contains excessive aliasing", ``decode.go`` ``allowedAliasRatio``)."""

_ANCHOR_RE = re.compile(r"(?<![\w*&])&(?P<name>[\w.\-]+)")
_ALIAS_RE = re.compile(r"(?<![\w*&])\*(?P<name>[\w.\-]+)")
_SCALAR_RE = re.compile(r"[^\s,\[\]{}:&*\-][^\s,\[\]{}]*")


def _line_weight(text: str, weights: dict[str, int]) -> int:
    """Nodes on one line: each plain scalar 1, each alias the weight of its anchor."""
    aliases = sum(weights.get(m.group("name"), 1) for m in _ALIAS_RE.finditer(text))
    rest = _ANCHOR_RE.sub(" ", _ALIAS_RE.sub(" ", text))
    return aliases + len(_SCALAR_RE.findall(rest))


def _body(lines: list[str], i: int, start: int) -> str:
    """The anchored value: the rest of line ``i`` from ``start`` and the more indented lines after it."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    out = [lines[i][start:]]
    for line in lines[i + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        out.append(line)
    return "\n".join(out)


def alias_expansion(text: str) -> tuple[int, int]:
    """(aliases of a defined anchor used, nodes those aliases add once expanded) in the YAML ``text``:
    each alias adds its anchor's value, aliases in it expanded. (0, 0) when it uses none; a ``*`` that
    names no anchor (a glob, 'x * y') is not an alias."""
    if "*" not in text or "&" not in text:
        return 0, 0
    lines = [ln.split(" #", 1)[0] for ln in text.splitlines()]
    weights: dict[str, int] = {}
    aliases = added = 0
    for i, line in enumerate(lines):
        for m in _ALIAS_RE.finditer(line):
            if m.group("name") in weights:
                aliases += 1
                added = min(10**18, added + weights[m.group("name")])
        for m in _ANCHOR_RE.finditer(line):
            body = _body(lines, i, m.end())
            weights[m.group("name")] = min(10**18, sum(_line_weight(b, weights) for b in body.split("\n")))
    return aliases, added


def excessive_aliases(text: str) -> list[str] | None:
    """What makes ``text`` a YAML file to refuse — [aliases used, nodes once expanded] ('63',
    '48427560'; bot.render.configtext words them) — or None when its aliases (if any) stay within
    :data:`MAX_ALIASES` and :data:`MAX_EXPANDED_NODES`."""
    aliases, nodes = alias_expansion(text)
    if aliases <= MAX_ALIASES and nodes <= MAX_EXPANDED_NODES:
        return None
    return [str(aliases), str(nodes)]
