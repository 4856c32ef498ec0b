"""A chassis named by its GPU slots, with fewer cards said in it (s27, issue 24 'counts and hardware'):
'a Supermicro 8-GPU chassis … vLLM on 4x MI100', 'I run an 8-GPU server with 4x A100 80G', '一台 8 卡服务器，
插了 4 张 A100'. The slots are what the box holds, the cards said are what runs: the slot count is written
'N-slot' (left unread and named as such), so the cards' own count is the one sized. Before, the box's 8 was
read as 8 GPUs of the card named.

Only when another count of cards, smaller than the slots, stands in the same message: '2 台 8 卡服务器' (two
boxes of eight) and '8-GPU server' alone keep the slots as the cards, as people write a full box so.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

CHASSIS_RE = rc(
    r"(?<![\d.])(?P<n>\d{1,2})[\s\-]*(?:gpus?|卡|cards?)[\s\-]*(?:的\s*)?"
    r"(?=(?:chassis|server|服务器|机箱|box|machine|system|主机|机器)(?![a-z]))"
)
"""'8-GPU chassis', '8 gpu server', '8 卡服务器', '8卡的机器': a box by its GPU slots."""
_BOXES_BEFORE_RE = rc(
    r"(?:\d|[两二三四五六七八九十几多])\s*(?:台|个|x)\s*$|(?:\d|two|three|four)\s+(?:x\s*)?$"
)
"""Several boxes before the slots ('2台8卡服务器', '2 x 8-GPU servers'): nodes × cards, left as written
('一台 8 卡服务器' is one box)."""
CARDS_SAID_RE = rc(
    r"(?<![\w.\-])(?P<n>\d{1,2})\s*(?:[x×]\s*(?=[a-z])|(?:张|块)|(?=(?:[a-z]+\s)?(?:gpus?|cards?)(?![a-z])))"
)
"""Another count of cards: '4x MI100', '4 × A100', '4 张 A100', '4 A100 GPUs' ('4 gpus')."""
CHASSIS_GATE = re.compile(
    r"\d[\s\-]*(?:gpus?|卡|cards?)[\s\-]*(?:的\s*)?(?:chassis|server|服务器|机箱|box|machine|system|主机|机器)"
)


def chassis_slots(s: str) -> str:
    """The normalized text ``s`` with a chassis' slot count written 'N-slot' when fewer cards are said."""
    m = CHASSIS_RE.search(s)
    if m is None or _BOXES_BEFORE_RE.search(s[max(0, m.start() - 8) : m.start()]):
        return s
    slots = int(m.group("n"))
    rest = s[: m.start()] + " " + s[m.end() :]
    said = [int(c.group("n")) for c in CARDS_SAID_RE.finditer(rest)]
    if not said or max(said) >= slots or min(said) < 1:
        return s
    return s[: m.start()] + f"{slots}-slot " + s[m.end() :]


BOXES_RE = rc(
    r"(?:(?P<n>\d{1,5})\s*(?:台|套|个|x)?\s*)?(?:nvidia\s*)?(?P<box>(?:dgx|hgx)(?:[\s\-]*[a-z]{0,2}\d{2,3}[a-z]?)?)"
    r"(?![\w\-])"
)
"""'1 dgx h100' ('a DGX H100', normalized), '2 dgx h100 nodes', '一台 dgx a100', '96 dgx a100': DGX/HGX
systems, 8 GPUs each (bot.parse.roles.R_DGX; NVIDIA DGX H100 / DGX A100 user guides: eight GPUs a system)."""
slots_cue = re.compile(r"dgx|hgx|" + CHASSIS_GATE.pattern).search
"""Whether :func:`slots_read` can read anything in a message: the C search itself, kept out of
:mod:`bot.parse.module_gates`' rebinding (a pattern global there gets a Python frame a call; this runs on
every message: tests/test_parse_render_speed.py)."""
GPUS_PER_BOX = 8
"""GPUs in one DGX / HGX system (the 8 of bot.parse.roles' ``dgx×8`` count). NVIDIA's datasheets: DGX A100
'8x NVIDIA A100 … 320GB / 640GB total GPU memory' (40 / 80 GB cards), DGX H100 '8x NVIDIA H100 Tensor Core
GPUs, 640GB total', DGX H200 '8x NVIDIA H200 … 1,128GB total', DGX B200 '8x NVIDIA Blackwell GPUs, 1,440GB
total': eight cards whatever the generation; the generation names the card."""


