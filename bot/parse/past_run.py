"""A finished run's days are how long it ran, not a deadline (trial s14 #4).

'We ran a 7B pretrain on 200B tokens on 64 H100 for 3 days, what did it cost?' read 3 days as the
deadline ("Not within 3 days: … needs ≈ 160 GPUs"). A duration after a past-run verb in its own clause
('ran … for 3 days', 'it took 3 days', '跑了 3 天', '用了 3 天', '训练了 3 天') is what that run took:
the job's known duration (``SizingRequest.hours``), so the cost is the stated GPUs × those hours and
the estimator names the MFU the run implies (:mod:`estimator.duration_check`), as '8 卡跑了 36 小时，
花了多少钱' already was (:mod:`bot.parse.run_durations`). When the message also asks how long, or keeps
a deadline of its own ('3 天内'), the run's days are an observation of that run: named (``observed``),
not sized. An earlier or another setup's run ('上次…用了 3 天，这次 13B 要几天') is named by
:func:`bot.parse.earlier_counts.other_durations` before this reads.

Rental periods ('8张H100跑一周多少钱', 'rent 8 H100 for 7 days, cost?') are the other duration read as
GPU-hours rather than a deadline (:func:`duration_as_hours`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.parse.earlier_counts import UNIT_RE
from bot.parse.regex import rc
from bot.parse.words import ASKS_COST_RE, ASKS_DURATION_RE, RENT_RE

if TYPE_CHECKING:
    from bot.parse.roles import Role

PAST_VERB_RE = rc(
    r"跑了|用了|花了|耗时|耗了|训了|训练了|练了|跑完用了"
    r"|\b(?:ran|took|trained|lasted|spent|finished|completed|pretrained|pre-trained|fine-tuned|finetuned)\b"
    r"|\bwas\s+(?:done|finished|trained)\b"
)
"""A past-run verb ('ran', 'took', 'trained', '跑了', '用了', '花了'): what a run did (the gate)."""
_RUN_VERB_RE = rc(
    r"跑了|训了|训练了|练了|跑完用了"
    r"|\b(?:ran(?!\s+out)|trained|pretrained|pre-trained|fine-tuned|finetuned|was\s+(?:done|finished|trained))\b"
)
"""A verb that says a run happened anywhere in the duration's clause ('We ran a 7B pretrain … for 3 days',
'64 张 H100 训练了 3 天 7B'); not 'ran out' (of memory)."""
_VERB_BEFORE_RE = rc(
    r"(?:跑了|用了|花了|耗时|耗了|训了|训练了|练了|跑完用了|\btook|\blasted|\bspent|\bran\s+for|\btrained\s+for"
    r"|\bfinished\s+in|\bcompleted\s+in|\bdone\s+in)"
    r"\s*(?:about|around|roughly|nearly|almost|over|~|约|大约|大概|差不多|将近|近)?\s*$"
)
"""A past-run verb right before the duration ('用了 3 天', '花了 3 天', 'took 3 days', 'spent ~60 days'):
'用了' and '花了' say a run only there ('我用了 64 张 H100，3 天能训完吗' uses the cards)."""
_CLAUSE_END_RE = rc(r"[。！？!?;；,，\n]|\.(?:\s|$)|\b(?:and|but|then|now|so)\b|然后|现在|但")
"""Where a clause ends: the past verb must be in the duration's own clause."""
_DEADLINE_AROUND_RE = rc(r"(?:within|in|under|by)\s*$|(?:要在|在|需|需要|得)\s*$")
_DEADLINE_AFTER_RE = rc(
    r"\s*(?:个\s*)?(?:(?:天|days?|周|weeks?|月|months?)\s*)?(?:内|以内|之内|能|可以|够|来得及)"
)
"""A deadline said after the duration ('3 天内', '3 天能训完吗')."""
_WANTED_RE = rc(
    r"\b(?:need|needs|want|wants|must|have\s+to|has\s+to|should|would\s+like|plan|planning|hope|goal|budget)\b"
    r"|需要|想要|想|希望|打算|计划|必须|得在|要求"
)
"""A wish in the duration's clause: what the job may take (a deadline), not what a run took."""
_AT_MOST_AFTER_RE = rc(
    r"\s*(?:天|days?|周|weeks?|hours?|小时)?\s*(?:max(?:imum)?\b|at\s+most|tops\b|最多|以内|封顶)"
)
"""'3 days max', '3 天最多': a bound after the duration."""
PAST_RUN = "past_run"
"""``Role.extra`` of a days role that is the run's own duration."""


def _past_run(s: str, role: Role) -> bool:
    """Whether the days ``role`` of ``s`` follows a past-run verb in its own clause, not as a deadline."""
    start = role.tok.start
    clause = s[:start]
    ends = list(_CLAUSE_END_RE.finditer(clause))
    clause = clause[ends[-1].end() :] if ends else clause
    if _DEADLINE_AROUND_RE.search(clause) or _DEADLINE_AFTER_RE.match(s, role.tok.end):
        return False
    if _WANTED_RE.search(clause) or _AT_MOST_AFTER_RE.match(s, role.tok.end):  # 'I need a 7B trained for
        return False  # 3 days max': a wish, the deadline (review s14: read as a run, sized on 1 GPU)
    return _VERB_BEFORE_RE.search(clause) is not None or _RUN_VERB_RE.search(clause) is not None


