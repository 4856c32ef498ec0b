"""How many epochs a budget pays for, asked (trial s43 q11_zh: '预算3万块 … 能跑几轮' got 'budget enough' and
no number): 'how many epochs', 'how many full epochs', '能跑几轮', '几个 epoch', '多少个epoch', '跑几遍'. The
estimator then gives budget ÷ cost per epoch in whole epochs (estimator.budget_check ``budget_epochs``).
A stated count ('3 个 epoch', 'for 3 epochs') is a setting, not this question; nor is '每轮多久' (the time
of one epoch) or '几轮对话' (turns of a conversation).

Called only when the text holds 'epoch', '轮' or '遍' (:func:`asks_epochs`, at the call site)."""

from __future__ import annotations

from bot.parse.regex import rc

EPOCHS_ASKED_RE = rc(
    r"how\s+many\s+(?:(?:full|whole|complete|training)\s+)?epochs?\b"
    r"|(?:几|多少)\s*(?:个\s*)?(?:轮|epochs?\b|遍)(?!对话|会话|问答)"
)
"""The number of epochs asked: 'how many epochs', 'how many full epochs', '能跑几轮', '几个 epoch',
'多少轮'; not '3 epochs', '每轮多久', '几轮对话'."""


def asks_epochs(s: str) -> bool:
    """Whether the normalized text ``s`` asks how many epochs (:data:`EPOCHS_ASKED_RE`); the caller
    gates it on 'epoch', '轮' or '遍' in ``s``."""
    return EPOCHS_ASKED_RE.search(s) is not None
