"""A duration another run took, when the message asks how long this job takes (trial s12 A2).

'同事用 8 张 A100 … 跑了 30 个小时。我这边是 8 张 H800，大概要多久？', '上个月 … 3 亿 token 跑了 16 小时。
现在要微调 Qwen2.5-72B，… 需要几张卡几天？', 'it took 14 hours … how many days?': the hours are what an
earlier or another run took — an observation of that run — while the question asks for this job's time.
Before, they became this job's known duration (a 7B run's 16 hours sized as the 72B's, at an implied 91 %
MFU; a colleague's A100 hours priced on the user's H800). A past-tense duration with no duration asked
('8 卡跑了 36 小时，花了多少钱') is still the job's own known duration.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.words import ASKS_DURATION_RE

PAST_RUN_BEFORE_RE = rc(
    r"(?:跑了|用了|花了|耗时|耗了|训了|训练了|跑完用了|\btook|\bran\s+for|\blasted|\bfinished\s+in"
    r"|\bcompleted\s+in|\bdone\s+in|\bwas\s+done\s+in)"
    r"\s*(?:about|around|roughly|nearly|almost|~|约|大约|大概|差不多|将近|近)?\s*$"
)
"""A past-run verb right before a duration: 'took 16 hours', 'ran for 30 hours', '跑了 30 个小时'."""


def past_run_duration(s: str, m: re.Match[str]) -> bool:
    """Whether the duration ``m`` in the normalized text ``s`` is another run's, not this job's: a past-run
    verb right before it, and the message asks how long (:data:`bot.parse.words.ASKS_DURATION_RE`)."""
    return bool(PAST_RUN_BEFORE_RE.search(s[max(0, m.start() - 16) : m.start()])) and bool(
        ASKS_DURATION_RE.search(s)
    )
