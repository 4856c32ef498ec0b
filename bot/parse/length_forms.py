"""How people write a sample's length (issue 24 item 4, round 4 of the real questions: context phrasing),
written as the form the length rules of :mod:`bot.parse.roles` read ('长度 2000', 'sequence length 2000'):

- **Words between the length and its value** ("个别数据长度会达到 2000 左右", "样本长度一般在 1500 上下",
  "sample length of up to 2000", "input length around 3k"): the verbs and hedges dropped.
- **Samples that run to a length** ("some samples run to about 2000 tokens", "documents reach 8k tokens",
  "conversations go up to 4096 tokens"): the length of the longest sample, 'sequence length N tokens'.
- **The longest of them, without a unit** ("序列最长 15K", "单条数据最长 8k", "sequences of at most 8k", s29):
  the sequence length, as "样本最长 8k tokens" and "samples up to 8k tokens" already were — before, the bare
  value was unread in both languages while the same phrase with 'tokens' was read.
- **A cap on the tokens of one sequence, prompt and answer together** ("maximum total tokens (input + output)
  set to 512", "max total tokens of 4096", round 17: DeepSpeed-Chat's log line 'Setting maximum total tokens
  (input + output) to 512'): the sequence length, as TGI's ``--max-total-tokens`` is (the flag table).
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_N = r"(?P<n>\d[\d,]*(?:\.\d+)?\s*k?)(?!\d|\.\d)"
LENGTH_WORDS_ZH_RE = rc(
    r"(?P<w>(?:数据|样本|文本|输入|句子|对话|单条(?:数据)?|每条(?:数据)?|序列)\s*(?:的)?\s*长度)\s*"
    r"(?:会|能|可能|可以|最多|最长|一般|通常|大多|基本|普遍)*\s*(?:达到|到达|到|超过|有|在|约|大约|大概|接近|为|是)\s*"
    r"(?:了)?\s*(?:约|大约|大概|接近)?\s*" + _N + r"\s*(?:左右|上下|以上|以内)?"
)
"""'个别数据长度会达到 2000 左右' → '数据长度 2000'."""
LENGTH_WORDS_EN_RE = rc(
    r"\b(?P<w>(?:sample|example|sequence|input|document|conversation)\s+lengths?)\s+"
    r"(?:(?:is|are|of|can\s+be|goes?|reach(?:es|ing)?|up\s+to|at\s+most|around|about|roughly|~)\s*)+" + _N
)
"""'sample length of up to 2000' → 'sequence length 2000' (the length a sample may reach: the sequence)."""
RUN_TO_RE = rc(
    r"\b(?:samples?|examples?|documents?|conversations?|sequences?|inputs?)\s+"
    r"(?:run|runs|go|goes|get|gets|reach|reaches|are|is)\s+(?:up\s+)?(?:to\s+)?(?:about\s+|around\s+|roughly\s+|~\s*)?"
    + _N
    + r"\s*(?:tokens?|toks?)\b(?:\s+long)?"
)
"""'some samples run to about 2000 tokens' → 'sequence length 2000 tokens' (the longest sample is the
sequence trained at, as round 3's 'the longest about 32k tokens' is)."""
TOTAL_TOKENS_RE = rc(
    r"\b(?:(?:max(?:imum)?|the)\s+)?total\s+tokens?\s*(?P<q>\(\s*(?:input|prompt)s?\s*\+\s*"
    r"(?:output|response|completion|generation)s?\s*\)\s*)?(?:(?:is|are|was|set|capped)\s+)?"
    r"(?:(?:to|of|at|=|:)\s*)?" + _N + r"(?!\s*[bBmMtT]\b)(?!\s*(?:billion|million|trillion)\b)"
)
"""'maximum total tokens (input + output) set to 512' → 'sequence length 512': only with 'max(imum)' before
it or the '(input + output)' after it (a dataset's 'total tokens' is a count of tokens seen, never one
sample)."""
LONGEST_ZH_RE = rc(
    r"(?P<w>(?:单条|每条)?(?:序列|样本|数据|文本|输入|对话|句子)|单条|每条)\s*最长\s*(?:只有|可达|能到|会到|达到|到|为|是|有)?\s*"
    + _N
    + r"(?![k\d.])(?!\s*(?:条|个|份|篇|万|亿|samples?|rows?))"
)
"""'序列最长 15K', '单条数据最长 8k' → '序列长度 15k' (the longest sample: the sequence trained at)."""
LONGEST_EN_RE = rc(
    r"\b(?:sequences?|inputs?)\s+(?:(?:are|is|of)\s+)?(?:at\s+most|up\s+to|no\s+longer\s+than)\s+"
    + _N
    + r"(?![k\d.])(?!\s*(?:samples?|rows?|examples?|sequences?|gpus?|cards?|b\b|m\b))"
)
"""'sequences of at most 8k', 'inputs up to 4096' → 'sequence length 8k'."""
GATE = re.compile("长度|length|run|reach|go up|get up|total token|最长|at most|up to|no longer")


def length_forms(s: str) -> str:
    """The normalized text ``s`` with a sample's length written right after its length word."""
    return length_words(s) if GATE.search(s) else s


def length_words(s: str) -> str:
    """:func:`length_forms` past its gate (:data:`GATE`; tested at the call in bot.parse.count_forms)."""
    if "长度" in s:
        s = LENGTH_WORDS_ZH_RE.sub(lambda m: f"{m.group('w')} {m.group('n')} ", s)
    if "length" in s:
        s = LENGTH_WORDS_EN_RE.sub(_length_words_en, s)
    if "total token" in s:
        s = TOTAL_TOKENS_RE.sub(_total_tokens, s)
    if "最长" in s:
        s = LONGEST_ZH_RE.sub(lambda m: f"序列长度 {m.group('n')} ", s)
    if "sequence" in s or "input" in s:
        s = LONGEST_EN_RE.sub(lambda m: f"sequence length {m.group('n')}", s)
    return RUN_TO_RE.sub(lambda m: f"sequence length {m.group('n')} tokens", s)


def _length_words_en(m: re.Match[str]) -> str:
    """'sample length of up to 2000' → 'sequence length 2000'; an input's stays the input's ('an input length
    of 32' → 'input length 32', as 'input length 32' and '输入长度 32' are read: the prompt of a serving
    request, round 43 en)."""
    word = "input length" if m.group("w").startswith("input") else "sequence length"
    return f"{word} {m.group('n')}"


def _total_tokens(m: re.Match[str]) -> str:
    capped = m.group("q") or re.match(r"max", m.group(0), re.I)
    return f"sequence length {m.group('n')} " if capped else m.group(0)
