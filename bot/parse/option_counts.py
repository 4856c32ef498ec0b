"""Each compared option's own GPU count ('8x H100 or 16x A100 40GB', '用 16 张 910B 还是 32 张 A800',
'A800 32张 和 H800 16张 哪个快', 'team A … 16x H100 …, team B on 32x A100').

A question that weighs two cards, each with its count, states two setups, not two values of one
setting: each count belongs to its card (trial s12 A6: the second count was named 'a second value for the
same setting' and the first card's count was moved onto the other card). The headline sizes the first
option written at its count; each other card is sized at its own (``ParseResult.gpu_alternative_counts``,
:func:`bot.core.pipeline.on_gpu`).

A count counts a card when it is written right before it ('8x H100', '16 张 910B', '32x A100 40GB') or
right after it ('H100 x8', 'A800 32张'); a count written before a card wins over one after another
('8x H100 16x A100': the 16 counts the A100). The rule applies only where the message compares (the cue
words below, defined here: :mod:`bot.parse.cue_words` belongs to another part) and no sentence asks
about one card of the two (:func:`bot.parse.asked_model.asked_card`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.parse.regex import rc

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention
    from bot.parse.role_dispatch import Role

COMPARE_CUE_RE = rc(
    r"\bor\b|\bvs\.?(?![a-z])|\bversus\b|\bcompar(?:e|es|ed|ing|ison)\b|\bwhich\b|\boptions?\b|\bteam\s+[ab]\b"
    r"|还是|或者|或是|哪个|哪一个|哪种|哪套|对比|比较|相比|方案|选哪"
)
"""Words that weigh options ('8x H100 or 16x A100', 'which finishes first', '用 910B 还是 A800', '哪个快')."""
EACH_OPTION_RE = rc(
    r"分别|各自|两种配置|两套配置|两种方案|\bfor\s+each\b|\beach\s+(?:setup|option|config(?:uration)?)\b"
)
"""Words that ask about each of several setups ('4 × H800 …，8 × 4090 …，两种配置分别要训多少天', 'how
many days for each'; s46 round 42 zh, zh42-033: the 4090 was sized at the H800's 4): options when two
different cards are named, each with its own count."""
ASKS_CHOICE_RE = rc(
    r"\bwhich\b|\bbetter\b|\bbest\b|\bfaster\b|\bfastest\b|\bsooner\b|\bquicker\b|\bfinish(?:es)?\s+first\b"
    r"|\bprefer|\bchoose\b|\brecommend|哪个|哪一个|哪种|哪套|还是|选哪|更快|最快|先训完|先跑完|先完成|更好|划算|推荐|怎么选"
)
"""The question asks which option to take or which finishes first ('which is better', '哪个快', '还是'): the
reply answers it from the rows, days side by side (``asks_choice``: :func:`bot.render.compare.first_line`)."""

ASKS_COST_RE = rc(r"cheap|\bcosts?\b|\bprice|便宜|省钱|划算|成本|花费|多少钱")
ASKS_TIME_RE = rc(
    r"\bfirst\b|fast|sooner|quick|\bbetter\b|\bbest\b|how\s+long|\bdays?\b|快|早|更好|多久|时间|几天"
)
"""A choice asked only by cost ('which is cheaper', '哪个便宜') is answered by the cheapest line alone; the
days side by side when the question also asks time or which is better."""

_BEFORE_RE = rc(
    r"^\s*(?:(?:台|机|个节点|节点|nodes?\s+of|servers?\s+of|machines?\s+of|boxes\s+of|box\s+of)\s*\d{1,2}\s*)?"
    r"(?:[x×*]|张|块|卡|台|片|gpus?|cards?)?\s*(?:的)?\s*$"
)
"""What may stand between a count and the card it counts written after it ('8x ', '16 张 ', '4 块 ', a
node count's '台 8 卡 ', ' nodes of 8x ')."""
_AFTER_RE = rc(r"^\s*(?:[x×*]\s*)?$")
"""What may stand between a card and its count written after it ('H100 x8', 'A800 32张')."""


def _mask_end(s: str, start: int) -> int:
    """The end of the masked card name at ``start`` (the mask is spaces)."""
    end = start
    while end < len(s) and s[end] in " \ue000":
        end += 1
    return end


def own_counts(s: str, gpus: list[GpuMention], counts: list[Role]) -> dict[int, Role] | None:
    """The count of each card mention (by index in ``gpus``) when every distinct card named has its
    own count; None when one has none or a count counts no card (then the setups are not options)."""
    ends = [_mask_end(s, g.start) for g in gpus]
    out: dict[int, Role] = {}
    for r in counts:
        at, end = r.tok.start, r.tok.end
        # s38: 'one server with 8 RTX 4090' (machines × per node): placed by the per-node count
        if r.extra and r.extra.startswith("per_node:"):  # s38: the 8 by its card
            k = s.find(r.extra[9:], end, end + 40)
            at, end = (k, k + len(r.extra) - 9) if k >= 0 else (at, end)
        starts = [g.start for g in gpus]
        before = [i for i, g in enumerate(starts) if 0 <= g - end <= 16 and _BEFORE_RE.search(s[end:g])]
        after = [i for i, e in enumerate(ends) if e <= at and _AFTER_RE.search(s[e:at])]
        hit = before[0] if before else (after[-1] if after else None)
        if hit is None or hit in out:
            return None
        out[hit] = r
    ids = {g.gpu_id for g in gpus}
    counted = {gpus[i].gpu_id for i in out}
    values: dict[str, set[float]] = {}
    for i, r in out.items():
        values.setdefault(gpus[i].gpu_id, set()).add(r.value)
    if counted != ids or any(len(v) > 1 for v in values.values()):
        return None
    return out


def option_counts(p: Any, chosen: GpuMention, gpus: list[GpuMention], count: Role | None, other: object):
    """``(card, count)`` for the headline, and each other card's own count kept on the parse
    (``p._option_counts``, by GPU id), when the message compares cards each with its own count: the
    first card written, at its count; all the counts used. Otherwise — and when ``other`` is truthy: a
    sentence asks about one card, or the structure found the other card another setup's ('Compared to
    2 A6000s that I have now, … on 4 A100', :func:`bot.parse.structure.job_card`) — the parse's own
    reading (:meth:`bot.parse.gpu_field_steps.GpuFieldSteps._count_of`)."""
    counts = [r for r in p.roles if r.role == "count"]
    cards = len({g.gpu_id for g in gpus})
    weighs = COMPARE_CUE_RE.search(p.s) or (cards > 1 and EACH_OPTION_RE.search(p.s))
    if not other and not weighs and (own := own_counts(p.s, gpus, counts)):
        from bot.parse.two_machines import two_machines  # two machines of different cards (s32)

        if (machine := two_machines(p, gpus, own)) is not None:
            return machine
    own = None if other or not weighs else own_counts(p.s, gpus, counts)
    if not own:
        if 1 < cards <= len(counts) and not other and (mine := own_counts(p.s, gpus, counts)):  # s47 drop #3
            other_cards(p, chosen, gpus, mine)
        return chosen, p._count_of(chosen, gpus, count)
    first = min(own, key=lambda i: gpus[i].start)
    p.used.update(id(r) for r in own.values())
    sized = gpus[first].gpu_id
    p._option_counts = {gpus[i].gpu_id: round(r.value) for i, r in own.items() if gpus[i].gpu_id != sized}
    asks = ASKS_CHOICE_RE.search(p.s) and (ASKS_TIME_RE.search(p.s) or not ASKS_COST_RE.search(p.s))
    p.notes += ["option_counts", *(["asks_choice"] if asks else [])]
    return gpus[first], own[first]


def other_cards(p: Any, chosen: GpuMention, gpus: list[GpuMention], own: dict[int, Role]) -> None:
    """Each card other than ``chosen`` kept at its own count (``p._option_counts``) when every card said has
    one but the message weighs no options ('the recipe says 4x H200, and a new config serves it on 2x
    B200', '论文用 8 张 A100，我们想用 4 张 H800'; s47 drop #3): the other card's row is sized at the count
    said with it, never at the headline's, and that count is used (before, it was named ``other_setup``
    while the row showed the headline's count)."""
    rest = {gpus[i].gpu_id: r for i, r in own.items() if gpus[i].gpu_id != chosen.gpu_id}
    p._option_counts = {g: round(r.value) for g, r in rest.items()}
    p.used.update(id(r) for r in rest.values())
