"""A count of machines whose size is said elsewhere (s15 trial #1): '上次用2台8卡H800跑…，用4台要多久？',
'2 nodes of 8 H800 … This time on 4 nodes'.

'4台', '4 nodes', '4 machines' name no card and no GPUs per machine, so alone they stay unread (a machine
may hold 1 to 16 cards). When the message (or, for a finished run before the job, the run's part:
:mod:`bot.parse.past_then_now`) states the GPUs in each machine ('2台8卡', '2 nodes of 8', '8卡机器'), the
count is machines × that size: 4 × 8 = 32 GPUs, with ``per_node`` noted as '2机4卡' is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.numbers import NumberToken as Token
    from bot.parse.roles import Role

NODE_AFTER_RE = rc(
    r"\s*(?:个\s*)?(?:台(?:机器|服务器)?|节点|机器|nodes?\b|machines?\b|servers?\b|boxe?s\b|hosts?\b)"
    r"(?!\s*(?:gpu|卡|张))"
)
"""A machine word right after a count ('4台', '4 个节点', '4 nodes', '4 boxes'), no card count after it."""


def per_node_said(roles: list[Role]) -> int | None:
    """The GPUs in each machine the roles state: a count read as machines × cards ('2台8卡': extra
    'per_node:8') or a machine size ('8卡机器': role ``per_node``); None when none or two differ."""
    sizes = set()
    for r in roles:  # one loop, no comprehension frames (tests/test_parse_render_speed's call budget)
        if r.extra and r.extra.startswith("per_node:"):
            sizes.add(int(float(r.extra.split(":", 1)[1])))
        elif r.role == "per_node" and r.value.is_integer():
            sizes.add(int(r.value))
    return sizes.pop() if len(sizes) == 1 else None


def nodes_of_said_size(s: str, roles: list[Role], unread: list[str], toks: list[Token]) -> list[Role]:
    """``roles`` with each unread machine count of ``s`` (the normalized text) read as machines × the
    GPUs per machine the roles state (module doc), removed from ``unread`` and ``toks`` (in place)."""
    per = per_node_said(roles)
    if per is None:
        return roles
    from bot.parse.roles import Role

    out = list(roles)
    for tok in list(toks):
        if tok.mag or not NODE_AFTER_RE.match(s, tok.end) or not 1 <= tok.value <= 10_000:
            continue
        out.append(Role("count", tok.value * per, tok, extra=f"per_node:{per}"))
        toks.remove(tok)
        raw = tok.raw.strip()
        if raw in unread:
            unread.remove(raw)
    return out


def machines_in(text: str, unread: list[str]) -> float | None:
    """The one unread machine count of ``text`` ('用4台要多久' → 4.0; ``unread``: the numbers its parse
    left unread, as typed); None when there is none or more than one."""
    from bot.parse.numbers import scan_numbers as scan

    found = [
        t.value
        for t in scan(text)
        if t.raw.strip() in unread and not t.mag and NODE_AFTER_RE.match(text, t.end)
    ]
    return found[0] if len(found) == 1 else None
