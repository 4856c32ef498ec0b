"""Tokens a day (or an hour) a training run gets through, asked (session 45 fixread item 2).

'how many tokens a day can 64 H100s train a 7B on', '64 张 H100 训练 7B，每天能训练多少 token',
'8 A100 每小时能训多少 token' ask a training throughput. '…in a day' and '一天能训练多少 token' were
already read as a one-day deadline, answered with the tokens that deadline trains (estimator.sizing's
deadline path: C = 6·N·D at the MFU used elsewhere, so D = GPUs × peak × MFU × T ÷ 6N); 'a day',
'per day', '每天', 'per hour', '每小时' in the same question were left unread and the answer was a memory
fit. The period is now read as that deadline: a day, or an hour (1/24 day, as '48小时内' is read:
bot.parse.settings). Never with a stated token count (the data is then known: no tokens are asked), and
only beside a training word (:data:`bot.parse.request_volume.TRAINING_CUES`): a served model's tokens a
day are :mod:`bot.parse.token_asks`'s. Callers gate on 'token' / '词元' and 'how many' / '多少'."""

from __future__ import annotations

from bot.parse.regex import rc

TRAIN_RATE_RE = rc(
    r"how\s+many\s+(?:training\s+)?tokens?\b[^.?!;]{0,80}?\b(?:per|a|an|each|every)\s+(?P<e>day|hour)\b"
    r"|how\s+many\s+(?:training\s+)?tokens?\s+(?:per|a|an|each|every)\s+(?P<e2>day|hour)\b"
    r"|(?P<z>一天|每天|每日|一小时|每小时|一个小时)[^,，。?？;；]{0,16}?(?:能|可以|可)?[^,，。?？;；]{0,10}?"
    r"(?:训练|训|预训练|微调|跑)[^,，。?？;；]{0,4}?多少\s*(?:个\s*)?(?:tokens?|词元)"
)
"""'how many tokens a day … train', 'how many tokens per hour', '每天能训练多少 token', '每小时能训多少 token'
(lower case)."""


def train_rate_days(s: str) -> float | None:
    """The deadline in days a training-throughput question asks about (module doc): 1.0 for a day, 1/24
    for an hour; None without a training word or the question."""
    from bot.parse.request_volume import TRAINING_CUES

    if not any(map(s.__contains__, TRAINING_CUES)):
        return None
    m = TRAIN_RATE_RE.search(s)
    if m is None:
        return None
    word = m.group("e") or m.group("e2") or m.group("z")
    return 1 / 24 if ("hour" in word or "小时" in word) else 1.0