def _typed(s: str, role: Role) -> str:
    """The duration as typed with its unit word ('3 天', '3 days')."""
    unit = UNIT_RE.match(s, role.tok.end)
    return s[role.tok.start : unit.end() if unit else role.tok.end].strip()


_EFFORT_BEFORE_RE = rc(
    r"(?:研究|折腾|捣鼓|琢磨|摸索|调试|排查|尝试|试|搞|弄|查|找)了\s*(?:整整|快|大概|差不多|将近|好)?\s*$"
    r"|\b(?:spent|wasted)\s+(?:about|around|nearly|almost|over)?\s*$"
)
"""Round 36 zh: the asker's own effort before a duration ('研究了两天本地运行 Int8 版本', '折腾了三天',
'spent 2 days trying to …'): time the person spent, neither a deadline nor a run of the GPUs."""
_EFFORT_AFTER_RE = rc(r"\s*(?:天|days?)\s+(?:trying|debugging|fiddling|struggling|fighting|searching)\b")


def _effort(s: str, role: Role) -> bool:
    """Whether the days ``role`` of ``s`` is the asker's own effort (:data:`_EFFORT_BEFORE_RE`)."""
    if _EFFORT_BEFORE_RE.search(s, max(0, role.tok.start - 12), role.tok.start):
        return True
    before = s[max(0, role.tok.start - 12) : role.tok.start]
    return bool(_EFFORT_AFTER_RE.match(s, role.tok.end)) and "spent" in before


def past_run_days(s: str, roles: list[Role]) -> tuple[list[Role], list[tuple[str, str]]]:
    """``roles`` with a past run's days marked (``extra`` :data:`PAST_RUN`), or left out and named as typed
    (``observed``) when the message asks how long or states another duration (module doc). ``s``: the
    normalized text the roles were read on. Days of the asker's own effort ('研究了两天') are left out and
    named (``observed``) first (round 36 zh)."""
    days = [r for r in roles if r.role == "days"]
    if days and ("了" in s or "spent" in s or "wasted" in s):
        effort = [r for r in days if _effort(s, r)]
        if effort:
            rest, named = past_run_days(s, [r for r in roles if r not in effort])
            return rest, [(_typed(s, r), "observed") for r in effort] + named
    if not days or PAST_VERB_RE.search(s) is None:  # most messages: no duration or no past verb
        return roles, []
    if not any(r.role == "count" for r in roles):  # a run's cost needs its cards: without, the days stay a
        return roles, []  # deadline ('a 7B trained in 3 days on H100s': count sized, cost the same GPU-hours)
    past = [r for r in days if _past_run(s, r)]
    if not past:
        return roles, []
    if ASKS_DURATION_RE.search(s) or len(past) < len(days):
        return [r for r in roles if r not in past], [(_typed(s, r), "observed") for r in past]
    for r in past:
        r.extra = PAST_RUN
    return roles, []


QUOTE_RE = rc(r"\bquot(?:e|es|ation)\b|报价|询价")
"""A quote asked ('Quote 8 H100 for a month to serve 70B', '报价：8张H100一个月'): a price, so the period is
the rental's (s45 review item 10: 'for a month' stayed a deadline, named 'a training setting' on a serving
question)."""


BUDGET_ASKED_RE = rc(
    r"预算\s*(?:大概|大约|一共|总共|总计|要|需要|得|应该|是|估计)*\s*(?:多少|几何|多大|怎么[算估])"
    r"|(?:多少|多大)\s*的?\s*预算|预算\s*[?？]"
    r"|\bbudget\s*(?:\?|needed\b|required\b|(?:do|would|should|will)\b)"
    r"|\b(?:what|which|how\s+much)\s+(?:[a-z\-]+\s+){0,2}budget\b"
)
"""A budget asked, not stated ('三年预算多少', '要多少预算', 'for three years: budget?', 'what 3-year
budget do we need'): the cost of the period asked, so a period beside it on a serving question is the
rental's (trial s48b #1: '…三年预算多少' named the 3 years 'a training setting' and gave no 3-year cost)."""


def _quoted(s: str) -> bool:
    """:data:`QUOTE_RE`'s cheap gate: its words' letters, tested with ``in``."""
    return "quot" in s or "报价" in s or "询价" in s


def duration_as_hours(f: dict[str, Any], s: str, roles: list[Role]) -> str | None:
    """Move ``f['deadline_days']`` to ``f['hours']`` when it is a duration the GPUs ran, not a deadline: a
    past run's days (module doc: 'past_run_duration'), or a rental period with a cost asked and nothing
    to train ('8张H100跑一周多少钱', 'rent 8 H100 for 7 days, cost?', 'quote 8 H100 for a month':
    'period_as_rental'; with a model to train, '租8张H100一周能训多少token，7B模型', the period stays the
    job's deadline). Returns the note."""
    if not f.get("deadline_days") or f.get("hours"):
        return None
    if any(r.role == "days" and r.extra == PAST_RUN for r in roles):
        note = "past_run_duration"
    elif (
        (
            ASKS_COST_RE.search(s)
            or RENT_RE.search(s)
            or (_quoted(s) and QUOTE_RE.search(s))
            or (("预算" in s or "budget" in s) and BUDGET_ASKED_RE.search(s))  # in C: no frame (speed pin)
        )
        and not any(f.get(k) for k in ("tokens", "num_samples", "budget"))
        and not ((f.get("model") or f.get("params_total")) and f.get("stage") != "inference")
    ):
        note = "period_as_rental"
    else:
        return None
    f["hours"], f["deadline_days"] = f["deadline_days"] * 24, None
    return note
