"""A range of one setting's values written with its two ends (issue 24 item 4, s41-lists): 'concurrency 4 to
64', 'batch size 1-8', '并发 4 到 64', 'cards with 16-22GB of VRAM'. The parse reads one end and names
the other as not used; the answer sizes each end in a row of ``report.per_value`` (bot.core.per_value),
the ends being what a range asks about (the lightest and the heaviest case). Imported only where
bot.parse.value_list.listed finds no written list, or (:func:`length_range`) where no reader read a length.

A range of context lengths ('from 16k up to 1M tokens', 'between 8k and 32k', '上下文 16k 到 128k') gets no
rows: it is sized at its longer end, the shorter named as another setup (s42; every sequence must fit, as
bot.parse.negated_values reads '上下文 2k~4k', tests/test_len_reader.py). A memory range measured on the run
('显存占用 20-22G', 'memory around 20-22GB per card') is an observation, never card memories (s42).

Not a range of a setting: a count of GPUs ('2–8 cards' is read as a count range by bot.parse.count_forms),
days or hours ('1-2 天'), a version ('3.1'), a date ('2024-05-01'), a card's memories ('A100 40/80GB'),
counted things ('10k 到 50k 条'): each end must be the request's value of the setting or a number the parse
named as not used, and a length in k or M needs a length word beside it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.models import SizingRequest

RANGE_RE = re.compile(
    r"(?<![\d.\-/:])(\d{1,7})\s*(k|m(?!b)|gi?b?)?\s*(?:-|–|~|\b(?:up\s+)?to\b|\band\b|(?:一直)?到|至|和)\s*"
    r"(?:up\s+to\s+)?(\d{1,7})\s*(k|m(?!b)|gi?b?)?(?![\d.%\-/:])",
    re.I,
)
"""Two numbers joined as a range's ends: 'A-B', 'A to B', 'A up to B', 'between A and B', 'A 到 B', 'A 至 B';
a unit k (×1,024) or M (×1,048,576) after either end (the first's taken from the second's when it has none:
'16-128k'), or GB after the second (card memories: '16-22GB')."""
SETTING_WORDS = {
    "concurrency": ("concurren", "并发", "parallel request", "simultaneous", "同时"),
    "batch_size": ("batch", "批"),
    "seq_len": ("context", "seq", "length", "上下文", "长度", "序列", "ctx", "窗口"),
}
"""The words that name each setting near a range (within :data:`NEAR` characters before it or
:data:`AFTER` after it)."""
NEAR = 40
"""How far before a range its setting's word may be, in characters (one clause: 'throughput plateaus
between concurrency 4 and 16', 'at long context, from 16k up to 1M tokens')."""
AFTER = 12
"""How far after a range its setting's word may be ('16k to 128k context', '4-64 并发')."""
_UNIT = {"k": 1024, "m": 1024 * 1024}
"""'k' of a length is 1,024 tokens (the project's reading of '32k context': estimator seq_len 32,768);
'M' is 1,024 k ('1M context' = 1,048,576, Qwen2.5-1M's window)."""


def _value(digits: str, unit: str | None) -> float:
    return float(int(digits) * _UNIT.get((unit or "").lower(), 1))


HOST_RE = re.compile(r"(?<![a-z])(?:ram|system|disk|data|cpu|ssd|nvme|swap|dram|ddr)|内存|数据|硬盘")
"""Words after a range in GB that make it no card's memory ('64-128GB RAM', '16-32G 内存'; not 'VRAM')."""


MEASURED_BEFORE_RE = re.compile(
    r"\b(?:us(?:ed|es|ing|age)|around|about|approx\w*|roughly|peaks?|peaked|consum(?:es|ed|ing|ption)|occup\w*|allocat\w*"
    r"|reach\w*|is|was|are|were|shows?|showing|hits?|takes?|took|sits?|stays?)\b"
    r"|用到|用了|占用|占了|吃了|吃到|大概|大约|约|达到|到了|显示|每张卡|每卡|每个卡|单卡显存"
)
"""Words in the clause just before a range in GB that make it a figure measured on the run, never a list of
card memories (s42: 'memory around 20-22GB per card', 'the VRAM is 60-70GB', '每张卡显存用到 20-22G',
'占用 20-22G'; tests/test_round12_zh_forms.py pins such ranges as ``observed``)."""
MEASURED_AFTER_RE = re.compile(r"\s*(?:of\s+vram\s+)?(?:per\s+(?:card|gpu|device)|on\s+each|each|左右|上下)")
"""What after a range in GB makes it a measured figure ('20-22GB per card', '20-22G 左右')."""
MEASURED_WINDOW = 24
"""How far before a range a measuring word counts, in characters, within its clause (s42)."""


