"""Users and concurrency in one message: the concurrency is the load (s13 trial N3).

'给 200 人用，大概同时 30 个并发', '200 users, about 30 concurrent', '用户 500 人，峰值并发 50': a number of
users alone is read as the load (the rule reads '40 users' so), but beside a number a concurrency word
gives ('30 个并发', '30 concurrent', '同时在线 30 人') it is the population the service has, not the
sequences run at once. The concurrency is sized; the users are named, reason ``users_not_load``.
"""

from __future__ import annotations

import re
from itertools import compress, repeat
from operator import attrgetter, countOf, eq
from typing import Any

from bot.later_names import unread_reason as withheld_unread_reason
from bot.parse.daily_users import daily_users_as_load
from bot.parse.negated_values import negated
from bot.parse.output_forms import _ORG, _ORG_HEAD, _ORG_ZH
from bot.parse.per_card_load import CARD_WORD_GATE_RE, per_card_aside, read_as_load, target_after_ceiling
from bot.parse.regex import rc
from bot.parse.target_load import loads_now_and_later, target_word_before
from estimator.later import later

(upper_load,) = later("bot.parse.load_range", "upper_load")  # on first call (s48-startup)

_ROLE_OF = attrgetter("role")

USERS_AFTER_RE = rc(
    r"^\s*(?:个|名|位)?\s*(?:(?:active|total|registered|internal|daily)\s+)?(?:users?\b|people\b|employees\b"
    r"|staff\b|members\b|用户|员工|同事|人(?:要|需要|会|都要|想|在)?(?:用|使用)|人(?!同时|在线))"
)
"""Words after a number that count people ('200 人用', '200 users', '500 名员工')."""
USERS_BEFORE_RE = rc(
    r"(?:用户|员工|users?|employees|staff)\s*(?:数|数量|总数|count)?\s*(?:是|为|有|:|=|约|大概)?\s*$"
)
"""Words before a number that count people ('用户 500 人', 'users: 500')."""
LOAD_AFTER_RE = rc(
    r"^\s*(?:个|名|位|路)?\s*(?:并发|concurren|simultaneous|同时|人同时|人在线|人\s*并发|在线|requests?\s+at\s+once|qps\b"
    r"|(?:users?|people|requests?|sessions?)\s+(?:at\s+(?:once|a\s+time|the\s+same\s+time|peak)|concurrently"
    r"|simultaneously|online))"
)
"""Words after a number that make it the load ('30 个并发', '30 concurrent', '30 users at once')."""
LOAD_BEFORE_RE = rc(
    r"(?:并发|同时|在线|concurrency|峰值|peak|at\s+once)\s*(?:数|量|人数)?\s*(?:是|为|约|大概|大约|:|=|of)?\s*$"
)
"""Words before a number that make it the load ('峰值并发 50', '同时 30 人', 'concurrency 30')."""


def _kind(s: str, tok: Any) -> str | None:
    """'load', 'users' or 'target' (users counted after a target word, 'scale up to 64 users': a load,
    :mod:`bot.parse.target_load`) for the number ``tok`` of the normalized text ``s`` (None when its
    words say neither)."""
    left, right = s[max(0, tok.start - 12) : tok.start], s[tok.end : tok.end + 24]
    if LOAD_AFTER_RE.match(right) or LOAD_BEFORE_RE.search(left):
        return "load"
    if USERS_AFTER_RE.match(right) or USERS_BEFORE_RE.search(left):
        return "target" if target_word_before(s, tok.start) else "users"  # 'scale up to 64 users' (s14)
    return None


def users_aside(steps: Any) -> None:
    """Among the numbers read as the concurrency, set aside those that count users when another is the
    load: their role becomes ``users`` (not sized), named with reason ``users_not_load``."""
    found = list(compress(steps.roles, map(eq, map(_ROLE_OF, steps.roles), repeat("concurrency"))))
    kinds = [_kind(steps.s, r.tok) for r in found]
    if "users" not in kinds:
        return
    if "load" not in kinds:  # '300 名员工，同时在线大概 40 人': the 40 has no role of its own yet
        loads = [t for t in getattr(steps, "unread_toks", []) if _kind(steps.s, t) == "load"]
        if len(loads) != 1 or not float(loads[0].value).is_integer() or loads[0].value < 1:
            return
        read_as_load(steps, loads[0])
    lost = steps.__dict__.setdefault("_lost", {})
    for role, kind in zip(found, kinds, strict=True):
        if kind == "users":
            role.role = "users"
            lost[id(role)] = "users_not_load"


