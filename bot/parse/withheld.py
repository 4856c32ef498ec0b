"""Why a number the message's structure (:mod:`bot.parse.structure`) keeps from the job is not used (split
off it, session 39): a role withheld from a tried or observed segment, a tokens/s rate measured rather than
wanted, a figure of another model of an RL run (its reward or reference model).
"""

from __future__ import annotations

import re
from typing import Any

from bot.parse.cue_words import MEASURED, RATE_RUN
from bot.parse.model_paths import helper_at
from bot.parse.regex import rc
from bot.parse.structure import (
    JOB,
    OBSERVED,
    TRIED,
    Segment,
    _observed_or_other,
    measured,
    role_at,
    segment_at,
    segments,
)
from bot.parse.throughput_words import ASKED_RE, asked_yes_no, gpus_each_rate, per_user_rate


def withheld_reason(segs: list[Segment], tok: Any) -> str | None:
    """Why the number ``tok`` that no field uses is not the job's (review findings 6 and 16): ``observed``
    in an observed clause or as the figure an observed cue reports ('it uses 60GB at batch 8'),
    ``other_setup`` in another setup's clause ('my colleague ran it on 2 A100s'); None elsewhere."""
    where = role_at(segs, tok.start)
    if where == OBSERVED or (where != JOB and measured(segs, tok)):
        return _observed_or_other(segs, tok, where)
    return "other_setup" if where == TRIED and not _bound(segs, tok) else None


BOUND_BEFORE_RE = rc(
    r"(?i)(?:(?:less|fewer|more|lower|higher)\s+than|below|under|above|over|at\s+(?:most|least)|up\s+to"
    r"|小于|大于|低于|高于|不超过|不到|至多|最多|至少|最少)\s*$"
)
"""A bound said right before a number ('sequence length less than 512 works', 'batch 小于 8 可以')."""
BOUND_NEAR = 16
"""Characters before a number searched for its bound."""


def _bound(segs: list[Segment], tok: Any) -> bool:
    """Whether the number ``tok`` is said as a bound ('less than 512 works'): a limit of this job, no value
    of another setup, so it stays ``unread`` (s19-fxe: s19-audit's 'a value said to work' cue had named it
    ``other_setup``)."""
    seg = segment_at(segs, tok.start)
    return seg is not None and bool(
        BOUND_BEFORE_RE.search(seg._s[max(seg.start, tok.start - BOUND_NEAR) : tok.start])
    )


def role_reason(parse: Any, role: Any) -> str | None:
    """Why the number of ``role`` that ``parse`` (:class:`bot.parse.field_steps.FieldSteps`) does not use
    is not the job's, when its value differs from the one its field used: :func:`withheld_reason` ('同事用
    2 张 A100 …。我想用 8 张 H100': the colleague's 2 is ``other_setup``, not ``repeated``)."""
    mine = {r.value for r in parse.roles if id(r) in parse.used and r.role == role.role}
    if role.value in mine:  # the same value said again in another setup's clause: that setup's (s12 B7)
        return "other_setup" if role_at(parse._segments(), role.tok.start) == TRIED else None
    return withheld_reason(parse._segments(), role.tok)


def unread_reason(segs: list[Segment], toks: list[Any], raw: str, default: str) -> str:
    """``default`` ('unread'), or why the unread number typed ``raw`` (its token among ``toks``) is another
    setup's or an observed figure (:func:`withheld_reason`; review finding 16)."""
    tok = next((t for t in toks if t.raw.strip() == raw), None)
    return (default == "unread" and tok is not None and withheld_reason(segs, tok)) or default


MEASURED_RE = rc(rf"(?:{MEASURED}|{RATE_RUN})")
"""What makes a rate measured (:data:`bot.parse.cue_words.MEASURED`, and a Chinese run with its rate)."""
RATE_NEAR = 24
"""Characters before a rate searched for a measuring word (as :func:`bot.parse.settings._throughput`)."""
RANGE_START_RE = rc(r"\d+(?:\.\d+)?\s*(?:–|—|-|~|to)\s*$")
"""The first end of a range of rates ('about 30–35 tok/s'): the words before it are the rate's (round 22)."""