def _measured(s: str, m: re.Match[str]) -> bool:
    """Whether the range in GB ``m`` is a figure observed on the run (:data:`MEASURED_BEFORE_RE`,
    :data:`MEASURED_AFTER_RE`), not a list of the cards' memories ('cards with 16-22GB of VRAM')."""
    before = s[max(0, m.start() - MEASURED_WINDOW) : m.start()].lower()
    clause = re.split(r"[,，。;；?？!！]", before)[-1]
    return bool(MEASURED_BEFORE_RE.search(clause) or MEASURED_AFTER_RE.match(s, m.end()))


def _memory(s: str, m: re.Match[str], request: SizingRequest) -> tuple[str, list[float]] | None:
    """A range of card memories in GB ('cards with 16-22GB of VRAM', '16 到 24G 显存'): each end a row, when
    the request's memory is one end or none was read, no host word follows (:data:`HOST_RE`) and no word
    makes it a figure measured on the run (:func:`_measured`: 'memory around 20-22GB per card')."""
    lo, hi = float(m.group(1)), float(m.group(3))
    after = s[m.end() : m.end() + AFTER].lower()
    if not lo < hi <= 2048 or HOST_RE.search(after) or _measured(s.lower(), m):
        return None
    own = request.gpu_memory_gib
    return ("gpu_memory_gib", [lo, hi]) if own is None or own in (lo, hi) else None


def _joined_as_range(s: str, m: re.Match[str]) -> bool:
    """Whether ``m``'s 'and' / '和' joins a range's ends ('between 8k and 32k', '在 8k 和 32k 之间'), not the
    last two items of a list ('8k, 32k and 128k', bot.parse.value_list: a row per item, s42)."""
    joiner = s[m.end(2) if m.group(2) else m.end(1) : m.start(3)].strip().lower()
    if joiner not in ("and", "和"):
        return True
    return "between" in s[max(0, m.start() - 12) : m.start()].lower() or "之间" in s[m.end() : m.end() + 6]


COUNTED_AFTER_RE = re.compile(
    r"\s*(?:samples?|examples?|rows?|records?|requests?|users?|steps?|images?|docs?|documents?|conversations?"
    r"|pairs?|prompts?|queries|files?|lines?|条|个|样本|张|步|次|人|用户|请求|篇|轮)"
)
"""Words after a range that count things, never lengths ('10k to 50k samples', '10k 到 50k 条', s42)."""
_DIGIT_OR_BREAK = re.compile(r"[\d;；。]")


def _of_lengths(s: str, m: re.Match[str]) -> bool:
    """Whether the range ``m`` (lower case text ``s``) is of context lengths: a length word
    (:data:`SETTING_WORDS`) after it within :data:`AFTER` characters ('16k to 128k context'), or before it
    within :data:`NEAR` with no other number nor sentence break between ('context between 8k and 32k', 'at
    long context, from 16k up to 1M tokens'); never when a counted thing follows (:data:`COUNTED_AFTER_RE`:
    '上下文 4k，数据 10k 到 50k 条', s42)."""
    if COUNTED_AFTER_RE.match(s, m.end()):
        return False
    words = SETTING_WORDS["seq_len"]
    if any(w in s[m.end() : m.end() + AFTER] for w in words):
        return True
    before = s[max(0, m.start() - NEAR) : m.start()]
    at = max(before.rfind(w) for w in words)
    return at >= 0 and not _DIGIT_OR_BREAK.search(before, at)


