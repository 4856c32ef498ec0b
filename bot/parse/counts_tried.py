"""Two card counts tried in one message, both the job's: a range of counts (issue 24, session 16).

People who hit an out-of-memory error often say they tried more than one count of the same card:
"7 卡和八卡都试过", "只用了 7 卡，试了一下八卡也是 OOM", "4 张、8 张都跑不起来", "I tried both 4 and 8
GPUs", "OOMs on 4 A100s, and on 8 GPUs too". Both counts are the job's (neither is another setup's nor
an observation), so the request is sized from the smaller, up to the larger, as "4 or 8 L40S" is
(``gpu_count`` and ``gpu_count_max``). A change of setup ("--tp-size 2 … change it to 4", "改成 4 卡")
is not a try of both and is left to the structure reader.
"""

from __future__ import annotations

import re

from bot.parse.regex import rc
from bot.parse.role_left import ONE_CARD
from bot.parse.roles import Role

CUES = ("都", "也", "试", "both", "too", "tried", "as well", "also")
"""Literals one of which every tried-counts cue holds: the gate before any pattern runs."""
_FAILED_ON = r"(?:oom|fail|crash)\w* (?:on|with) \d"
"""The one cue without those literals: 'OOM on 4x and on 8x', 'crashed with 4 GPUs and with 8' (s17)."""
_CUES_RE = re.compile("|".join([*map(re.escape, CUES), _FAILED_ON]))
"""The gate as one C search (no Python frame per literal: the parse-call budget)."""

_CUE_AFTER = rc(
    r"\s*(?:张|块|台)?\s*(?:卡|显卡|gpus?\b|cards?\b)?[^，。,.;；!?！？]{0,6}?"
    r"(?:(?:都|也)\s*(?:试|报|是|一样|同样|oom|爆|跑不|会|不(?:行|够用|够(?=\s*(?:显存|$|[,.;:!?，。；！？、)]))))"
    r"|\btoo\b(?=\s*(?:[^\w\s]|$))"
    r"|\b(?:oom\w*|fail\w*|crash\w*|tried|died)\s+too\b|\bas well\b)"
)
"""After a count: '八卡都试过', '八卡也是 OOM', '8 GPUs too', '8 cards as well' (not '两张卡怎么才能都用上':
the cards used together, not tried one after the other; nor '4 卡也不够快', '8 卡也不便宜': after '也不' only
a failure counts, '不行', '不够用', '不够' of memory or ending the clause, session 17). 'too' only ends a
clause or follows an OOM or try verb ('8 GPUs OOMed too'), never an adjective's ('8 GPUs is too
expensive': review of session 16)."""

_CUE_BEFORE = rc(
    r"(?:(?:试了一下|试了|试过)(?:[^，。,.;；!?！？\d]{0,6}?(?:加载|放|分|部署|跑|换)[到在上成]?)?"
    r"|\btried(?: with| on)?|\balso(?: with| on)?)\s*$"
)
"""Before a count: '试了一下八卡', 'tried 8 GPUs', 'also on 8 GPUs'; round 21 zh: a verb of where the model
went between ('我试了一下可以加载到两张卡上', '试过分到 4 张卡')."""

_ASKED_AFTER = rc(r"\s*(?:张|块|台)?\s*(?:卡|显卡|gpus?\b|cards?\b)?\s*(?:的话)?\s*呢")
"""Round 34: a count asked after another in a follow-up question ('一张 3090 可以跑吗？两张呢？', '4 卡的话
呢'): both counts are the job's, asked, not tried (no failure is said of them)."""
_ASKED_BEFORE = rc(r"\b(?:what|how)\s+about(?: with| on)?\s*$")
"""Before a count: 'Can one 3090 do it? What about 2?', 'how about 4 GPUs' (round 34)."""

_FAILED_BEFORE = rc(r"\b(?:oom\w*|fail\w*|crash\w*) (?:on|with)\s*$")
"""Before a pair of counts only: 'OOM on 4x and on 8x', 'crashed with 4 GPUs and with 8' (session 17; not
'OOMs on 4x A40 … the guide fits 2x40GB': one count failed, the other is another setup's)."""

