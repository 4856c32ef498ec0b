"""A serving throughput asked for: output tokens per second or per minute, and requests per second.

'5,000 tokens/s', '吞吐要 5k tok/s', '1M tokens per minute' ('1 million …'), '每分钟100万token', 'TPM 2M'
are a target for the whole service (``target_tokens_per_s``; per minute ÷ 60). Requests per second ('qps
20', '每秒 20 个请求') need the output tokens per request to become tokens/s: named, with that reason, not
guessed. A rate with a measuring word before it ('we get 3,000 tokens/s') is not a target, nor is a speed per
user ('each user should see 20 tok/s', '每个用户 30 token/s'): that is a per-sequence speed, named.
"""

from __future__ import annotations

import re

from bot.parse.cue_words import MEASURED
from bot.parse.numbers import parse_number
from bot.parse.regex import rc

_N = r"(?P<v>\d+(?:,\d{3})*(?:\.\d+)?\s*(?:[km]\b|million\b|万|亿)?)"
PER_MINUTE_RE = rc(
    r"(?<![a-z0-9.])" + _N + r"\s*(?:tokens?|toks?|词元)\s*(?:/\s*min(?:ute)?\b|per\s+min(?:ute)?\b|每分钟)"
    r"|每分钟\s*" + _N.replace("(?P<v>", "(?P<w>") + r"\s*(?:个\s*)?(?:tokens?|toks?|词元)"
    r"|tpm\s*[:=]?\s*"
    + _N.replace("(?P<v>", "(?P<y>")
    + r"|(?<![a-z0-9.])"
    + _N.replace("(?P<v>", "(?P<x>")
    + r"\s*tpm\b"
)
QPS_RE = rc(
    r"(?<![a-z0-9.])(?P<v>\d+(?:\.\d+)?)\s*(?:qps|rps|req(?:uest)?s?\s*"
    r"(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second))"
    r"|(?:qps|rps)\s*(?:大概|约|是|为|要|:|=|of|around|about)?\s*(?P<w>\d+(?:\.\d+)?)"
    r"|每(?:秒钟?|分钟)\s*(?P<x>\d+(?:\.\d+)?)\s*(?:个|条|次)?\s*(?:请求|request)"
    r"|(?<![a-z0-9.])(?P<y>\d+(?:\.\d+)?)\s*(?:个|条|次)?\s*请求\s*(?:/\s*秒|每\s*秒钟?)"
    r"|(?<![a-z0-9.])(?P<z>\d+(?:\.\d+)?)\s*(?:rpm\b|req(?:uest)?s?\s*(?:/\s*min(?:ute)?\b|per\s+minute|a\s+minute))"
)


def _value(m: re.Match[str]) -> tuple[str, float] | None:
    raw = next(g for g in m.groups() if g is not None)
    value = parse_number(raw.replace(" ", ""))
    return (raw, value) if value and value > 0 else None


PER_SECOND_FIRST_RE = rc(
    r"每秒\s*(?:(?:稳定|持续|平均|都|能够?|可以|要|需要)\s*){0,2}(?:输出|生成|达到|跑|到|处理|吐)?\s*"
    r"(?:(?:超过|达到|到|至少|不低于|高于)\s*)?"
    r"(?P<v>\d+(?:,\d{3})*(?:\.\d+)?\s*(?:[km]\b|万)?)\s*(?:个\s*)?(?:tokens?|toks?|词元)"
)
"""'每秒5000 token', '每秒要2000 token输出': a rate written with 每秒 before the number (TPS_RE reads
'5000 tokens/s' and '5000 token每秒'); round 35 zh: an adverb, a modal or a bound between ('每秒稳定输出
超过 100 个 token', '每秒能到 35 个 token')."""


