"""Follow-up phrasings that change one setting (s6 trial item 4): '并发改成500呢', 'change concurrency
to 500', 'epochs to 3' / '把epoch改成3' (s8 fix item 6), 'what about on 4 of them', 'what if we only
have 256'.

Kept apart from the role rules so that they read as one small set: a change verb between a setting's
name and its value is dropped before the numbers get roles, and a bare count after 'have' or 'on …
of them' in a message with no data noun is a GPU count.
"""

from __future__ import annotations

import re

from bot.parse.numbers import NumberToken
from bot.parse.regex import rc, words_gate

_SETTING = (
    r"(并发(?:数|量)?|上下文(?:长度)?|序列长度|concurrency|context(?:\s+length)?|ctx"
    r"|(?:训练)?轮数|\bepochs?(?:\s*数)?|num_train_epochs)"
)
CHANGE_VERB_RE = rc(
    _SETTING + r"\s*(?:改成|换成|改为|换为|变成|调到|调成|调整为|调整到|提到|提高到|加到|增加到|降到|降低到"
    r"|\bto\b|\bis\b|\bwere\b|\bwas\b|\bgoes\s+(?:up\s+)?to\b)\s*(?=\d)"
)
"""'并发改成500', 'concurrency to 500', 'context length is 32k', 'epochs to 3', '把epoch改成3': the
setting's name, then its value."""
_SETTING_WORDS = ("并发", "上下文", "序列", "concurren", "context", "ctx", "epoch", "轮数")
_SETTING_RE = words_gate(_SETTING_WORDS)


def drop_change_verbs(s: str) -> str:
    """The normalized text with the change verb between a setting and its value replaced by '='
    ('并发改成500' → '并发 = 500'), so the setting's rule reads the value (cheap substring gate first)."""
    if not _SETTING_RE.search(s):
        return s
    return CHANGE_VERB_RE.sub(r"\1 = ", s)


L_COUNT_OF_THEM = rc(r"(?:\bon|\bwith|\busing|\buse|\bonly|\bjust|\bwhat\s+about|\bhow\s+about)\s*$")
R_OF_THEM = rc(r"^\s*of\s+(?:them|these|those)\b")
L_ONLY_HAVE = rc(r"(?:\bonly|\bjust)\s+(?:have|got)\s*$|(?:只有|只剩|就只有|如果只有)\s*$")
R_BARE_END = rc(r"^\s*(?:呢|了|的话|then|instead|left)?\s*(?:[,.;:?!，。？！]|$)")
DATA_NOUN_RE = rc(
    r"samples?|examples?|rows?|records?|conversations?|pairs?|tokens?|条|样本|数据|语料|epochs?|轮"
)
"""Words that make 'N of them' a count of data ('10,000 samples, 2,000 of them long')."""


def followup_gpu_count(tok: NumberToken, s: str, left: str, right: str) -> bool:
    """Whether ``tok`` is a GPU count said the way a follow-up says it: 'what about on 4 of them',
    'with 16 of them', 'what if we only have 256', '如果只有256呢' -- a whole number with no magnitude,
    in a message that names no data."""
    if tok.mag is not None or tok.value != int(tok.value) or tok.value < 1:
        return False
    if R_OF_THEM.match(right):
        said = bool(L_COUNT_OF_THEM.search(left))
    else:
        said = bool(L_ONLY_HAVE.search(left) and R_BARE_END.match(right) and re.search(r"\d", right) is None)
    return said and not DATA_NOUN_RE.search(s)  # the whole message last: the local words are cheaper
