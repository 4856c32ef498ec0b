"""A request's length said of the question and the answer together (issue 24, round 33 zh: '一个 Q+A 共计大概
1200 token 的 prompt', 'prompt and answer together are about 3000 tokens', '输入加输出一共 4k tokens'): the
whole sequence a request holds, written 'max_len N' as the length readers read it (before, unread, or the
prompt alone). Both parts must be named (Q+A, 问答, 输入/输出, prompt/answer or completion or response,
question/answer) with a word that joins them ('+', '和', '加', 'and') or sums them ('共计', 'together', 'in
total'); two parts named apart need the summing or length word ('a 1024-token prompt and generates 256
tokens': the 256 is the reply's); a total of data ('数据共 10 亿 token') names no request part (the data
readers').
The caller's gate: 'token' in the message.
"""

from __future__ import annotations

from bot.parse.regex import rc

_UNIT = r"(?:q\s*(?:\+|&|和|加)\s*a|问答|一问一答)"
_PAIR = (
    r"(?:输入|问题|提问|prompt|question|input)\s*(?:\+|和|加上?|与|及|and|plus)\s*"
    r"(?:输出|回答|答案|回复|answer|completion|response|output|reply)s?"
)
_SUM = (
    r"(?:\s*(?:的)?\s*(?:长度|length))?\s*(?:together|combined|in\s+total)?\s*"
    r"(?:共计|总共|合计|一共|加起来|总计|共|are|is|of|=|:)?"
)
_SUMMED = (
    r"\s*(?:的\s*)?(?=长度|length|together|combined|in\s+total"
    r"|共计|总共|合计|一共|加起来|总计|共|(?:are|is)\s|=)"
)
"""Two parts named apart need a length or summing word ('prompt and output 256 tokens' is the output's)."""
QA_TOTAL_RE = rc(
    r"(?:" + _UNIT + r"|" + _PAIR + _SUMMED + r")" + _SUM + r"\s*(?:大概|大约|约|差不多|about|around|~)?\s*"
    r"(?P<n>\d+(?:\.\d+)?\s*k?)\s*tokens?(?![a-z])"
)
"""Both parts of a request, a joining or summing word, then a token count (see the module docstring)."""


def qa_total(s: str) -> str:
    """``s`` with each length of :data:`QA_TOTAL_RE` written ' max_len N ' (the sequence)."""
    return QA_TOTAL_RE.sub(lambda m: f" max_len {m.group('n').replace(' ', '')} ", s)