_PAIRED_AFTER = rc(
    r"(?:\s*(?:\ue000\s*s?(?![a-z])|张|块|台|x\b|×|卡|显卡|gpus?\b|cards?\b)){0,3}\s*"
    r"(?:,?\s*(?:and\s+)?then|and|or|和|、|跟|与|或|然后|再)\s*(?:on\s+|with\s+)?(\d+)(?![\d.])"
    r"(?!\s*(?:gb|g\b|gib|b\b|k\b|%|epochs?|小时|天|hours?|days?))"
)
"""A bare count after a counted card: 'tried 4 H100s and then 8', '试了 4 张 H100 然后 8' (s20: the 8 was
named another setup's; the GPU name is masked as U+E000 by then)."""

_BOTH = rc(r"\bboth(?: with| on)?\s*$")
"""Before a pair of counts only: 'both 4 and 8 GPUs' (not 'both single-GPU and FSDP configs')."""

_PAIRED = rc(
    r"(?<![\d.])(\d+)\s*(?:张|块|台|x\b|×)?\s*(?:卡|显卡|gpus?\b|cards?\b)?\s*"
    r"(?:(?:and|,)?\s*then|and|or|和|、|跟|与|或|然后|再)(?: on| with)?\s*$"
)
"""A bare count joined to the next one: 'both 4 and 8 GPUs' (the 4 has no unit of its own), 'on 4x and
on 8x', 'tried 4 and then 8 A100s' (trial s17 #4 named the 4 'no word said what it is')."""

FAILED_RE = rc(
    r"\booms?\b|\boomed\b|oom|out\s+of\s+(?:gpu\s+)?memory|爆显存|显存(?:不足|不够|溢出|爆)|爆了|都爆|也爆"
    r"|不够用|不够(?=\s*(?:显存|$|[,.;:!?，。；！？、)]))|不行|跑不起来|跑不动|起不来|\bcrash\w*|\bfail\w*"
)
"""A failure said of the counts tried ('都 OOM', '也爆显存', '跑不起来', 'both OOM', 'failed on 8'): they are
a lower bound, not counts to recommend (:mod:`bot.core.failed_counts`, session 17)."""
COUNTS_FAILED = "gpu_counts_failed"
"""ParseResult note: the counts tried (``gpu_count`` up to ``gpu_count_max``) all failed."""

MAX_TRIED = 4096
"""Counts beyond this are not cards tried (a ceiling shared with the count reader's plausibility)."""


def tried_counts(s: str, roles: list[Role]) -> tuple[int, int, list[Role], bool] | None:
    """(smallest, largest, the count roles read, whether the later count is asked rather than tried) when
    the message's card counts are two values and one of them is said as tried ('都', '也', 'both', 'too',
    'tried') or asked after the other ('两张呢', 'what about 2'), else None. ``s``: the normalized text the
    roles index; ``roles``: every role of the parse (only ``count`` ones are read)."""
    follow = "呢" in s or "what about" in s or "how about" in s  # round 34: asked cues (C tests)
    if not follow and not _CUES_RE.search(s):
        return None
    counted = [r for r in roles if r.role == "count" and r.extra is None]
    if not counted:
        return None
    values = {r.value for r in counted}
    cued = asked = False
    for r in counted:
        left = s[max(0, r.tok.start - 32) : r.tok.start]  # 32: "crashed with 4 gpus and with "
        pair = _PAIRED.search(left)
        before = left[: pair.start()] if pair else left
        both = pair is not None and (_BOTH.search(before) or _FAILED_BEFORE.search(before)) is not None
        asked_cue = follow and not both and _asked_after_a_question(s, r, counted)
        if asked_cue and (_ASKED_AFTER.match(s, r.tok.end) or _ASKED_BEFORE.search(before)):
            cued = asked = True  # round 34: '一张可以吗？两张呢？' asks both counts
            continue
        if both or _CUE_AFTER.match(s, r.tok.end) or _CUE_BEFORE.search(before):
            cued = True
            if pair:
                values.add(float(pair.group(1)))
            elif (after := _PAIRED_AFTER.match(s, r.tok.end)) and FAILED_RE.search(s, after.end()):
                values.add(float(after.group(1)))  # 'tried 4 H100s and then 8, both OOM' (s20)
    one = len(values) == 3 and _one_failed_first(s, counted)  # 'OOMs on a single GPU; tried 2 and 4 too'
    values -= {1.0} if one else set()
    # round 21 zh: one card failed, then one count tried ('单卡部署 … 经常 OOM …我试了一下可以加载到两张卡上')
    only = max(values)
    single = cued and len(values) == 1 and 1 < only <= MAX_TRIED and only.is_integer()
    if single and _one_failed_first(s, counted):
        return 1, int(only), counted, False
    if not cued or len(values) != 2 or not all(v.is_integer() and 0 < v <= MAX_TRIED for v in values):
        return None
    lo, hi = sorted(values)
    return (1 if one or _one_failed_first(s, counted) else int(lo)), int(hi), counted, asked


