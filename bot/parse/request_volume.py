"""A service's request volume and tokens per request (s35 fix c item 2).

'部署qwen3-8b给客服用，每天大概1万次对话' named “1万” as unread and sized the default 16 sequences;
'平均每次2000 token' was unread too. A daily or hourly count of requests (conversations, calls,
queries) — '每天1万次对话', '日均5000个请求', '每小时500个请求', '10k requests a day', '500 requests per
hour', '20,000 conversations daily' — becomes the request's ``requests_per_day`` / ``requests_per_hour``,
and the tokens of each — '平均每次2000 token', '每次对话约2k tokens', '~2k tokens per conversation' —
``tokens_per_request``. The estimator turns them into the load (:mod:`estimator.request_volume`,
Little's law). Read and masked before the numbers get roles, behind the caller's gate (its words)."""

from __future__ import annotations

import re

from bot.parse.normalize import mask
from bot.parse.regex import rc

_N = r"(?P<{g}>\d[\d,]*(?:\.\d+)?)\s*(?P<{g}m>万|千|k(?![a-z])|m(?![a-z])|thousand\b|million\b)?"
_ZH_THINGS = (
    r"(?:次|个|条|通|轮|场)?\s*(?:对话|会话|请求|调用|访问|问答|咨询|提问|询问"
    r"|query|queries|requests?|calls?)"
)
_EN_THINGS = r"(?:requests?|conversations?|chats?|queries|query|calls?|sessions?|questions?|prompts?)"
VOLUME_RE = rc(
    r"(?P<zp>每天|每日|日均|一天|每小时|每个小时|daily)\s*(?:大概|大约|约|平均|有|能有|会有|要处理|处理|接待|需要处理)?\s*"
    + r"(?P<zv>问|提问|发起?|调用|请求|咨询|对话)?\s*"
    + _N.format(g="z")
    + r"\s*(?:多)?\s*(?:"
    + _ZH_THINGS
    + r"|(?(zv)次|(?!)))"
    + r"|(?<![\w.])~?\s*"
    + _N.format(g="e")
    + r"\s*"
    + _EN_THINGS
    + r"\s*(?P<ep>(?:per|a|an|each|every)\s+(?:day|hour)\b|daily\b|/\s*(?:day|hour|h)\b|hourly\b)"
)
"""A count of requests per day or hour, as normalized (lower case)."""
TOKENS_RE = rc(
    r"(?:平均)?\s*每(?:次|个|条|轮)?\s*(?:对话|会话|请求|调用|问答)?\s*(?:平均|大概|大约|约)?\s*"
    + _N.format(g="z")
    + r"\s*(?:个)?\s*tokens?"
    + r"|(?<![\w.])~?\s*"
    + _N.format(g="e")
    + r"\s*tokens?\s*(?:per|each|a|an|every)\s+"
    + r"(?:request|conversation|chat|query|call|session|question|prompt|reply|response)\b"
)
"""Tokens per request, as normalized: '平均每次2000 token', '每次对话约2k tokens', '2k tokens per request'."""
_TN = (
    r"(?P<{g}>\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<{g}m>万|亿|千|k(?![a-z])|m(?![a-z])|b(?![a-z])|thousand\b|million\b|billion\b|mil\b|bn\b)?"
)
TOKEN_VOLUME_RE = rc(
    r"(?P<zp>每天|每日|日均|一天|每小时|每个小时)\s*(?:大概|大约|约|平均|要|需要|得|能|会)?\s*"
    r"(?:处理|生成|推理|输出|跑|消耗|产生|过|调用)?\s*(?:大概|大约|约|差不多)?\s*"
    + _TN.format(g="z")
    + r"\s*(?:个)?\s*(?:tokens?|词元)"
    + r"|(?<![\w.])~?\s*"
    + _TN.format(g="e")
    + r"\s*(?:tokens?|词元)\s*(?P<ep>(?:per|a|an|each|every)\s+(?:day|hour)\b|daily\b|hourly\b"
    r"|/\s*(?:day|hour|天|日|小时|h|d)\b|每(?:天|日|小时))"
)
"""A count of tokens a day or an hour through a model, as normalized: '50 million tokens per day',
'每天要处理 1 亿 token', '500万 token/天'."""
TRAINING_CUES = (
    "train",
    "训练",
    "微调",
    "fine-tun",
    "fine tun",
    "finetun",
    "预训",
    "epoch",
    "sft",
    "蒸馏",
    "distill",
)
"""Any training word: a token volume beside one is the run's data, never a service's throughput."""
PERIOD_CUES = (
    "day",
    "hour",
    "daily",
    "每天",
    "每日",
    "日均",
    "一天",
    "每小时",
    "每个小时",
    "/天",
    "/日",
    "/d",
    "/h",
)
"""The words a token volume needs (:data:`TOKEN_VOLUME_RE`): its search is skipped without one."""
_SCALE = {
    "亿": 100_000_000,
    "b": 1e9,
    "billion": 1e9,
    "bn": 1e9,
    "mil": 1_000_000,
    "万": 10_000,
    "千": 1000,
    "k": 1000,
    "thousand": 1000,
    "m": 1_000_000,
    "million": 1_000_000,
}


