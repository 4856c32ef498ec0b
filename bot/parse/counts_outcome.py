"""Two card counts, one said to fail and the other to work: the range between them (issue 24, session 26).

People who ran out of memory often say the count that failed and the count that then ran: '用 H100 的两张卡
会 out of memory；指定 4 张卡就能正常跑', 'OOMs on 2 A100s, but runs fine on 4 A100s', '两张 4090 爆显存，
换成四张就没问题'. Both counts are the job's, one on each side of what fits, so the request is sized from
the count that failed up to the one that worked (``gpu_count`` and ``gpu_count_max``, as '4 or 8 L40S' is):
the answer shows why the smaller one failed and that the larger fits. Each count's outcome is read from its
own clause (:func:`bot.parse.worked_value.outcome`: a comma clause, else its sentence). Anything else is
left to the other count readers: one count only, both failed (:mod:`bot.parse.counts_tried`), neither said
to work, or the larger one said to fail ('runs on 8 but OOMs on 16': another job's load, not a lower bound).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.roles import Role

if TYPE_CHECKING:
    from bot.parse.gpus import GpuMention
from bot.parse.worked_value import FAILED_RE, outcome

COUNTS_WORKED = "gpu_counts_worked"
"""ParseResult note: the counts ``gpu_count`` up to ``gpu_count_max`` were tried, the smaller failed and the
largest worked: a row per count with its verdict, in training too (bot.parse.value_list; s49 leftovers #1)."""
WORKED_CUES = re.compile("work|fine|run|ran|succe|ok|正常|起来|能跑|可以|没问题|成功")
"""Literals one of which each success (:data:`bot.parse.worked_value.WORKED_RE`) holds."""
FAILED_CUES = re.compile(
    "oom|fail|error|insufficient|allocate|crash|out of memory|报错|不足|不够|失败|爆|起不来"
)
"""Literals one of which each failure (:data:`bot.parse.worked_value.FAILED_RE`) holds. With
:data:`WORKED_CUES`, the cheap test at the call site before any count is looked at: a C search each, no
Python frame (the parse-call budget, tests/test_parse_render_speed.py)."""


def worked_failed_counts(
    s: str, roles: list[Role], gpus: list[GpuMention]
) -> tuple[int, int, list[Role]] | None:
    """(the count that failed, the larger count that worked, the count roles read) when the message's
    card counts (``roles`` of the normalized text ``s``, only ``count`` ones without a kind) are two values,
    the smaller said to fail in its clause and the larger to work in its own (a repeat of either saying
    neither: 'CUDA_VISIBLE_DEVICES=3,4' read as 2 GPUs), of one card (``gpus``: its mentions, '2 A100 … 4
    A100'; two cards are two setups, not one job's range); else None."""
    if len({g.gpu_id for g in gpus}) > 1:
        return None
    counted = [r for r in roles if r.role == "count" and r.extra is None]
    if not 2 <= len({r.value for r in counted}) <= 4 or not FAILED_RE.search(s):
        return None
    said: dict[str, set[float]] = {}
    for r in counted:
        said.setdefault(outcome(s, r.tok.start) or "", set()).add(r.value)
    failed, worked = said.get("failed", set()), said.get("worked", set())
    worked = {w for w in worked if w > max(failed, default=0)}  # s35: one smaller that ran is another setup's
    if not failed or len(worked) != 1 or not said.get("", set()) <= failed | said.get("worked", set()):
        return None
    lo, hi = min(failed), min(worked)  # s35 round 31: several counts failed ('1 card failed, 2 cards
    if not (max(failed) < hi and lo.is_integer() and hi.is_integer()):  # failed, 4 cards succeeded')
        return None
    return int(lo), int(hi), counted
