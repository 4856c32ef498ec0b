"""A team's size and a working day's hours (issue 24, s14): figures about the people, not the job.

- **A team's size** on a training question: '4 people on the team', 'a team of 4', 'our team is 4
  people', '团队 4 个人', '我们组 3 个人', '团队共 5 人'. The people who run a job are no load on the
  GPUs (a serving question's concurrency) and no training setting. Before, '4 people' became
  ``concurrency: 4`` on a training answer ("a serving setting") — a figure the user never meant as one.
  Named ``team_size``. On a serving question the count of people is left to the load rules (the team
  may be the users).
- **A daily schedule**: '8 hours a day', 'eight hours per day', '每天 8 小时', '每天跑 8 个小时',
  '一天 10 小时'. Hours a day are how long the cards run each day, not the run's duration (no request
  field has hours per day: the estimator times a run around the clock). Before, '8 hours a day' became
  ``hours=8`` and a LoRA question was priced as 64 GPU-hours. Named ``daily_schedule``.

Both are masked (same length) so no later rule reads their number. :func:`team_size` is the one reader
of a team's size: these phrases and the people a service would be for (:data:`USER_FORMS`: 'our team of 5
engineers', '团队 5 个工程师'), which on a training question are a team, never a load.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.numbers import parse_number
from bot.parse.output_forms import USER_FORMS, USER_GATE
from bot.parse.regex import rc, words_gate

_N = r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十]+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
_HARDWARE = (
    r"(?:nodes?|machines?|servers?|boxes|hosts?|instances?|gpus?|cards?|rigs?|workstations?|pcs?|dgx|hgx"
    r"|[a-z]+-?\d|(?:amd|nvidia|intel|geforce|radeon|instinct)\b|英伟达|华为|昇腾|节点|台|机|张|卡)"
)
"""What a count after 'our team has' counts when it is hardware ('our team has 2 nodes of 8x A100', trial s20
q17): not people."""
TEAM_RE = rc(
    rf"(?<![\w.]){_N}\s*(?:people|persons?|engineers?|members?|devs?|developers?|researchers?|of\s+us)"
    r"\s+(?:on|in)\s+(?:the|our|my|a)?\s*(?:team|group|lab)(?![a-z])"
    rf"|\b(?:a|our|my|the)\s+(?:small\s+)?(?:team|group|lab)\s+(?:of|is|has|with)\s+(?:only\s+|just\s+)?{_N}"
    rf"(?!\s*(?:x|×|\*)?\s*{_HARDWARE})"
    r"(?:\s*(?:people|persons?|engineers?|members?|devs?|developers?|researchers?))?(?![\w.])"
    rf"|(?:团队|小组|我们组|组里|课题组|实验室)\s*(?:共|一共|总共|只有|就|有|是)?\s*{_N}\s*(?:个人|个成员|名成员|人|位)"
)
"""'4 people on the team', 'a team of 4 engineers', 'our team is 4 people', '团队 4 个人', '组里 3 人'."""
DAY_WORD = r"(?:每天|每日|一天|每个工作日|(?:只在|只|仅在|仅)?白天)"
"""A Chinese schedule's day word ('每天', '一天', '只在白天') before its hours (bot.parse.daily_hours too)."""
RUN_VERB = r"(?:跑|开|用|训|训练|工作|运行)"
"""What the cards do those hours ('每天跑 8 小时', '白天用'; also bot.parse.daily_hours)."""
DAILY_RE = rc(
    rf"(?<![\w.]){_N}\s*(?:个)?\s*(?:hours?|hrs?|h)\s*(?:(?:a|per|each|every)\s+|/\s*)(?:work\s*)?day(?![a-z])"
    rf"|(?<![\w.]){_N}\s*(?:hours?|hrs?|h)\s+daily(?![a-z])"
    rf"|{DAY_WORD}\s*(?:只能|只可以|只|仅能|仅|最多|能)?\s*"
    rf"{RUN_VERB}?\s*(?:约|大概|大约)?\s*{_N}\s*(?:个)?\s*(?:小时|h(?![a-z]))"
)
"""'8 hours a day', '10 hrs per day', '6h daily', '每天 8 小时', '每天跑 8 个小时', '一天 10 小时',
'只在白天用 8 小时' (the daytime hours of each day: s18 trial); s20: '每天只能跑 8 小时', '每天最多用 8 小时',
'8h/day' (before, '只能' left the Chinese phrase unread and its 8 named as another setup's)."""
WEEKDAYS_RE = rc(  # not a count of them ('5 business days', '5 个工作日内'): a deadline
    r"(?<!\d)(?<!\d\s)(?<!个)(?:\b(?:on\s+)?(?:weekdays?|work\s*days?|business\s+days?)\b|\bmon(?:day)?\s*(?:-|–|to|through|thru)\s*fri(?:day)?\b"
    r"|工作日|周一(?:到|至|~|-|－)周五|星期一(?:到|至)星期五)"
)
"""'on weekdays', 'business days', 'Monday to Friday', '工作日', '周一到周五' (s18-fxc #2): the days of
the week it runs. Not used: a month is billed on every day of it (30.4); weekdays are ≈ 21.7 of them
(5/7), so the month's cost at that schedule is about 5/7 of the one given. Named ``weekdays_only``."""
_GATE_RE = words_gate(
    (
        "team",
        "group",
        "lab",
        "团队",
        "组",
        "实验室",
        "day",
        "daily",
        "每天",
        "每日",
        "一天",
        "白天",
        "mon",
        "工作日",
        "周一",
        "星期一",
    )
)


def schedule_words(s: str, training: bool) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with a team's size (training questions only) and a daily schedule masked, and each named
    (the phrase as written, reason ``team_size`` or ``daily_schedule``)."""
    if not _GATE_RE.search(s):
        return s, []
    weekdays = WEEKDAYS_RE.search(s)
    named = [(" ".join(weekdays.group(0).split()), "weekdays_only")] if weekdays else []
    patterns = (
        ((TEAM_RE, "team_size"), (DAILY_RE, "daily_schedule"))
        if training
        else ((DAILY_RE, "daily_schedule"),)
    )
    for pattern, why in patterns:
        for m in pattern.finditer(s):
            named.append((" ".join(m.group(0).split()), why))
            s = mask(s, m.start(), m.end(), " ")
    left = WEEKDAYS_RE.search(s) if weekdays else None  # '周一到周五': no 一 or 五 read as a figure
    return (mask(s, left.start(), left.end(), " ") if left else s), named


_WORD_NUMBERS = dict(
    one=1, two=2, three=3, four=4, five=5, six=6, seven=7, eight=8, nine=9, ten=10, twelve=12, 两=2
)
_COUNT_RE = rc(rf"{_N}")


def team_size(text: str) -> float | None:
    """The size of a team in ``text`` (lower case): a :data:`TEAM_RE` phrase ('4 people on the team',
    '团队 4 个人') or one of the people a service is for (:data:`USER_FORMS`: 'our team of 5 engineers',
    '20 个同事'); None when there is none. On a training question they are the team, not a load."""
    if not (_GATE_RE.search(text) or USER_GATE.search(text)):
        return None
    for pattern in (TEAM_RE, *(p for p, _ in USER_FORMS)):
        m = pattern.search(text)
        count = _COUNT_RE.search(m.group(0)) if m else None
        if count is not None:
            word = count.group(0).replace(",", "")
            return float(_WORD_NUMBERS.get(word) or parse_number(word) or 0) or None
    return None