PER_CARD_SECOND_RE = rc(
    r"(?:每卡|单卡|每张卡|每块卡|单张卡|每张\s*gpu|每个\s*gpu|每块\s*gpu|单张\s*gpu)\s*(?:的\s*)?(?:训练\s*)?"
    r"(?:吞吐|速度)?\s*(?:是|为|能|可以|大概|约|能到|可达)?\s*每秒\s*(?:能|可以|大概|约|处理|跑|训练|能跑)?\s*"
    r"(?P<v>\d+(?:,\d{3})*(?:\.\d+)?)\s*(?P<k>[k千万])?\s*(?:个\s*)?(?:tokens?|toks?)"
)
"""s42 (a known zh fault, round 38): a training rate per card written with 每秒 before the number ('每张卡每秒
3000 token', '单卡每秒能跑 2k 个 token'): the per-GPU tokens/s, as '每卡 3000 token/s' already is."""


def per_card_rate(s: str, m: re.Match[str]) -> str:
    """``s`` with the per-card rate ``m`` of :data:`PER_CARD_SECOND_RE` written as TPS_RE's per-GPU form
    ('3000 tok/s 每卡', padded to the match's length so later offsets hold); unchanged when it is longer."""
    scale = {"k": 1e3, "千": 1e3, "万": 1e4}.get(m.group("k") or "", 1.0)
    value = float(m.group("v").replace(",", "")) * scale
    text = f"{value:g} tok/s 每卡"
    return (
        s
        if len(text) > m.end() - m.start()
        else s[: m.start()] + text.ljust(m.end() - m.start()) + s[m.end() :]
    )


def tokens_per_second_first(s: str) -> tuple[float, re.Match[str]] | None:
    """A tokens/s rate written as '每秒 N token' in the normalized text ``s``, and its match."""
    m = PER_SECOND_FIRST_RE.search(s) if "每秒" in s else None
    got = _value(m) if m else None
    return (got[1], m) if got and m else None


def tokens_per_minute(s: str) -> tuple[float, re.Match[str]] | None:
    """Output tokens per second from a per-minute rate in the normalized text ``s``, and its match."""
    m = PER_MINUTE_RE.search(s)
    got = _value(m) if m else None
    return (got[1] / 60, m) if got and m else None


def requests_per_second(s: str) -> tuple[str, re.Match[str]] | None:
    """A requests-per-second figure as typed ('qps 20'), and its match."""
    m = QPS_RE.search(s)
    got = _value(m) if m else None
    return (m.group(0).strip(), m) if got and m else None


PER_USER_BEFORE_RE = rc(
    r"(?:each|every|per|single)[\s\-]+(?:user|request|sequence|stream|session)"
    r"|每个?(?:用户|请求|人|序列)|单(?:用户|请求|序列)"
)
PER_USER_AFTER_RE = rc(
    r"^\s*(?:/\s*|per\s+|each\s+|for\s+each\s+|a\s+)(?:user|request|sequence|stream|session)\b"
    r"|^\s*每个?(?:用户|请求|人)"
    r"|^\s*each\b(?=\s*(?:[,.;:!?)]|$|(?:for|and|with|at|on|in|to|if|while)\b))"
)
"""After a rate: 'per user', '/user', '每个用户', or a bare 'each' closing its phrase ('at 20 tokens/s each,
4k context': s41 lead — it was read as a 20 tokens/s total target). 'each GPU' / 'each of …' do not match."""


CARD_SUBJECT_RE = rc(
    r"(?i)(?:\bgpus?|\bcards?|\bnodes?|\b[a-z]{1,4}-?\d{2,4}[a-z]*)(?:\s*\d+\s*gb?)?\s+"
    r"(?:(?:that|which)\s+)?(?:(?:can|could|each)\s+)?"
    r"(?:at|do|does|did|get|gets|give|gives|run|runs|reach|reaches|push|pushes|deliver|delivers|hit|hits"
    r"|manage|manages|generate|generates|output|outputs)\s+(?:about\s+|around\s+|~\s*|≈\s*)?$"
)
"""GPUs as the subject of a rate right before it: 'our 8 H100s do', '4 L40S that do', '8 GPUs at', 'the
A100 80GB gets' — a card word ('GPUs', 'cards', 'nodes') or a card's name shape (letters then 2–4 digits:
H100, L40S, MI300X, RTX4090), then a verb of producing: a bare 'each' after the rate is then each GPU's
(s41 review #3)."""
BARE_EACH_RE = rc(r"^\s*each\b")
"""A bare 'each' right after a rate."""