def rate_not_target(s: str, m: re.Match[str]) -> str | None:
    """Why a tokens/s rate ``m`` of ``s`` is no serving target, or None when it is one: a rate per user
    ('per_user_speed'), or a speed reported as measured ('observed'): a measuring word right before it
    in its own clause ('generation reaches 900 tokens/s', '跑到每秒 1200 token', '单卡跑 14B 每秒 35 个
    token'), in a clause that states no job ('the service must hit 2000 tokens/s' is the target). The
    rate's unit alone is no cue (review finding 1)."""
    if per_user_rate(s, m.start(), m.end()):
        return "per_user_speed"
    if gpus_each_rate(s, m.start(), m.end()):  # 'our 8 H100s do 3000 tokens/s each': each GPU's (s41)
        return OBSERVED
    seg = segment_at(segments(s), m.start())
    if seg is None:
        return None
    from bot.parse.rate_words import BENCHMARK_RE, WANTED_RE, measured_at_load  # session 13 review 2

    near = RANGE_START_RE.sub("", s[max(seg.start, m.start() - RATE_NEAR) : m.start()])  # '30–35 tok/s': r22
    said = [x.end() for x in BENCHMARK_RE.finditer(near)]  # 'the benchmark shows', '压测结果' (s13 review 2)
    if said and seg.own_role != JOB and not WANTED_RE.search(near, said[-1]):
        return OBSERVED
    if seg.own_role != JOB and not WANTED_RE.search(near) and measured_at_load(s, m.end()):
        return OBSERVED  # '900 tokens/s at 16 users. We expect 100 users': what 16 users gave
    if seg.role == JOB:
        return None
    asked = ASKED_RE.search(near) or asked_yes_no(s, m.start(), m.end())  # s34: 怎么才能达到; r35: 能…吗
    return OBSERVED if MEASURED_RE.search(near) and not asked else None


_RL_PART = r"(?:reward|critic|reference|ref|value|prm|orm|奖励|价值|参考|评论家|打分)"
RL_PART_AFTER_RE = rc(
    rf"(?i)\s*(?:的\s*)?(?:模型\s*)?(?:(?:做|作为|当作?|用作|用于|来做|as\s+(?:the\s+|a\s+|our\s+)?)\s*)?{_RL_PART}"
)
"""After a model named in an RL job: '7B 做 reward', 'a 7B reward model', '7B as the critic'. Each optional
word takes the spaces after it (the same texts as ``\\s*(?:的)?\\s*(?:模型)?\\s*(?:做…)?\\s*``, whose four
adjacent ``\\s*`` split a run of n spaces n³ ways before failing: 1.9 s on a 600-character paste)."""
RL_PART_BEFORE_RE = rc(
    rf"(?i){_RL_PART}\s*(?:models?|模型)?\s*(?:[:=：]|is|of|用|使用|采用|选|为|是|就用)?\s*(?:an?\s+|the\s+)?$"
)
"""Before it: 'reward model 7B', 'critic 用 7B', 'reward model: Qwen2.5-7B', '奖励模型用 Qwen2.5-7B'."""
RL_PART_NEAR = 24
"""Characters searched before a model's name for the part it plays."""


def other_model_reason(s: str, c: Any) -> str:
    """Why a model named in ``s`` (normalized text; ``c`` a ``bot.parse.asked_model.Candidate``, its
    mention or size said alone) is not the one sized: a reward, critic or
    reference model of the same RL job ('Qwen2.5-14B 做 actor，7B 做 reward', 'actor 70B, reward model 7B',
    'critic 用 7B'; session 13, trial s12 A13) is part of this job, which the estimate sizes at the actor's
    size (``rl_reward_model_not_sized``); any other is another setup's (``other_setup``)."""
    start = c.start
    end = c.mention.end if c.mention is not None else c.role.tok.end if c.role is not None else start
    before = s[max(0, start - RL_PART_NEAR) : start]
    if RL_PART_AFTER_RE.match(s, end) or RL_PART_BEFORE_RE.search(before) or helper_at(s, start):
        return "rl_reward_model_not_sized"  # s21: or in a helper's path ('--prm_model_name_or_path …')
    return "other_setup"
