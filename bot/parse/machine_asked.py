"""Two machines in one message, a question about one of them (s16 fix part, item 6): '我笔记本是
RTX 4060 8G，服务器是4张A100，在笔记本上能跑7B推理吗', 'my laptop has an RTX 4060 8GB and the server 4x A100;
can the laptop run 7B inference?'. The count rules read the server's cards as the job's and the laptop's card
as an option to compare; the question asks about the laptop. The machine asked about is sized (its card, its
count — one for a laptop — and its memory as stated), and the other is named as another setup, not used
(``other_setup``): nothing swapped silently (docs/design.md §8).
"""

from __future__ import annotations

import re

from bot.parse.message import parse_one
from bot.parse.result import ParseResult

_LAPTOP = r"(?:笔记本|游戏本)(?:电脑)?|\blaptop\b|\bnotebook\b"
_OTHER = r"服务器|台式机|工作站|主机|\b(?:server|desktop|workstation|rig|pc)\b"
_MACHINE_RE = re.compile(rf"{_LAPTOP}|{_OTHER}", re.IGNORECASE)
LAPTOP_RE = re.compile(_LAPTOP, re.IGNORECASE)
_END_RE = re.compile(r"[，,；;。！？!?\n]|\.(?=\s)|\band\b|\bbut\b|还有|而|但", re.IGNORECASE)
_VERB = (
    r"(?:能|可以|能不能|可不可以|够不够|够)?\s*(?:跑|运行|部署|推理|训练|微调|跑得动|带得动|放得下|装得下)"
)
_CAN = r"\b(?:can|could|will|would|does|is)\s+(?:the|my|this|our)\s+"


def _asks(machine: str) -> re.Pattern[str]:
    """A question about ``machine`` (a pattern of its words): '在笔记本上能跑', '笔记本能跑', 'can the laptop
    run', 'on the laptop'."""
    return re.compile(
        rf"(?:在|用)\s*(?:我的?|这台)?\s*(?:{machine})\s*上?\s*{_VERB}|(?:{machine})\s*上?\s*{_VERB}"
        rf"|{_CAN}(?:{machine})|\bon\s+(?:the|my|this|our)\s+(?:{machine})",
        re.IGNORECASE,
    )


_ASKS_LAPTOP_RE = _asks(_LAPTOP)
_ASKS_OTHER_RE = _asks(_OTHER)


def _segments(text: str) -> tuple[str, str] | None:
    """The laptop's and the other machine's words as written ('我笔记本是RTX 4060 8G', '服务器是4张A100',
    'a server with 8x H100'): the first clause naming each machine and a card (clauses end at a stop, a
    comma or 'and'), else from the machine's word to the next machine word; None unless both are found."""
    found: dict[bool, str] = {}
    for clause in _END_RE.split(text):
        kinds = {bool(LAPTOP_RE.fullmatch(m.group(0))) for m in _MACHINE_RE.finditer(clause)}
        if len(kinds) == 1 and (kind := kinds.pop()) not in found and parse_one(clause).request.gpu:
            found[kind] = clause.strip()
    for m in _MACHINE_RE.finditer(text):
        laptop = bool(LAPTOP_RE.fullmatch(m.group(0)))
        if laptop in found:
            continue
        rest = text[m.end() :]
        stops = [x.start() for x in (_END_RE.search(rest), _MACHINE_RE.search(rest)) if x is not None]
        found[laptop] = text[m.start() : m.end() + min(stops, default=len(rest))].strip()
    return (found[True], found[False]) if len(found) == 2 else None


def _outside(unused: list[tuple[str, str]], aside: str) -> list[tuple[str, str]]:
    """``unused`` less the numbers the machine not asked about states ('8' of 'a server with 8x A100'): that
    machine is named as not sized, its count is not a number left unread (session 17, s17-fix item 5)."""
    return [u for u in unused if not re.search(rf"(?<![\d.]){re.escape(u[0])}(?![\d.])", aside)]


def with_machine_asked(parsed: ParseResult, text: str) -> ParseResult:
    """``parsed`` sized on the machine the question asks about, the other machine named as
    ``other_setup``; unchanged (the same object) unless the message names a laptop and another machine,
    each with a card, and asks about exactly one of them."""
    if not LAPTOP_RE.search(text):
        return parsed
    asks_laptop, asks_other = bool(_ASKS_LAPTOP_RE.search(text)), bool(_ASKS_OTHER_RE.search(text))
    segments = _segments(text)
    if asks_laptop == asks_other or segments is None:
        return parsed
    laptop, other = (parse_one(s).request for s in segments)
    if not laptop.gpu or not other.gpu or laptop.gpu == other.gpu:
        return parsed
    asked, aside = (laptop, segments[1]) if asks_laptop else (other, segments[0])
    unused = other if asks_laptop else laptop
    req = parsed.request
    update = {
        "gpu": asked.gpu,
        "gpu_count": 1 if asks_laptop else (asked.gpu_count or req.gpu_count),
        "gpu_memory_gib": asked.gpu_memory_gib,
    }
    alternatives = [  # nor the laptop's card as the whole message read it, the desktop part (s21 fxa)
        g
        for g in parsed.gpu_alternatives
        if g not in (asked.gpu, unused.gpu) and not asked.gpu.startswith(f"{g}-Laptop")
    ]
    counts = {g: n for g, n in parsed.gpu_alternative_counts.items() if g in alternatives}
    found = sorted({*parsed.found, "gpu", "gpu_count"})
    return parsed.model_copy(
        update={
            "request": req.model_copy(update=update),
            "gpu_alternatives": alternatives,
            "gpu_alternative_counts": counts,
            "unused_numbers": [*_outside(parsed.unused_numbers, aside), (aside, "other_setup")],
            "found": found,
        }
    )