def per_user_rate(s: str, start: int, end: int) -> bool:
    """Whether the rate at ``s[start:end]`` is a speed per user or per request (the words just before
    or after it say so), not the service's throughput. A bare 'each' after it is each GPU's when GPUs are
    its subject right before (:data:`CARD_SUBJECT_RE`: 'our 8 H100s do 3000 tokens/s each')."""
    before, after = s[max(0, start - 40) : start], s[end : end + 24]
    if PER_USER_BEFORE_RE.search(before):
        return True
    if not PER_USER_AFTER_RE.match(after):
        return False
    return not gpus_each_rate(s, start, end)


def gpus_each_rate(s: str, start: int, end: int) -> bool:
    """Whether the rate at ``s[start:end]`` is closed by a bare 'each' with GPUs its subject right before
    ('4 L40S that do 1500 tokens/s each'): what each of the user's GPUs does, no target (s41 review #3)."""
    after = s[end : end + 24]
    return bool(BARE_EACH_RE.match(after) and CARD_SUBJECT_RE.search(s[max(0, start - 40) : start]))


MEASURED_RE = rc(MEASURED)
"""Words that report a figure as measured (:data:`bot.parse.cue_words.MEASURED`)."""
ASKED_RE = rc(
    r"(?<![a-z])(?:how|what)\s+(?:can|could|do|would|should|to|might)(?![a-z])"
    r"|(?<![a-z])(?:want|wants|need|needs|trying|try|aim|hope|like|order)\s+to\s+(?:get|reach|hit|achieve)"
    r"|(?<![a-z])be\s+able\s+to\s+(?:get|reach|hit|achieve)"
    r"|怎么|怎样|如何|目标|(?:多少|几)[^，,。;；!?！？]{0,12}才能"
    r"|(?:想要?|希望)\s*(?:能够?|可以)?\s*(?:达到|跑到|跑出|做到|提升到|提高到|到)"
)
"""A rate asked how to reach ('How can I achieve 30 tokens per second', 'we want to reach 2000 tok/s',
'怎么才能达到 30 tokens/s', '如何达到每秒 500 token', '希望达到 300 tokens/s', '要几张卡才能达到 100
tokens/s'): a verb of reaching before it asks, it reports nothing (round 29 en: 'achieve' read as
measured left the target unread). 'able to' asks only in its plain form ('to be able to reach'), '才能'
only after a question word, 想 / 希望 only before a verb of reaching: 'we were able to reach 25 tokens/s',
'跑了半天才能达到 15 tokens/s', '我想知道为什么只有 20 tokens/s' report a speed (s34 review)."""


_MODAL_CLAUSE_RE = rc(
    r"(?:能|可以|能否|可否|会不会|有没有可能)[^，,。;；!?！？\n]*$"
    r"|(?:^|[!?\n]|\.\s)\s*(?:can|could|will|would|does|do|is\s+it\s+possible\s+to)\b(?:(?![!?\n]|\.\s).)*$"
)
"""Before a rate, in its clause: a modal that asks whether it can be reached ('每秒能到', '真的能每秒…输出',
'Can one RTX 3060 … reach')."""
_YES_NO_AFTER_RE = rc(r"[^，,。;；!！\n]{0,24}?(?:吗|么|嘛|\?|？)")
"""After it, in the same clause: the question's end ('… 个 token 吗', '… tokens/s?')."""


def asked_yes_no(s: str, start: int, end: int) -> bool:
    """Round 35 zh: whether the rate at ``s[start:end]`` is asked as a yes/no question ('单卡 4090 跑 14B
    每秒能到 35 个 token 吗', '真的能每秒稳定输出超过 100 个 token 吗', 'Can one RTX 3060 … reach 100
    tokens/s?'): a modal before it in its clause and the question's end after it. A speed asked about is
    the target, not one measured ('实测能到每秒 35 个 token，换 A100 呢' has no question after it)."""
    return (
        bool(_YES_NO_AFTER_RE.match(s, end))
        and _MODAL_CLAUSE_RE.search(s[max(0, start - 80) : start]) is not None
    )


