"""Chinese phrasings of the same settings that the readers of the working records did not see (issue 24,
paraphrase robustness: tests/data/real_questions/paraphrases_zh.json), rewritten into the form those
readers know, before the numbers get roles.

- **A setting verb between a context word and its length** ('上下文开 1M', 'ctx 拉到 32k', '上下文长度给到
  8k', 'max_model_len 设置成 1M'): the verb becomes '=', as 'batchsize 设成 1' does in
  :mod:`bot.parse.setting_verbs` ('上下文 = 1M' is read as the context sized).
- **A length before its length word** ('2048 token 长度', '8k 的上下文长度', '4096 个 token 的序列长度'):
  the length word is written first ('长度 = 2048'), as '默认 token 长度为 2048' reads; a bare '2048
  token' stays the token count it is elsewhere.

Each rule is gated by a cheap substring test.
"""

from __future__ import annotations

from bot.parse.regex import rc

_CONTEXT_WORD = (
    r"(上下文(?:长度|窗口)?|(?<![a-z_])ctx|(?<![a-z_])context(?:[\s_]*(?:length|len|window))?"
    r"|max[\s_\-]*model[\s_\-]*len|序列长度|最大长度|窗口)"
)
_SET_VERB = (
    r"(?:(?:直接|就|都|也|可以|想|要|得|需要|最多|最大|至少)\s*)?"
    r"(?:开到|开成|打开到|拉到|拉满到|拉满|拉长到|给到|给|调到|调成|调整到|调整为|设置为|设置成|设置到|设成|设为|设到"
    r"|改到|改成|改为|加到|提到|提高到|扩到|扩展到|开|设)"
)
CONTEXT_VERB_RE = rc(_CONTEXT_WORD + r"\s*" + _SET_VERB + r"\s*(?=\d)")
"""'上下文开 1M', 'ctx 拉到 32k', '上下文长度给到 8k', 'max_model_len 设置成 1M': a context word, a setting
verb, the length."""
_CONTEXT_GATE = rc(r"上下文|ctx|context|model[\s_\-]*len|长度|窗口")

LENGTH_BEFORE_WORD_RE = rc(
    r"(?<![\d.a-z])(?P<n>\d+(?:\.\d+)?\s*k?)\s*(?:个\s*)?tokens?\s*(?:的\s*)?"
    r"(?P<w>上下文长度|上下文|序列长度|长度|窗口)"
)
"""'2048 token 长度', '8k token 的上下文', '4096 个 token 的序列长度': a length, then its length word."""


def read_zh_phrasing(s: str) -> str:
    """The normalized text ``s`` with each rule of this module applied (see the module docstring)."""
    if _CONTEXT_GATE.search(s):
        s = CONTEXT_VERB_RE.sub(r"\1 = ", s)
        if "token" in s:
            s = LENGTH_BEFORE_WORD_RE.sub(r" \g<w> = \g<n> ", s)
    return s