_DN = (
    r"(?P<{g}>\d[\d,]*(?:\.\d+)?|(?<![一二三四五六七八九两零〇十百千])(?:[十百千]?万|亿))\s*"
    r"(?P<{g}m>万|千|亿|k(?![a-z])|m(?![a-z])|thousand\b|million\b)?"
)
DAY_REQUESTS_RE = rc(
    _DN.format(g="a") + r"\s*(?:级|量级)?\s*(?:的)?\s*(?:日|每日|日均)(?:请求|调用|访问)(?:量|数)?"
    r"|(?:日|每日|日均)(?:请求|调用|访问)(?:量|数)?\s*(?:约|大概|大约|有|达到?|为|是|在)?\s*"
    + _DN.format(g="b")
    + r"|(?<![\w.])"
    + _DN.format(g="c")
    + r"\s*(?:daily|a\s+day's)\s+(?:requests|calls)\b"
    r"|\bdaily\s+(?:requests|calls)\s+(?:of|at|around|about|is|are|=|:)\s*~?\s*" + _DN.format(g="d")
)
"""A count of requests a day written as one noun, the number before or after it (s50-r46zh): '百万级日请求',
'日请求 100 万', '日请求量约 50 万', '1 million daily requests', 'daily requests of 200k'."""
DAY_CUES = ("日请求", "日均请求", "日调用", "日均调用", "日访问", "日均访问", "daily requests", "daily calls")
"""The words :data:`DAY_REQUESTS_RE` needs (C tests before its search: the gate)."""
_WORD_VALUE = {"万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8}


def _day_requests(s: str) -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with a count of daily requests (:data:`DAY_REQUESTS_RE`) masked, its field, as typed)."""
    m = DAY_REQUESTS_RE.search(s)
    g = next((g for g in "abcd" if m is not None and m.group(g)), None)
    if m is None or g is None:
        return s, {}, []
    n = m.group(g)
    count = _WORD_VALUE[n] if n in _WORD_VALUE else float(n.replace(",", ""))
    count *= _SCALE.get(m.group(g + "m") or "", 1)
    if not 1 <= count <= 1e10:
        return s, {}, []
    return (
        mask(s, m.start(), m.end(), " "),
        {"requests_per_day": count},
        [(n + (m.group(g + "m") or "")).strip()],
    )


def _value(m: object, g: str) -> float:
    scale = _SCALE.get(m.group(g + "m") or "", 1)  # type: ignore[attr-defined]
    return float(m.group(g).replace(",", "")) * scale  # type: ignore[attr-defined]


_PER_USER_CUE_RE = rc(
    r"\beach\b|\bper\s+(?:user|person|head|employee|member)\b|每人|每个人|每位|每(?:个|名)?(?:用户|员工|同事|客户)|人均"
)
"""A count said per person: 'each', 'per user', '每人', '每个用户', '人均'."""
_AFTER_RE = rc(r"\s*(?:per|each|for\s+each|a)\s+(?:user|person|head|employee|member)\b")
"""'10 requests a day per user': the per-person word right after the volume."""
_HEADS_RE = rc(
    r"(?<![\w.])(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<k>k(?![a-z])|万|千)?\s*(?:个|位|名)?\s*"
    r"(?:(?:active|daily|internal|concurrent)\s+)?"
    r"(?:users?\b|people\b|persons\b|employees\b|staff\b|customers\b|clients\b|members\b"
    r"|用户|员工|同事|客户|人(?!民币|工|均))"
)
"""A head count: '1,000 users', '500 employees', '2000 个员工', '500人' (never '人民币', '人工', '人均')."""


_CLAUSE_SEP_RE = rc(r"[，;；。]|(?<!\d),|,(?!\d{3}(?!\d))")
"""Where a clause ends: never the thousands comma of '1,000' (s44 review B3: 'each of 1,000 users sends 10
requests an hour' lost its 'each')."""


def per_user_heads(s: str, m: re.Match[str]) -> tuple[float, re.Match[str]] | None:
    """(people, their match) when the volume ``m`` of ``s`` is said per person — 'each' or '每人' between the
    clause's start and the volume, or 'per user' right after it — and a head count is written outside it
    (the nearest before, else the first after: '1,000 users, each sends about 10 requests an hour',
    '500个员工，每人每天大概问30次'); None when it is the service's own count or no head count is read (the
    volume then stays as typed). The people × the count is the service's volume: Little's law on it
    (:mod:`estimator.request_volume`) sizes the load, never the head count as sequences at once."""
    lo = max((sep.end() for sep in _CLAUSE_SEP_RE.finditer(s, 0, m.start())), default=0)
    if not (_PER_USER_CUE_RE.search(s, lo, m.start()) or _AFTER_RE.match(s, m.end())):
        return None
    heads = [h for h in _HEADS_RE.finditer(s) if h.end() <= m.start() or h.start() >= m.end()]
    before = [h for h in heads if h.end() <= m.start()]
    h = before[-1] if before else (heads[0] if heads else None)
    if h is None:
        return None
    n = float(h.group("n").replace(",", "")) * {"k": 1e3, "千": 1e3, "万": 1e4}.get(h.group("k") or "", 1.0)
    return (n, h) if 1 <= n <= 100_000_000 else None


def read_request_volume(s: str) -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with the volume and tokens per request masked, {field: value}, the figures as typed);
    (``s``, {}, []) when there is no volume (tokens per request alone are left to the other readers)."""
    m = VOLUME_RE.search(s)  # the caller's gate: bot.parse.daily_users.read_daily_users
    if m is None and any(map(s.__contains__, DAY_CUES)):  # s50-r46zh: '日请求 100 万'
        m0, out, raw = _day_requests(s)
        if out:  # and the tokens of one request, as after any volume (s50 review #3: '每次 1000 token')
            return _tokens_per_request(m0, out, raw)
    if m is None:
        return read_token_volume(s) if "token" in s or "词元" in s else (s, {}, [])
    g = "z" if m.group("z") else "e"
    count = _value(m, g)
    per = m.group("zp") if g == "z" else m.group("ep")
    hourly = "小时" in per or "hour" in per or per.rstrip().endswith("h")
    if not 1 <= count <= 1e10:
        return s, {}, []
    raw = [(m.group(g) + (m.group(g + "m") or "")).strip()]
    heads = per_user_heads(s, m) if _PER_USER_CUE_RE.search(s) else None
    if heads is not None:  # '1,000 users, each sends 10 requests an hour': 10,000 an hour (s44 trial #2)
        count *= heads[0]
        raw.append(heads[1].group("n") + (heads[1].group("k") or ""))
        s = mask(s, heads[1].start(), heads[1].end(), " ")
    out = {"requests_per_hour" if hourly else "requests_per_day": count}
    return _tokens_per_request(mask(s, m.start(), m.end(), " "), out, raw)


def _tokens_per_request(
    s: str, out: dict[str, float], raw: list[str]
) -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with the tokens of one request masked, ``out`` with ``tokens_per_request``, ``raw`` with it as
    typed) after a volume was read ('每次 1000 token'); unchanged when none is written."""
    t = TOKENS_RE.search(s) if "token" in s else None
    h = "z" if t is not None and t.group("z") else "e"
    if t is not None and 1 <= (tokens := _value(t, h)) <= 10_000_000:
        out["tokens_per_request"] = round(tokens)
        raw.append((t.group(h) + (t.group(h + "m") or "")).strip())
        s = mask(s, t.start(), t.end(), " ")
    return s, out, raw