def _named(parsed: ParseResult) -> set[str]:
    """The numbers the parse named as not used, as written ('16k', '64'), lower case."""
    return {t.strip().lower().replace(" ", "") for t, _ in parsed.unused_numbers}


def ranged(parsed: ParseResult, request: SizingRequest) -> tuple[str, list[float]] | None:
    """(setting, [low end, high end]) of a range of concurrency, batch size or context length written in
    the message (:data:`RANGE_RE`), its setting named just before it (:data:`SETTING_WORDS`), one end the
    request's value or both ends unread; (``"seq_len"``, []) for a range of lengths sized at its longer end,
    the shorter named (:func:`length_range`, bot.parse.negated_values: no rows); else None."""
    s = parsed.normalized or ""
    named = _named(parsed)
    for m in RANGE_RE.finditer(s):
        if (m.group(4) or "").lower().startswith("g"):  # a memory range in GB
            if found := _memory(s, m, request):
                return found
            continue
        if (m.group(2) or "").lower().startswith("g"):
            continue
        unit = m.group(4) or (m.group(2) if m.group(2) else None)
        lo, hi = _value(m.group(1), m.group(2) or m.group(4)), _value(m.group(3), unit)
        if not lo < hi or not _joined_as_range(s, m):
            continue
        near = s[max(0, m.start() - NEAR) : m.start()].lower() + " " + s[m.end() : m.end() + AFTER].lower()
        for key, words in SETTING_WORDS.items():
            if not any(w in near for w in words) or (key == "seq_len") != bool(unit):
                continue
            if key == "seq_len" and not _of_lengths(s, m):
                continue
            if key != "seq_len" and (m.group(2) or m.group(4)):
                continue
            own = getattr(request, key)
            ends = {
                m.group(1).lower() + (m.group(2) or "").lower(),
                m.group(3).lower() + (unit or "").lower(),
            }
            if key == "seq_len" and hi in (own, request.max_model_len):
                return key, []  # the length reader sized its longer end, the shorter named: no rows
            if own in (lo, hi) or (own is None and ends & named):
                return key, [lo, hi]
    return None


def length_range(steps: Any) -> None:
    """A range of context lengths no length reader read ('at long context, from 16k up to 1M tokens',
    'context between 8k and 32k', '上下文长度在 8k 和 32k 之间'): sized at its longer end, the shorter named
    as another setup, as bot.parse.negated_values sizes the ranges it reads ('上下文 2k~4k': every sequence
    must fit, tests/test_len_reader.py). Appends the ``seq`` role (value in tokens, 'k' ×1,024, 'M'
    ×1,048,576: :data:`_UNIT`) to ``steps.roles``; both ends must be numbers no reader used (in
    ``steps.unread_toks``) and a length word (:data:`SETTING_WORDS`) within :data:`NEAR` characters before
    or :data:`AFTER` after. Gated at its call site (bot.parse.negated_values.seq_role) by a length word."""
    from bot.parse.roles import Role

    s, toks = steps.s, getattr(steps, "unread_toks", None) or []
    for m in RANGE_RE.finditer(s):
        unit = m.group(4) or m.group(2)
        if not unit or unit.lower()[0] not in "km" or not _joined_as_range(s, m):
            continue
        lo, hi = _value(m.group(1), m.group(2) or unit), _value(m.group(3), unit)
        if not _of_lengths(s, m):
            continue
        ends = [t for t in toks if t.start in (m.start(1), m.start(3))]
        data = [r for r in steps.roles if r.role == "tokens" and r.tok.start == m.start(3)]
        ends += [r.tok for r in data if len(ends) == 1 and ends[0].start == m.start(1)]
        if lo < hi and len(ends) == 2:
            for role in data:  # '… context, from 16k up to 1M tokens': no 1M tokens of data
                steps.roles.remove(role)
                steps.f["tokens"] = None if steps.f.get("tokens") == role.value else steps.f.get("tokens")
            for tok in [t for t in ends if t in toks]:
                toks.remove(tok)
                if tok.raw.strip() in steps.unread:
                    steps.unread.remove(tok.raw.strip())
            steps.named_unused.append((ends[0].raw.strip(), "other_setup"))
            steps.roles.append(Role("seq", hi, ends[1]))
            return