EACH_AFTER_RE = rc(r"^[^.。;；?？!！]{0,24}?(?:\beach\b|\bapiece\b|每人|每个人|各自|都要同时|同时)")
"""Words after a head count that give every person a sequence of their own ('5 people, each with …')."""


HEAD_COUNT_RE = rc(
    r"(?<![\d.])(?P<n>\d[\d,]*)\s*(?:个|名|位)?\s*(?:employees|staff|colleagues|co-?workers|people|persons"
    r"|员工|同事|人(?:要|会|都要|在|左右)?(?:用|使用))"
    r"|(?:员工|同事|(?<![a-z])(?:employees|staff))\s*(?:数|人数|总数)?\s*(?:是|为|有|:|=|约|大概)?\s*"
    r"(?P<m>\d[\d,]*)(?![\d.])"  # the head count after its word: '员工 500 人', 'employees: 500' (s30 #7)
    rf"|(?<![\d.])(?P<o>\d[\d,]*)(?:\s*(?:个)?\s*人\s*的?\s*{_ORG_ZH}|[\s\-]*(?:person|people|member|man"
    rf"|employee|staff)[\s\-]+{_ORG}|\s*users?\s+(?:in|at|across|of)\s+(?:our|the|my|this|a|whole)\s+{_ORG})"
    rf"|{_ORG_HEAD}\s*(?:共|一共|总共|大概|大约|约|有|是|:|：)*\s*(?P<p>\d[\d,]*)\s*(?:个)?\s*人(?![工民数次])"
    r"|(?<![a-z])team\s+of\s+(?:about\s+|around\s+|~\s*)?(?P<q>\d[\d,]*)(?![\d.])"  # s33: organisations
)
"""A head count of an organisation as typed ('200 employees', '公司大概200人用'; s33: '200 人的公司', '全公司
300 人', 'a 200-person company', 'a team of 200', '200 users in our company'): never 'users' or '用户' alone,
which people also write for the sequences at once ('how many L40S for 100 users?')."""


def _head_count(raw: str, value: float) -> bool:
    """Whether the text as typed ``raw`` (before the people words became 'users') counts ``value``
    people of an organisation (:data:`HEAD_COUNT_RE`)."""
    return any(
        float(next(filter(None, m.groups())).replace(",", "")) == value
        for m in HEAD_COUNT_RE.finditer(raw.lower())
    )


def load_value(steps: Any) -> float | None:
    """The concurrency the job is sized at (:func:`users_aside` first), or None: a head count with no
    load word ('200 employees', '公司大概200人用', at least :data:`estimator.active_users.MIN_POPULATION`
    people) is the people the service is for, ``users`` (trial s21 #3), its load assumed by the
    estimator (:func:`estimator.active_users.active_sequences`); so are daily active users ('日活1000人',
    :mod:`bot.parse.daily_users`, trial s22 #4) when no concurrency is stated."""
    value = _load_value(steps)
    daily_users_as_load(steps, value or steps.f.get("concurrency"))
    return value


AT_ONCE_RE = rc(r"(?i)同时|在线|并发|\bat\s+once\b|concurren|simultaneous|\bonline\b|\bat\s+a\s+time\b")
"""A load word just after 'N users' ('200 个用户同时在线'): the users are at once, no other reading."""


USERS_TYPED_RE = rc(
    r"(?i)(?<![\d.])(?P<n>\d[\d,]*)\s*(?:个|名|位)?\s*(?:(?:active|total|internal)\s+)?(?:users?\b|用户)"
)
"""'200 users', '200 个用户' as typed (not a load the text was rewritten to, '用户想扩到 80 个')."""


def _users_typed(raw: str, value: float) -> bool:
    """Whether ``raw`` writes ``value`` users right after the number (:data:`USERS_TYPED_RE`)."""
    return any(float(m.group("n").replace(",", "")) == value for m in USERS_TYPED_RE.finditer(raw))


