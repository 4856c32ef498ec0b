"""How people write a setting and its value in prose, read before the numbers get roles (issue 24 items
2 and 4; round 2 of the real questions, tests/data/real_questions/zh_r2.json).

- **An assignment verb between a training setting and its value** ('batchsize 只能设成 1', 'batch size
  设为 4', 'max_length 设置为 2048', 'batch size set to 2', 'set the batch size to 2'): the verb is
  replaced by '=' so the setting's own rule reads the value, as it reads 'batchsize=1'. Serving
  settings changed in a follow-up ('并发改成500') are :mod:`bot.parse.followup_words`.
- **A value, then a change to another** ('cutoff_len 一开始是 8192，改成 6144', 'batch size was 8 at
  first, then I lowered it to 2'): the value after the change is the setting; the first is named as not
  used.
- **A bit width written in Chinese** ('4 比特量化', '8位量化'): the same as '4bit' (比特 is the loanword
  for bit; 位 is bit only before a quantization word: '4位同学' is four people).
- **A count times a memory glued with '*'** ('8*40G 的卡'): '*' is markup to the normalizer, so it is
  written 'x' first ('8 x 40G', read as '8 x 40GB GPUs' is).

Each rule is gated by a cheap substring test (most messages have none of them).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_SETTING = (
    r"(batch[\s_\-]*size|batchsize|\bbs|micro[\s_\-]*batch(?:[\s_\-]*size)?|mini[\s_\-]*batch(?:[\s_\-]*size)?"
    r"|gradient[\s_\-]*accumulation(?:[\s_\-]*steps)?|grad[\s_\-]*accum\w*|梯度累[积加](?:步数)?"
    r"|cutoff[\s_\-]*len(?:gth)?|max[\s_\-]*(?:seq(?:uence)?[\s_\-]*)?len(?:gth)?|序列长度|最大长度|(?<![a-z])长度"
    r"|num[\s_\-]*train[\s_\-]*epochs|epochs?|训练轮数|轮数|lora[\s_\-]*(?:rank|r)\b|(?<![a-z_])rank\b"
    r"|tensor[\s_\-]*parallel(?:[\s_\-]*size)?|张量并行(?:数)?|\btp)"
)
ASSIGN_VERB_RE = rc(
    _SETTING + r"\s*(?:(?:只能|只|就|都|也|可以|还是|已经|最多|最大)\s*)?"
    r"(?:设置为|设置成|设置到|设定为|设成|设为|设到|调成|调为|调到|调整为|调整到|开到|开成|设了|设"
    r"|(?:is\s+|was\s+)?set\s+(?:to|at|as)\b)\s*(?=\d)"
)
"""'batchsize 只能设成 1', 'micro batch 设为 2', 'lora rank 调到 64', 'rank 设 64', 'batch size (is) set to
2'."""
SET_THE_SETTING_RE = rc(r"\bset(?:ting)?\s+(?:the\s+|my\s+|our\s+)?" + _SETTING + r"\s+(?:to|at)\s+(?=\d)")
"""'set the batch size to 2', 'setting micro batch size at 4': the verb before the setting."""
_VERB_WORDS = ("设", "调", "开", "set")
_VERB_GATE = re.compile("|".join(map(re.escape, _VERB_WORDS)))  # one C-level search, not a loop

CHANGED_LATER_RE = rc(
    _SETTING + r"\s*(?:(?:一开始|起初|原来|本来|最开始|最初|开始|默认)\s*)?"
    r"(?:是|为|设的?|用的?|设为|=|:|\bwas\b|\bof\b|\bat\b)?\s*(?P<old>\d[\d.,]*\s*k?)(?![\d.])"
    r"(?P<mid>[^0-9]{0,40}?)(?:后来|然后|再|又|\bthen\s+(?:i\s+|we\s+)?)?\s*"
    r"(?:改成|改为|换成|调到|调成|降到|降低到|减到|减少到|改到|减为|降为|提到|加到"
    r"|(?:lowered|reduced|dropped|cut|changed|set|decreased|increased|raised)\s+(?:it\s+)?to)\s*"
    r"(?=\d[\d.,]*\s*k?(?![\d.])(?!\s*(?:张|卡|台|块|个?节点|nodes?\b|gpus?\b|cards?\b|x\b|×|[ahblv]\d|rtx"
    r"|days?\b|天|小时|hours?\b|weeks?\b|周|个?月|months?\b)))"
)
"""'cutoff_len 一开始是 8192 …，改成 6144', 'batch size was 8 at first, then I lowered it to 2': the value
after the change is the setting (the job asked about); the first is named as not used. A number with a
card, count or time after it ('后来加到8张A100', 'increased to 8 A100s') is not the setting's new value."""
_CHANGE_WORDS = ("改", "换", "调", "降", "减", "提到", "加到", " to ")
_CHANGE_GATE = re.compile("|".join(map(re.escape, _CHANGE_WORDS)))

BIT_WORD_RE = rc(
    r"(?<![\d.])([2-8])\s*(?:比特(?!币)|位(?=\s*(?:量化|整数|精度|权重|加载|的?\s*(?:gptq|awq|int))))"
)
"""'4 比特量化', '8位量化', '4位精度' → '4bit' (never '比特币', never '4位同学')."""

COUNT_STAR_MEMORY_RE = rc(r"(?<![\d.])(\d{1,3})\s*\*\s*(?=\d{2,3}\s*g(?:b|ib)?(?![a-z0-9]))")
"""'8*40G', '4 * 24GB': a count of cards times each one's memory."""


def read_setting_verbs(s: str) -> str:
    """The normalized text ``s`` with each rule of this module applied (see the module docstring)."""
    if _CHANGE_GATE.search(s):
        s = CHANGED_LATER_RE.sub(r" 原先 \g<old>\g<mid> \1 = ", s)
    if _VERB_GATE.search(s):
        s = ASSIGN_VERB_RE.sub(r"\1 = ", s)
        if "set" in s:
            s = SET_THE_SETTING_RE.sub(r"\1 = ", s)
    if "比特" in s or "位" in s:
        s = BIT_WORD_RE.sub(r"\1bit ", s)
    if "*" in s:
        s = COUNT_STAR_MEMORY_RE.sub(r"\1 x ", s)
    return s
