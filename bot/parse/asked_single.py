"""One card asked for beside the cards a setup has (issue 24 item 4, two setups in one message, session 49):
'服务起的时候指定了两张卡 … 显存就爆了。有办法指定单卡运行吗？', '两张卡部署 OOM，能不能用单卡跑？'.
The question asks about one card, so one card is sized and the count said before it is named as the other
setup's, as an English 'two GPUs … Is there a way to run it on a single GPU?' already was (its 'single
GPU' is a count of its own, bot.parse.asked_count). Before, '单卡' was read only when no count was said, so
the asked card was dropped in silence and the two cards sized.

Only a run verb after the one card ('单卡运行', '单卡跑', '在单卡上部署', '用单卡推理') asks it: '单卡 24G'
(each card's memory), '单卡显存占用多少' and '单卡 batch 4' (a per-card figure) say nothing of how many cards
run; and only in a sentence that asks, after every count said (each above one) and in a clause that holds
none. Loaded on first use, behind '单' at its call site; pure, never raises."""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

ASKED_SINGLE_RE = rc(
    r"单\s*(?:卡|张卡|块卡|张\s*gpu|块\s*gpu|个\s*gpu|gpu)\s*(?:上|中)?\s*(?:来|去)?\s*"
    r"(?:运行|跑|部署|推理|训练|微调|启动|加载|服务)"
)
"""One card with a run verb after it ('单卡运行', '单卡上跑', '单张卡部署', '单个 GPU 推理')."""
QUESTION_RE = rc(r"[?？]|吗|能不能|可不可以|是否|有没有办法|有办法|怎么|如何")
"""A sentence that asks (Chinese: the run verbs above are Chinese words)."""


def asked_single(s: str, counts: list[Any]) -> bool:
    """Whether the normalized text ``s`` asks to run on one card (:data:`ASKED_SINGLE_RE`) in a sentence that
    asks, with each of ``counts`` (the count roles, with ``value`` and ``tok.start``) above one and said
    before the clause that asks it."""
    if not counts or any(r.value <= 1 for r in counts) or not _run_after_single(s):
        return False  # string methods first: the parse's regex searches are pinned (test_parse_render_speed)
    for one in ASKED_SINGLE_RE.finditer(s):
        start = max(s.rfind(c, 0, one.start()) for c in _ENDS) + 1
        ends = [i for i in (s.find(c, one.end()) for c in _ENDS) if i >= 0]
        end = min(ends) + 1 if ends else len(s)
        if not QUESTION_RE.search(s, start, end):
            continue
        clause = max(s.rfind(c, start, one.start()) for c in "，,") + 1 or start  # '…两张卡，能单卡跑吗'
        return all(r.tok.start < max(start, clause) for r in counts)
    return False


_ENDS = "。.;；!！?？\n"
"""A sentence's ends (as :data:`SENTENCE_END_RE`), found with string methods."""
_RUN_VERBS = ("运行", "跑", "部署", "推理", "训练", "微调", "启动", "加载", "服务")


def _run_after_single(s: str) -> bool:
    """Whether a run verb of :data:`ASKED_SINGLE_RE` stands within a few characters after a '单' of ``s``."""
    i = s.find("单")
    while i >= 0:
        window = s[i + 1 : i + 9]
        if any(v in window for v in _RUN_VERBS):
            return True
        i = s.find("单", i + 1)
    return False
