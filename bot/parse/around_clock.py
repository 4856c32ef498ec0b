"""A service that runs around the clock (trial s18 #5): '200 concurrent users 24/7', '7x24', '24x7',
'24×7 小时', '7*24小时', 'round the clock', '全天候' — a schedule, all day every day, written '24 hours a day'
(the form :data:`bot.parse.schedule_words.DAILY_RE` reads: ``hours_per_day`` 24 on a serving question).
Before, '24/7' was read as two numbers: '24' as users not under load and '7' unread.
"""

from __future__ import annotations

import re

AROUND_CLOCK_RE = re.compile(
    r"(?<![\w.])(?:24\s*[/x×*\-]\s*7|7\s*[/x×*]\s*24)(?:\s*(?:小时|h(?![a-z])))?(?![\w.]|\s*[/x×*]\s*\d|\s*(?:gb|gib|g)(?![a-z])|\s*(?:卡|张|cards?\b|gpus?\b))"
    r"|\b(?:a)?round[\s\-]the[\s\-]clock\b|全天候"
)
"""'24/7', '24x7', '7x24', '7*24小时', 'round the clock', '全天候' (never a product of three: '24x7x365',
nor cards: '7 x 24 GB', '7×24G 的卡', '7x24 cards', s18-fxa).
A plain compiled pattern: its search is the C method at the call site (no gate frame, bot.parse.regex)."""


def around_clock(s: str) -> str:
    """The normalized text ``s`` with an around-the-clock schedule written '24 hours a day'."""
    return AROUND_CLOCK_RE.sub(" 24 hours a day ", s)
