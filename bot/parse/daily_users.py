"""Daily active users of a service ('日活1000人', '日活跃用户约2万', '1000 daily active users', 'DAU 5万',
'10k DAU'): a head count of the people the service is for, never the sequences run at once (trial s22 #4:
'部署 Qwen2.5-72B，预算每月5万，日活1000人' named “1000” as unread and sized the default 16). The count
becomes the request's ``users`` — the head-count path of :mod:`bot.parse.users_load` (load ⌈users × 10 %⌉,
:mod:`estimator.active_users`, said in the assumptions) — unless a concurrency is stated, which wins
(the DAU is then named, reason ``users_not_load``). Read and masked before the numbers get roles."""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.rate_forms import used_rate
from bot.parse.regex import rc
from bot.parse.token_words import BATCH_WORDS, DURATION_ASK, PERIOD_WORDS, ROW_WORDS

_N = r"(?P<{g}>\d[\d,]*(?:\.\d+)?)\s*(?P<{g}m>万|千|k(?![a-z])|m(?![a-z])|thousand\b|million\b)?"
DAILY_USERS_RE = rc(
    r"日活(?:跃)?(?:用户|人数)?(?:数|量)?\s*(?:约|大概|大约|有|是|为|:|：|达到|在)?\s*"
    + _N.format(g="z")
    + r"\s*(?:人|个用户|名用户|用户)?"
    + r"|(?<![\w.])"
    + _N.format(g="e")
    + r"\s*(?:daily\s+active\s+users?|daily\s+users?|dau)\b"
    + r"|\bdau\s*(?:of|is|=|:|：|around|about|~|约|大概|是|为|有)?\s*"
    + _N.format(g="d")
)
"""A DAU figure as normalized (lower case): '日活1000人', 'dau 5万', '10k dau', '1000 daily active users'."""
_SCALE = {"万": 10_000, "千": 1000, "k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}
_DIGITS_RE = rc(r"\d+(?:\.\d+)?")
"""The number a typed figure starts with ('50' of '50million')."""


def read_daily_users(
    s: str, whole: str = ""
) -> tuple[str, int | None, str, tuple[dict[str, float], list[str]]]:
    """(``s`` with the first DAU figure masked, the people, the figure as typed, and a request volume read
    and masked by :func:`bot.parse.request_volume.read_request_volume`: its fields and figures as typed, and a
    period's tokens or a batch's asked, :func:`bot.parse.token_asks.read_token_asks`, ``whole`` the message
    before the earlier readers' masks);
    people None and "" when there is no DAU figure."""
    volume: dict[str, float] = {}
    typed: list[str] = []
    if "每" in s or "日" in s or "一天" in s or "day" in s or "daily" in s or "hour" in s:  # s35
        from bot.parse.request_volume import read_request_volume  # imported when used: start-up

        s, volume, typed = read_request_volume(s)
    said = whole or s  # s45 fixread #1: a row's tokens may be read (masked) by now, the rows not
    if (
        "token" in said or "词元" in said or "输出 " in said or "input " in said
    ) and (  # s44 trial #3/#4: a period's tokens or a batch's time asked
        (("how many" in s or "多少" in s) and any(map(s.__contains__, PERIOD_WORDS)))
        or (any(map(s.__contains__, DURATION_ASK)) and any(map(s.__contains__, BATCH_WORDS + ROW_WORDS)))
    ):
        from bot.parse.token_asks import read_token_asks

        s, asked, asked_typed = read_token_asks(s, said)
        volume, typed = volume | asked, typed + asked_typed
    m = DAILY_USERS_RE.search(s)
    if m is None:
        return s, None, "", (volume, typed)
    g = next(g for g in ("z", "e", "d") if m.group(g))
    people = float(m.group(g).replace(",", "")) * _SCALE.get(m.group(g + "m") or "", 1)
    if not 1 <= people <= 100_000_000:  # the ``users`` field's bounds (estimator.request_users)
        return s, None, "", (volume, typed)
    raw = (m.group(g) + (m.group(g + "m") or "")).strip()
    return mask(s, m.start(), m.end(), " "), round(people), raw, (volume, typed)


def daily_users_as_load(steps: Any, concurrency: float | None) -> None:
    """The DAU read (``steps._daily``: people, as typed) as ``users`` when no concurrency is stated (named
    ``users_active_share``, as a head count is), else named ``users_not_load``."""
    people, raw, (volume, typed) = getattr(steps, "_daily", (None, "", ({}, [])))
    if volume and concurrency:  # a stated load wins: the volume named, not used
        steps.named_unused += [(t, "volume_not_load") for t in typed]
    elif volume:
        steps.f.update(volume)
        # s44 trial: a volume said per person is people × count, a token volume '50 million': the figures
        # as typed were read (their digits, before any magnitude word), not left behind
        digits = (_DIGITS_RE.match(t.replace(",", "")) for t in typed)
        steps.computed_from = (*steps.computed_from, *(float(d.group()) for d in digits if d))
    if people is None:
        return
    if concurrency:
        steps.named_unused.append((raw, "users_not_load"))
        return
    steps.f["users"] = people
    steps.named_unused.append((raw, "users_active_share"))


def rated(steps: Any) -> bool:
    """Whether the message states a request rate (``bot.parse.rate_forms.used_rate``: named) or a volume
    (``steps._daily``'s, :mod:`bot.parse.request_volume`)."""
    return any(map(used_rate, steps.named_unused)) or bool(
        getattr(steps, "_daily", (None, "", ({}, [])))[2][0]
    )
