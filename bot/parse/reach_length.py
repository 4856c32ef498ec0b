"""The length a serving run reached when it failed or slowed (issue 24, round 30 zh: zh30-033 'token 数到 10k
的时候报 OOM'): in a serving question, the tokens, context, conversation or input said to reach, hit or pass a
length is the context that run held — the length to size for, as 'context of 10k' is (s35). Before, the
number was left unread.

Read in both languages, with the verb of reaching right before the length: '到' / '达到' / '涨到' / '超过',
'reach(es)' / 'hit(s)' / 'get(s) to' / 'grow(s) past' / 'exceed(s)'. Not read: a rate or a daily volume after
the length ('token 数到 1 亿/天', 'tokens reach 2k per second'), the output's length ('输出 token 数到 512',
'generated tokens reach 2k': the completion, read by the output readers), and any training question (the
caller asks this in serving questions only: 'token 数到 1T' is a corpus). The caller
(bot.parse.more_roles.more_role) tests the verbs' words with ``in`` first, then imports this module.
"""

from __future__ import annotations

from bot.parse.regex import rc

L_REACHED = rc(
    r"(?P<what>token\s*(?:数量?|count)|tokens?|上下文|context|对话|conversation|输入|input|prompt)"
    r"(?:\s*(?:长度|length|size))?\s*(?:的\s*)?"
    r"(?:到了?|达到了?|涨到|增加到|增长到|超过了?|reach(?:es|ed)?|hit(?:s|ting)?|gets?\s+to|got\s+to"
    r"|grows?\s+(?:past|to)|exceed(?:s|ed)?|goes\s+(?:past|over|above)|超出了?|大于|长于"
    r"|(?:(?:is|are|of)\s+)?(?:above|beyond|over|past|(?:longer|greater|larger|bigger|more)\s+than))"
    r"\s*(?:about|around|约|大约|大概)?\s*$"
)
"""The words before the length: what grows, then the verb of reaching ('token 数到', '上下文长度超过',
'once the tokens reach', 'when the context hits'); s42 (issue 24, working misses): or the bound it passes
('crashes for any context length above 29000', 'prompts longer than 8k fail', '上下文大于 16k 就报错'): the
length the run held up to, sized as the least it needs, as :mod:`bot.parse.bound_words` sizes a bound."""
_OUTPUT_BEFORE = rc(r"(?:输出|生成|output|completion|generated|new)\s*(?:的\s*)?$")
"""The output named before what grows: its length is the completion's, not the context."""
R_RATE = rc(r"^\s*(?:tokens?\s*)?(?:/|每|per\b|a\s+(?:day|second|minute|hour)\b|daily|hourly)")
"""A rate or a volume after the length ('1 亿/天', '2k per second', '10k a day')."""


def reached_length(left: str, right: str) -> bool:
    """Whether the number between ``left`` and ``right`` (normalized text) is a length a serving run
    reached: :data:`L_REACHED` before it, no output word before that, no rate after it."""
    m = L_REACHED.search(left)
    if m is None or _OUTPUT_BEFORE.search(left[: m.start()]):
        return False
    return R_RATE.match(right) is None