def slots_read(s: str, gpu_count: float | None, card_named: bool = True) -> list[tuple[str, str, str]]:
    """The GPU count ``gpu_count`` as read from a system's slots in the normalized text ``s``, for the reply
    to say where the count came from (s28 review L1: 'DGX H100 → 8 GPUs'): each DGX/HGX mention whose
    systems × 8 is the count (``dgx_gpus``), or a one-box chassis by its slots ('8-gpu server') that is the
    count (``chassis_gpus``) — as (typed, used, reason) of ``interpretation.substitutions``. s38: a DGX/HGX
    with no generation and no card named anywhere ('2台DGX') is ``dgx_no_card``: the reply says the card is
    the assumed one, never a DGX generation it picked silently."""
    if not gpu_count:
        return []
    out = []
    if "dgx" in s or "hgx" in s:
        for m in BOXES_RE.finditer(s):
            boxes = int(m["n"]) if m["n"] else 1
            if boxes * GPUS_PER_BOX == gpu_count:
                box = re.sub(r"[\s\-]+", " ", m["box"]).upper()
                typed = f"{boxes} × {box}" if boxes > 1 else box
                used = (
                    f"{boxes} × {GPUS_PER_BOX} = {boxes * GPUS_PER_BOX}" if boxes > 1 else f"{GPUS_PER_BOX}"
                )
                bare = not card_named and m["box"] in ("dgx", "hgx")
                out.append((typed, used, "dgx_no_card" if bare else "dgx_gpus"))
                break
    if not out and CHASSIS_GATE.search(s):
        m = CHASSIS_RE.search(s)
        if (
            m is not None
            and int(m["n"]) == gpu_count
            and not _BOXES_BEFORE_RE.search(s[max(0, m.start() - 8) : m.start()])
        ):
            box = _BOX_WORD_RE.match(s, m.end())
            typed = (
                m.group(0).strip()
                + (" " if box and box.group(0).isascii() else "")
                + (box.group(0) if box else "")
            )
            out.append((typed, m["n"], "chassis_gpus"))
    return out


_BOX_WORD_RE = rc(r"chassis|server|服务器|机箱|box|machine|system|主机|机器")
"""The box word after :data:`CHASSIS_RE`'s slots (its lookahead)."""


_SIDE = (
    r"(?:(?P<m{k}>\d{{2,3}})\s*(?:gb?)?\s*(?:[x×*]\s*|\s+x\s+)(?P<n{k}>\d{{1,2}})(?![\d.])"
    r"|(?P<c{k}>\d{{1,2}}) gpus with (?P<g{k}>\d{{2,3}}) gb each)"
)
MIXED_MEMORIES_RE = rc(
    r"(?:(?P<card>[a-z]{1,3}\d{2,4}[a-z]?)\s+)?"
    + _SIDE.format(k=1)
    + r"\s*\+\s*"
    + _SIDE.format(k=2)
    + r"(?:\s*(?:的|张|卡)?\s*(?P<after>[a-z]{1,3}\d{2,4}[a-z]?)(?![a-z\d]))?"
)
"""s38: one card in two memories written as two products ('A100 40G×8 + 80G×8', '40*8+80*8 A100', '40G*8 +
80G*8 的 A100', as normalized): rewritten as two counted cards ('8x a100 40gb + 8x a100 80gb'), which the
mixed-rig reader sizes as the cards of least memory and names the other (bot.parse.mixed_rig). Before,
'40*8+80*8 A100' was 640 GPUs and the second memory of 'A100 40G×8 + 80G×8' was dropped."""
_CARD_MEMORIES = frozenset((16, 24, 32, 40, 48, 64, 80, 94, 96, 141, 144, 180, 192))
"""Memories cards are sold with (GB): a product of two such figures is a fleet, never a count."""


def mixed_memories(s: str) -> str:
    """``s`` with each :data:`MIXED_MEMORIES_RE` fleet written as two counted cards (gated by '+')."""
    return MIXED_MEMORIES_RE.sub(_two_cards, s)


def _two_cards(m: re.Match[str]) -> str:
    card = m["card"] or m["after"]
    m1, n1 = (m["m1"], m["n1"]) if m["m1"] else (m["g1"], m["c1"])
    m2, n2 = (m["m2"], m["n2"]) if m["m2"] else (m["g2"], m["c2"])
    if card is None or m1 == m2 or not {int(m1), int(m2)} <= _CARD_MEMORIES:
        return m.group(0)
    return f"{n1}x {card} {m1}gb + {n2}x {card} {m2}gb"
