"""Each sample's length said beside the sample count or as an average (trial s24-2 #1, #7).

'50k samples at ~800 tokens', '5万条, 800 token左右', 'average length 1500 tokens', '平均长度1500 token'
give how long each training sample is, never the dataset's total nor the longest length allowed:

- a token count right after a count of samples, joined by 'at'/'of'/'with'/'each' or a comma, is each
  sample's length ('50k samples at 8k context' stays the context: only a count of *tokens* is read);
- a total of tokens below the count of samples would give each sample less than one token, which no
  sample has (a sample holds at least one token by definition), so it is each sample's length;
- a stated average length is the average (the time is sized at it, with no 'upper bound' warning), not
  the maximum sequence length ('平均长度' beside '长度' reads as a length, the 平均 decides).

Serving questions are left alone (a request's length is its context, :mod:`bot.parse.more_roles`)."""

from __future__ import annotations

from operator import attrgetter

from bot.parse.regex import rc
from bot.parse.roles import Role
from bot.parse.sample_nouns import SAMPLE_NOUNS

_ABOUT = (
    r"(?:about|around|roughly|approx(?:imately|\.)?|~|≈|约|大约|大概|差不多|平均|on\s+average|avg\.?|\s)*"
)
L_COUNT_THEN_LENGTH = rc(
    r"\d[\d.,]*\s*(?:[km]|万|千|百万)?\s*"
    rf"(?:(?:training\s+|sft\s+|chat\s+)?(?:samples?|examples?|rows?|records?|conversations?|{SAMPLE_NOUNS})"
    r"|条(?:\s*(?:数据|样本|对话|样例))?)"
    rf"\s*(?:[,，、]\s*)?(?:(?:at|of|with|each)\b|每条)?\s*{_ABOUT}$"
)
"""Before the length: a count of samples and a joining word ('50k samples at ~', '5万条, ')."""
L_NOUN_IS_LENGTH = rc(
    r"(?:\b(?:each|every|some|many|most|all|few|several|our|my|the|these|those)\s+)"
    rf"(?:training\s+)?(?:samples?|examples?|rows?|records?|conversations?|{SAMPLE_NOUNS})\s+"
    r"(?:are|is|have|has|reach(?:es)?|runs?|contains?|can\s+be|go(?:es)?)\s+"
    rf"(?:(?:up\s+to|as\s+long\s+as|over|at\s+most)\s+)?{_ABOUT}$"
)
"""Before the length: the samples said to be that long ('some records are about 30000 tokens', 'each
example has ~900 tokens'; round 27 en: the 30000 was read as the data's total, the 2048 default sized).
A determiner before the noun: 'records are 3 GB' of a corpus is no sample's length (a count of tokens
must follow, :data:`R_TOKEN_COUNT`)."""
L_AVERAGE_LENGTH = rc(
    r"(?:平均|averag(?:e|es|ing)|mean|avg\.?)\s*(?:的)?\s*(?:样本|sample|sequence|序列|token)?\s*"
    r"(?:长度|length|len)\s*(?:是|为|约|大概|大约|[:：~≈]|of|is|about|around|roughly|\s)*$"
)
"""Before the length: an average length ('average length 1500', '平均长度约 1500')."""
R_TOKEN_COUNT = rc(
    r"^\s*(?:tokens?|toks?|词元)(?![a-z])(?!\s*/\s*s)(?!\s*per\s+sec)(?!\s*(?:context|window|上下文))"
)
"""After the length: a count of tokens, not a rate ('800 tokens/s') nor a context ('8k tokens context')."""
_ROLE_OF = attrgetter("role")
LENGTHS = frozenset(("tokens", "seq"))
"""The roles a sample's length is misread as: the data's total ('tokens') or the length allowed ('seq')."""


def each_sample_length(role: Role, s: str, stage: str | None) -> Role | None:
    """``role`` read as each sample's length (``tps``, tokens) when the text around it says so; None: not.

    ``s`` is the normalized text; only a token count of a role in :data:`LENGTHS` (the caller checks, to
    spare a call) in a training question (``stage`` not 'inference') written without M/B/T is read again."""
    tok = role.tok
    if stage == "inference" or tok.mag not in (None, "k"):
        return None
    left = s[max(0, tok.start - 48) : tok.start]
    if L_AVERAGE_LENGTH.search(left[-32:]):  # '平均长度1500' (a unit may be left out: the 长度 says it)
        return Role("tps", role.value, tok, extra="tokens")
    if R_TOKEN_COUNT.match(s[tok.end : tok.end + 24]) and (
        L_COUNT_THEN_LENGTH.search(left) or L_NOUN_IS_LENGTH.search(left)
    ):
        return Role("tps", role.value, tok, extra="tokens")
    return None


def fewer_tokens_than_samples(roles: list[Role]) -> list[Role]:
    """``roles`` with a total of tokens below the count of samples read as each sample's length: fewer
    tokens than samples would put less than one token in each ('5万条, 800 token左右'). Only when no
    length per sample was read and the count is written without M/B/T."""
    kinds = list(map(_ROLE_OF, roles))  # C calls: the parse-call budget (tests/test_parse_render_speed.py)
    if "samples" not in kinds or "tokens" not in kinds or "tps" in kinds:
        return roles
    samples = roles[kinds.index("samples")].value
    return [
        Role("tps", r.value, r.tok, extra="tokens")
        if r.role == "tokens" and r.tok.mag in (None, "k") and r.value < samples
        else r
        for r in roles
    ]
