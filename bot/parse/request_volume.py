"""A service's request volume and tokens per request (s35 fix c item 2).

'部署qwen3-8b给客服用，每天大概1万次对话' named “1万” as unread and sized the default 16 sequences;
'平均每次2000 token' was unread too. A daily or hourly count of requests (conversations, calls,
queries) — '每天1万次对话', '日均5000个请求', '每小时500个请求', '10k requests a day', '500 requests per
hour', '20,000 conversations daily' — becomes the request's ``requests_per_day`` / ``requests_per_hour``,
and the tokens of each — '平均每次2000 token', '每次对话约2k tokens', '~2k tokens per conversation' —
``tokens_per_request``. The estimator turns them into the load (:mod:`estimator.request_volume`,
Little's law). Read and masked before the numbers get roles, behind the caller's gate (its words)."""

from __future__ import annotations

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
    + _N.format(g="z")
    + r"\s*(?:多)?\s*"
    + _ZH_THINGS
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
_SCALE = {"万": 10_000, "千": 1000, "k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}


def _value(m: object, g: str) -> float:
    return float(m.group(g).replace(",", "")) * _SCALE.get(m.group(g + "m") or "", 1)  # type: ignore[attr-defined]


def read_request_volume(s: str) -> tuple[str, dict[str, float], list[str]]:
    """(``s`` with the volume and tokens per request masked, {field: value}, the figures as typed);
    (``s``, {}, []) when there is no volume (tokens per request alone are left to the other readers)."""
    m = VOLUME_RE.search(s)  # the caller's gate: bot.parse.daily_users.read_daily_users
    if m is None:
        return s, {}, []
    g = "z" if m.group("z") else "e"
    count = _value(m, g)
    per = m.group("zp") if g == "z" else m.group("ep")
    hourly = "小时" in per or "hour" in per or per.rstrip().endswith("h")
    if not 1 <= count <= 1e10:
        return s, {}, []
    out = {"requests_per_hour" if hourly else "requests_per_day": count}
    raw = [(m.group(g) + (m.group(g + "m") or "")).strip()]
    s = mask(s, m.start(), m.end(), " ")
    t = TOKENS_RE.search(s) if "token" in s else None
    h = "z" if t is not None and t.group("z") else "e"
    if t is not None and 1 <= (tokens := _value(t, h)) <= 10_000_000:
        out["tokens_per_request"] = round(tokens)
        raw.append((t.group(h) + (t.group(h + "m") or "")).strip())
        s = mask(s, t.start(), t.end(), " ")
    return s, out, raw