ONE_CARD_RE = rc(r"单卡|单张卡|单块卡|\b(?:a\s+)?single[\s\-]+(?:gpu|card)s?\b|\bone\s+card\b")
"""One card said in words ('单卡', 'a single GPU'): not a count role of its own."""
_ONE_SENTENCE_START = rc(r"[。！？!?;；\n]|\.(?:\s|$)")


def _one_failed_first(s: str, counted: list[Role]) -> bool:
    """Whether one card, said in words, failed before the counts tried in the same sentence ('多图推理会爆
    显存（单卡，32G 显存），把卡数加到 2 卡、4 卡都试了，还是爆', 'It OOMs on a single GPU, and I tried 2 and
    4 GPUs too'): the range tried starts at one card (s26). Not when that stretch reports no failure ('单卡
    能跑 7B，2 卡、4 卡都试了 70B 还是爆': the one card ran another job)."""
    first = min((r.tok.start for r in counted if r.value != 1), default=0)
    ones = [r.tok.start for r in counted if r.value == 1 and r.tok.start < first]  # 'a single GPU' (en)
    one = ONE_CARD_RE.search(s, 0, first)
    at = ones[0] if ones else one.start() if one else None
    if at is None:
        return False
    starts = [m.end() for m in _ONE_SENTENCE_START.finditer(s, 0, at)]
    return FAILED_RE.search(s, starts[-1] if starts else 0, first) is not None


def _asked_after_a_question(s: str, r: Role, counted: list[Role]) -> bool:
    """Whether an earlier count ends a question before ``r`` ('一张 3090 可以跑吗？两张呢？', 'Can 2 A100s do
    it? How about 4 GPUs?'): the first count asked too, not a setup said to work ('vLLM works on 4 GPUs,
    what about 8 GPUs': the 4 ran, only the 8 is asked; s26)."""
    for e in counted:
        between = s[e.tok.end : r.tok.start] if e.tok.end <= r.tok.start else ""
        if "?" in between or "？" in between or "吗" in between:
            return True
    return False


def tried_read(unread: list[str], tried: tuple[int, int, list[Role], bool]) -> list[str]:
    """``unread`` without one occurrence of the pair's bare count, now read as the range's other end (the
    '4' of 'tried 4 and then 8 A100s', 'both 4 and 8 GPUs': no role of its own; trial s17 #4)."""
    said = {f"{r.value:g}" for r in tried[2]}
    out = list(unread)
    for bare in (f"{v:g}" for v in tried[:2] if f"{v:g}" not in said):
        if bare in out:
            out.remove(bare)
    return out


def one_card(mem_role: Role | None) -> bool:
    """Whether the card memory read is where the job runs with no count said ('OOM on 16 GB', '在 16G 上
    跑': :func:`bot.parse.role_left.on_card_memory`): one card, as '用 24G 显存的卡' is."""
    return mem_role is not None and mem_role.extra == ONE_CARD