WANTED_AFTER_RE = rc(
    r"[,;，；]\s*(?:and\s+|but\s+|so\s+)?(?:we\s+|i\s+)?(?:need|want|require|target|aim\s+for)(?![a-z])"
    r"|(?:but|and|so)\s+(?:we|i)\s+(?:need|want|require)(?![a-z])"
    r"|[,;，；]\s*(?:但是?|而|我们?|现在)?\s*(?:要求?|需要|想要|希望|目标(?:是|为)?)"
)
"""After a measuring word and before a rate, a new clause that asks ('实测 2000 tok/s，要 10000 tok/s',
'能到 2000 tok/s，目标 10000', 'we get 2,000 tok/s, we need 10,000 tok/s', '… and we need 10k'): the
later rate is the target, the measured one an observation (s43 issue 24: the measuring word of the first
clause made the second rate measured too, or left it unread)."""


LATER_WANTED_RE = rc(
    r"(?<![a-z])(?:need|needs|require[sd]?|target|want|wants|goal|aim|at\s+least|minimum|sla|for|reach"
    r"|how\s+(?:many|much)|if|hope|could|would|ideally)(?![a-z])|要|需|目标|想|希望|期望|至少|不低于|多少|几"
    r"|如果|假如|要是|若|接近"
)
"""Before a rate that follows one reported as measured: the words that ask for it ('need', 'for', 'how
many', '要', '目标', '几'), or wish it ('if it could', '如果能接近 10 tokens/s'); or :data:`ASKED_RE`'s
'how can I achieve'. Without one the later rate is another measurement ('… and 2,400 tok/s with fp8'),
named as observed, never the target."""


def reported(before: str) -> bool:
    """Whether the words right ``before`` a rate report it as measured (:data:`MEASURED`), not ask how to
    reach it (:data:`ASKED_RE`) nor open a clause that asks after the measuring word
    (:data:`WANTED_AFTER_RE`: '实测 2000 tok/s，想要 10000 tok/s')."""
    seen = [m.end() for m in MEASURED_RE.finditer(before)]
    if not seen or ASKED_RE.search(before) is not None:
        return False
    return WANTED_AFTER_RE.search(before, seen[-1]) is None


def _why_seen(before: str) -> bool:
    """Whether the sentence asks why a speed is what it is ('Can you explain why I only get 20 tokens/s?',
    '为什么只有 20 tokens/s'): a speed seen, not one asked for, unless it also asks how to reach one."""
    low = before.lower()
    return ("why" in low or "为什么" in before or "为啥" in before) and ASKED_RE.search(before) is None


def rate_asked(fields: dict, unused: list, raw: str, value: float, before: str, asked: bool = False) -> None:
    """A rate ``raw`` no other reader placed: the target asked for (``fields``), or a speed the words
    ``before`` it report (:func:`reported`: 'we were able to reach 25 tokens/s'), named as observed;
    ``asked``: a yes/no question asks it (:func:`asked_yes_no`: 'Can one 3060 reach 100 tokens/s?'), unless
    it asks why the speed is what it is (:func:`_why_seen`: a speed seen)."""
    if _why_seen(before) or (reported(before) and not asked):
        unused.append((raw, "observed"))
    else:
        fields["target_tokens_per_s"] = value


RATE_QUESTION_RE = rc(r"多少|几(?!\s*\d)|(?<![a-z])(?:how\s+(?:many|much|fast)|what)(?![a-z])")
"""A question word asking for a rate: '多少', '几', 'how many/much/fast', 'what'."""


def rate_asked_between(s: str, end: int, start: int, cue_end: int) -> bool:
    """Whether the rate unit at ``s[start:cue_end]``, after a number ending at ``end``, is asked for, not the
    number's unit: a question word stands between them ('32k how many tokens/s', '32k 每条多少 token/s'),
    or right after a '每秒' unit ('32k 每秒多少 token'). The number is then no measured figure (s37)."""
    if RATE_QUESTION_RE.search(s, end, start):
        return True
    return s.startswith("秒", cue_end - 1) and RATE_QUESTION_RE.match(
        s, cue_end + (s[cue_end : cue_end + 1] == " ")
    )
