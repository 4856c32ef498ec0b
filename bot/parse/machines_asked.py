"""A question for the machines (servers, nodes) a job needs, not only the GPUs (s50 trial #2, s49 trial #5):
'用 L20 需要几台机器？', '多少台服务器', '要几台8卡机器', '要买几台昇腾910B服务器' (a card between: its
servers), 'How many servers do I need …', 'how many 8-GPU nodes'. Before, the headline said '需要 4 张 L20'
and never a machine; the cue ``machines_asked`` makes a serving headline name the machines the recommended
GPUs fill, ⌈GPUs ÷ GPUs per node⌉ of the card's node (bot.render.serving_text._serving_nodes). Imported
behind its words (bot.parse.stage_steps): '几台' / '多少台', or 'how many' with a machine word.

Not this cue: '几台H100' (台 counting cards: no machine word, nor the question's end after it), 'how many GPUs
per node' (the GPUs in each node are asked)."""

from __future__ import annotations

from bot.parse.regex import rc

ASKS_MACHINES_RE = rc(
    r"(?:几|多少)\s*台[^，,。？?！!]{0,12}?(?:机器|服务器|主机|节点|整机)|(?:几|多少)\s*台\s*(?:$|[?？。，,!！]|呢|吗|才)"
    r"|\bhow\s+many\s+(?:(?:(?!(?:gpus?|cards?|per)\b)[\w\-]+|[\ue000\ue002])\s+){0,3}(?:servers?|machines?|nodes?|boxes)\b"
)
"""The machines asked, on the normalized (lower-case) text; a card's mark may stand among the words ('how many
A100 8-GPU nodes', 'how many 8-GPU A100 servers': s51 leftovers #3, the card read out of the text)."""


def asks_machines(s: str) -> bool:
    """Whether the lower-cased message ``s`` asks how many machines (servers, nodes) the job needs."""
    return ASKS_MACHINES_RE.search(s) is not None