def token_volume(s: str) -> re.Match[str] | None:
    """The first token volume of ``s`` (:data:`TOKEN_VOLUME_RE`) when no training word is written."""
    if any(map(s.__contains__, TRAINING_CUES)) or not any(map(s.__contains__, PERIOD_CUES)):
        return None  # C tests, no search: the gate
    return TOKEN_VOLUME_RE.search(s)


def read_token_volume(s: str) -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with a token volume masked, {``tokens_per_day`` or ``tokens_per_hour``: tokens}, the figure as
    typed) — s44 trial #1: 'We process 50 million tokens per day through Llama 3.1 70B' was sized as a
    pre-training on 50M tokens; (``s``, {}, []) when there is none or a training word makes it data."""
    m = token_volume(s)
    if m is None:
        return s, {}, []
    g = "z" if m.group("z") else "e"
    per = m.group("zp") if g == "z" else m.group("ep")
    tokens = _value(m, g)
    if not 1 <= tokens <= 1e15:
        return s, {}, []
    hourly = "小时" in per or "hour" in per or per.rstrip().endswith("h")
    typed = [(m.group(g) + (m.group(g + "m") or "")).strip()]
    return (
        mask(s, m.start(), m.end(), " "),
        {"tokens_per_hour" if hourly else "tokens_per_day": tokens},
        typed,
    )