def _load_value(steps: Any) -> float | None:
    """:func:`load_value` before the daily active users."""
    from estimator.active_users import MIN_POPULATION

    if (steps.unread_toks or " of them" in steps.s) and CARD_WORD_GATE_RE.search(
        steps.s
    ):  # 'one L40S handles 40, how many for 200?'
        target_after_ceiling(steps)  # (s30 fixe)
    per_card_aside(steps)  # '单卡能撑 50 … 要支持 200 并发': one card's observed ceiling (s29)
    users_aside(steps)
    loads_now_and_later(steps)  # '现在 20 个并发，峰值 100': the peak (s14)
    if countOf(map(_ROLE_OF, steps.roles), "concurrency") > 1:  # in C: no frame with one load or none
        upper_load(steps)  # '20 to 100 users': the upper end (s43)
    role = steps.first("concurrency")
    if role is None:
        return None
    people = _kind(steps.s, role.tok) == "users" and not EACH_AFTER_RE.match(steps.s, role.tok.end)
    if people and role.value >= MIN_POPULATION and _head_count(steps.raw, role.value):
        steps.f["users"] = int(role.value)
        steps.named_unused.append((role.tok.raw.strip(), "users_active_share"))
        return None
    # '200 users': read as at once, the head-count reading said (README's users rule; s31 left #6)
    if (
        people
        and role.value >= MIN_POPULATION
        and not AT_ONCE_RE.search(steps.s, role.tok.end, role.tok.end + 20)
        and _users_typed(steps.raw, role.value)
    ):
        steps.named_unused.append((role.tok.raw.strip(), "users_at_once"))
    return role.value


_PPO_MODELS_RE = re.compile(r"\s*(?:个\s*)?(?:模型|models?\b)", re.IGNORECASE)
"""After a count in a PPO question: the models PPO holds (actor, critic, reference, reward; Ouyang et al.
2022 §3.5), never an unread number."""


def unread_reason(steps: Any, raw: str, default: str) -> str:
    """:func:`bot.parse.withheld.unread_reason` of an unread number, whose default is ``users_not_load``
    when it counts users ('用户 500 人' beside '峰值并发 50') and a concurrency is sized, ``negated`` for a
    length said not to be needed ('没必要上 32k', :mod:`bot.parse.negated_values`)."""
    toks = [t for t in getattr(steps, "unread_toks", []) if t.raw.strip() == raw]
    if steps.f.get("concurrency") and any(_kind(steps.s, t) == "users" for t in toks):
        default = "users_not_load"
    elif str(steps.f.get("algorithm") or "").endswith("ppo") and any(
        _PPO_MODELS_RE.match(steps.s, t.end) for t in toks
    ):
        default = "ppo_models"  # 'actor/critic/reward/ref 四个模型': PPO's four, counted (trial s23 #18)
    elif any(t.mag == "k" and negated(steps.s, t) for t in toks):
        default = "negated"
    elif "(~" in steps.s and any(_TIMED_AT_RE.match(steps.s, t.end) for t in toks):
        default = "observed"  # s43 fixread2: the time of a timed run, its speed written after it
    elif " by " in steps.s and any(_in_product_note(steps.s, t) for t in toks):
        default = "repeated"  # s43 fixread2: 'batch 1024 (32x32)': the count said again as a product
    elif any(t.mag == "k" and _same_length(steps.f, t.value) for t in toks):
        default = (
            "repeated"  # '131072，也就是 128K', '32768（32k）': the length read, said again in k (round 10)
        )
    return withheld_unread_reason(steps._segments(), getattr(steps, "unread_toks", []), raw, default)


_TIMED_AT_RE = re.compile(
    r"\s*(?:ms|milliseconds?|毫秒|secs?|seconds?|s|秒|mins?|minutes?|分钟)\s*\(~[\s\d.]*(?:tok/s)?\s*\)"
)
"""A time with the speed :func:`bot.parse.timed_rate.timed_rate` wrote after it ('3 秒 (~42.67 tok/s)'; the
rate may be masked already by the reader that named it)."""
_PRODUCT_NOTE_RE = re.compile(r"\((\d{1,4}) by (\d{1,4})\)")
"""The note :data:`bot.parse.written_names.PRODUCT_NOTE_RE` writes after a count ('1024 (32 by 32)'; the
count itself may be masked by the reader that took it, as 'global batch 1024' is)."""


def _in_product_note(s: str, tok: Any) -> bool:
    """Whether ``tok`` is a factor in a count's product note."""
    return any(m.start() <= tok.start < m.end() for m in _PRODUCT_NOTE_RE.finditer(s))


LENGTH_FIELDS = ("max_model_len", "seq_len", "prompt_tokens", "max_completion_length", "tokens_per_sample")


def _same_length(f: dict[str, Any], value: float) -> bool:
    """Whether ``value`` (a number written with 'k', as 1,000 × it) is a length already read, written in
    thousands ('128K' for 131072 = 128 × 1024, '32k' for 32768, '8k' for 8000)."""
    thousands = value / 1000
    return any(
        (v := f.get(k)) and (abs(v - thousands * 1024) < 1 or abs(v - value) < 1) for k in LENGTH_FIELDS
    )
