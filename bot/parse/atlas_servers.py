"""Huawei Atlas 800 servers read as the NPUs they hold (session 31 trial: 'Atlas 800' was read as the
runtime 'Atlas' and a stray '800', 'Atlas 800T A2' / 'Atlas 800I A2' named unknown and sized on an A100).

An Atlas 800 training or inference server of the A2 generation (Atlas 800T A2, Atlas 800I A2) holds 8
Ascend 910B NPUs (Huawei's Atlas 800T A2 / 800I A2 product pages: 8 NPUs per server, HCCS in the node;
estimator/data/gpus.toml 'Ascend-910B' interconnect note). A bare 'Atlas 800' is read as that server too;
the A3 generation (Atlas 800 A3, 16 NPUs of the Ascend 910C, which the catalog has no entry for) is left
as typed and named as such (bot.parse.lexicon.UNKNOWN_GPU_RE, bot.parse.node_shape.SERVER_SHAPE_RE).

The rewrite gives the text the parse already reads for a server count and its cards: 'N 台 910b 服务器,
每台 8 卡' in a Chinese message, 'N nodes of 8 910b each' in an English one, and '910b' alone when no
server count is said (the plan then counts the servers it needs, 8 NPUs a server).
"""

from __future__ import annotations

import re

from bot.parse.fixed_patterns import typed_name

ATLAS_NPUS_PER_SERVER = 8
"""NPUs in one Atlas 800T A2 / 800I A2 server (Huawei product pages; gpus.toml Ascend-910B)."""

_EN_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_EN_COUNTS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10}
_SERVER = r"(?:huawei\s*|华为\s*)?atlas[\s\-]*800[it]?(?:[\s\-]*a2)?(?![a-z0-9])(?![\s\-]*a3)"
_COUNTED_ZH_RE = re.compile(
    rf"(?<![\d.])(\d{{1,3}}|[一二两三四五六七八九十])\s*(?:台|个|部)\s*(?:的\s*)?{_SERVER}"
    r"(?:\s*(?:训练|推理)?\s*(?:服务器|机器|整机|节点))?"
)
_COUNTED_EN_RE = re.compile(
    rf"(?<![\w.])(\d{{1,3}}|{'|'.join(_EN_COUNTS)})\s+{_SERVER}"
    r"(?:\s+(?:training\s+|inference\s+)?(?:servers?|box(?:es)?|machines?|nodes?))?"
)
_BARE_RE = re.compile(rf"{_SERVER}(?:\s*(?:服务器|机器|整机|servers?(?![a-z])|box(?:es)?(?![a-z])))?")
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")


def _zh(m: re.Match[str]) -> str:
    return f"{_EN_COUNTS.get(m.group(1), m.group(1))} 台 910b 服务器, 每台 {ATLAS_NPUS_PER_SERVER} 卡 "


def _en(m: re.Match[str]) -> str:
    n = _EN_COUNTS.get(m.group(1)) or int(m.group(1))
    return f"{n} node{'s' if n != 1 else ''} of {ATLAS_NPUS_PER_SERVER} 910b each "


def atlas_servers(s: str) -> str:
    """The lower-cased, normalized message ``s`` with each Atlas 800 (A2) server rewritten as its
    Ascend 910B NPUs (module docstring); ``s`` unchanged when it names none. Call only when 'atlas'
    is in ``s``."""
    s = _COUNTED_ZH_RE.sub(_zh, s)
    s = _COUNTED_EN_RE.sub(_en if not _CJK_RE.search(s) else _zh, s)
    return _BARE_RE.sub(" 910b ", s)


def atlas_read(s0: str, raw: str = "") -> list[tuple[str, str, str]]:
    """Each Atlas 800 (A2) server of the normalized message ``s0`` as typed, with the NPUs it was read as
    ('2 台 atlas 800i a2' → '16 × Ascend 910B'; a server with no count → '8 × Ascend 910B a server'),
    reason ``atlas_server``, for the reply to state the reading (bot.render.understood). The name keeps the
    case of the message ``raw`` where it is found there ('Atlas 800T A2', never 'atlas 800t a2': s32)."""
    out = _atlas_read(s0)
    return [(_cased(raw, t), u, r) for t, u, r in out] if raw else out


def _cased(raw: str, typed: str) -> str:
    """``typed`` (lower-cased) as written in ``raw``: the same words, any case and spacing; else as is."""
    pattern = typed_name(typed)
    m = pattern.search(raw) if pattern is not None else None
    return m.group(0).strip() if m else typed


def _atlas_read(s0: str) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    taken: list[tuple[int, int]] = []
    for rx in (_COUNTED_ZH_RE, _COUNTED_EN_RE):
        for m in rx.finditer(s0):
            g = m.group(1)
            n = _EN_COUNTS.get(g) or (int(g) if g.isdigit() else _ZH_NUMS.get(g, 1))
            out.append((m.group(0).strip(), f"{n * ATLAS_NPUS_PER_SERVER} × Ascend 910B", "atlas_server"))
            taken.append(m.span())
    for m in _BARE_RE.finditer(s0):
        if not any(a <= m.start() < b for a, b in taken):
            out.append((m.group(0).strip(), f"{ATLAS_NPUS_PER_SERVER} × Ascend 910B", "atlas_server"))
    return out


_ZH_NUMS = {c: i for i, c in enumerate("零一二三四五六七八九十")} | {"两": 2}
