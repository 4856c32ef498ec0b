"""A request's prompt and reply lengths written in prose with a length word (split from
:mod:`bot.parse.prose_forms`, s39): 'prompt 长度 1k', '回答长度 512', 'output length 300',
'512-token answers', rewritten in the words the roles read (' 输入 ', ' 输出 ', 'answers of 512 tokens').
"""

from __future__ import annotations

import re

from bot.parse.qa_total import qa_total
from bot.parse.regex import rc

PROMPT_LENGTH_RE = rc(
    r"(?:(?P<p>prompts?|inputs?|输入|提示词?)|(?P<q>问题|提问|问句))\s*(?:的)?\s*(?:长度|length|len)?"
    r"\s*(?:是|为|:|约|大概|大约|在|差不多)?\s*(?=\d)"
)
"""'prompt 长度 1k', '问题长度 1000 字', '输入 2k': the prompt part ('问题' is the user's question)."""
REPLY_LENGTH_RE = rc(
    r"(?:回答|答案|回复|输出|生成|answers?|responses?|outputs?|replies|reply|completions?)\s*(?:的)?\s*"
    r"(?:长度|length|len)\s*(?:是|为|:|约|大概|大约|在|差不多)?\s*(?=\d)|(?:回答|答案)\s*(?:约|大概|大约)?\s*(?=\d)"
)
"""'回答长度 512', 'output length 300', '回答 300 字': the reply part."""
_LENGTH_WORD_RE = rc(r"长度|length|len")
_UNIT_AFTER_RE = rc(r"\d[\d.,]*\s*(?:[km](?![a-z])|千|万)?\s*(?:个\s*)?(?:tokens?|toks?|字|词|k\b)")
"""Without a length word the number must carry a length unit ('回答 300 字', not '回答 2 张 A100')."""
_LIMIT_BEFORE_RE = rc(r"(?:max(?:imum)?|最大|最长|上限)[\s_\-]*$")
TOKENS_BEFORE_PART_RE = rc(
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?\s*[km]?)[\s\-]*tokens?[\s\-]+"
    r"(?P<part>answers?|replies|responses?|outputs?|completions?|generations?)\b"
)
"""'512-token answers', '300 token replies': the reply part, written 'answers of 512 tokens'."""
_PARTS_GATE_RE = re.compile("长度|length| len|问题|提问|问句|回答|答案")
REPLY_LIMIT_RE = rc(
    r"(?:回答|答案|回复|输出|生成|answers?|responses?|outputs?|replies|reply|completions?)\s*(?:的)?\s*"
    r"(?:tokens?\s*(?:数量?)?|长度|length)\s*(?:最长|最多|最大|上限|at\s+most|up\s+to|max(?:imum)?)"
    r"\s*(?:是|为|:|=|约|大概|大约)?\s*(?=\d)"
)
"""Round 35 zh: the reply's length with a token or length word and a limit word before the number ('输出
token 最长为 512', '输出 tokens 数最多 1024 个', 'output tokens at most 512', 'output length up to 1024
tokens'): each request's output length, as '输出长度 512' is read (before: left unread). Gated on substrings:
a limit word and a token or length word."""


def request_parts(s: str) -> str:
    """Prompt and reply lengths written with a length word, in the words the roles read."""
    if "token" in s:
        s = qa_total(TOKENS_BEFORE_PART_RE.sub(lambda m: f"{m.group('part')} of {m.group('n')} tokens", s))
    if _PARTS_GATE_RE.search(s):
        s = PROMPT_LENGTH_RE.sub(lambda m: _part(m, " 输入 " if m.group("q") else f" {m.group('p')} "), s)
        s = REPLY_LENGTH_RE.sub(lambda m: _part(m, " 输出 "), s)
    limit = "最" in s or "上限" in s or " most" in s or "up to" in s
    if limit and ("token" in s or "长度" in s or "length" in s):
        s = REPLY_LIMIT_RE.sub(" 输出 ", s)
    return s


def _part(m: re.Match[str], words: str) -> str:
    """``words`` for a part's length, unless a limit key says it ('max prompt length 2048': the key's)."""
    before = m.string[max(0, m.start() - 8) : m.start()]
    unit = _LENGTH_WORD_RE.search(m.group(0)) or _UNIT_AFTER_RE.match(m.string, m.end())
    return m.group(0) if _LIMIT_BEFORE_RE.search(before) or not unit else words
