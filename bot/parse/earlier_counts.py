"""A GPU count said of an earlier setup (issue 24, round 5 zh): named, not sized.

People compare what they run now with what they ran before: '16G 的 V100 单卡就可以跑 …，记得之前的代码
得特地写 device_map 做模型并行，两片卡才跑得下', 'one 4090 runs it now; previously it needed 2 cards'. The
count after an earlier-setup word ('之前', '以前', '原来', 'previously', 'used to' …), up to the end of
its sentence, is that earlier setup's; when the message also gives the count of the setup asked about
(another count, or '单卡' / 'a single GPU'), the earlier one is named (``other_setup``), as an engine said
as an earlier setup is (:mod:`bot.parse.engines_named`). Alone, it is still the only count said and stays.

Session 13 (trial s12 A1): a count said before a switch to another job ('之前 2 张 4090 跑 7B，现在想上
14B，要几张？', 'We used 2 A100s for the 8B; now 70B — how many A100s?') belongs to the setup left
behind when the part after the switch asks for the count and says none: the question asks for the
count of the new job, so the old one is named (``other_setup``) and the fewest cards are sized.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.cue_words import ASKS_COUNT, EARLIER, SWITCH
from bot.parse.regex import rc
from bot.parse.roles import Role
from bot.parse.structure import other_run_at
from bot.parse.words import SINGLE_CARD_RE

if TYPE_CHECKING:
    from bot.parse.numbers import NumberToken

EARLIER_RE = rc(EARLIER)
"""Words that open an earlier setup (:data:`bot.parse.cue_words.EARLIER`: a deadline, '下周之前', is no
earlier setup)."""
WINDOW_RE = rc(
    EARLIER + r"|\bbefore\s*,|(?:^|[.;!?]\s*)before\s+(?:we|i)\s+(?:only\s+)?(?:used|had|ran|tried|trained)\b"
)
"""An earlier setup's word for a count's stretch (:func:`_windows`): :data:`EARLIER_RE`, and 'before' opening
a past setup ('Before, we only used 2 A100s', 'Before we used 2 cards'; s46 leftovers #1) — not a clause of
time ('before we start, …'), which is why the shared vocabulary has no bare 'before'."""
SENTENCE_END_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)")
TRAILING_RE = rc(
    r"(?<!\bas\s)(?<!\bthan\s)(?<!\bever\s)\b(?:before|previously|earlier|in\s+the\s+past|back\s+then)\b"
    r"(?=\s*(?:[,.;!?，。；！？]|and\b|but\b|while\b|whereas\b|$))"
    r"|(?:是|为)(?:以前|之前|原来|原先|过去|当时|上次)(?:用)?的"
    r"(?=\s*(?:配置|方案|机器|设置|环境|服务器|卡|集群)?\s*(?:[，,。；;！!？?]|$))"
)
"""s47 workmiss: an earlier-setup word AFTER its count, closing the clause ('We used 2 A100s before and now
have 8', 'we had 4 GPUs previously, now 16'; '2 张 A100 是之前的配置，现在有 8 张'): the count before it in
its clause is the earlier setup's (:func:`_windows`). Only where the word ends its clause (a comma, a full
stop, 'and' / 'but'; in Chinese '是之前的(配置)' closing its clause), so a clause of time ('8 GPUs before the
deadline'), 'as before' (the same setup now) or a comparison ('8 张卡是之前的两倍') is none."""
CLAUSE_START_RE = rc(r"[。！？!?;；,，\n]|\.(?:\s|$)")
"""Where a clause starts: the end of the one before it (the stretch of a :data:`TRAILING_RE` word)."""
SINGLE_EN_RE = rc(r"\b(?:a\s+single|one)\s+(?:gpu|card)\b|\bsingle[\s\-]gpu\b")
UNIT_RE = rc(r"(?i)\s*(?:个\s*)?(?:hours?|hrs?|h\b|days?|weeks?|months?|小时|天|周|个月|星期)")
"""A duration's unit word right after its number."""
SWITCH_RE = rc(rf"(?i){SWITCH}")
"""A turn from the setup the user has to the one asked about (:data:`bot.parse.cue_words.SWITCH`)."""
NOW_RE = rc(r"现在|目前|如今|当前|这次|这回|\bnow\b|\bcurrently\b|\bthis\s+time\b|\btoday\b")
"""A word of the present that ends an earlier setup's stretch (s46 leftovers #1: '之前只用了 2 张 A100 微调，
现在有 8 张' sized the 2): what follows it is the setup the user has now, whatever verb comes after it (a
:data:`SWITCH_RE` turn needs a verb of intent: '现在想', not '现在有')."""
ASKS_COUNT_AFTER_RE = rc(
    rf"(?i){ASKS_COUNT}|\bhow\s+many\s+(?:more\s+)?(?:[a-z]*\d[\w\-]*|gpus?|cards?|devices?|accelerators?)"
    r"|(?:要|需要|得)多少(?:张|块|台)|多少张|几张|几块"
)
"""A question for the count, a card's name included ('how many A100s?', 'how many H100 80GB', '要几张')."""


def _windows(s: str) -> list[tuple[int, int]]:
    """(start, end) of each earlier-setup word's stretch: from the word to the end of its sentence, or to a
    switch to the job asked about ('之前 2 张 4090 跑 7B，现在想用 4 张': the 4 is the job's) or a word of the
    present (:data:`NOW_RE`: '之前只用了 2 张，现在有 8 张'); for a word closing its clause
    (:data:`TRAILING_RE`, gated on its literals), from the clause's start to the word."""
    out = []
    for m in WINDOW_RE.finditer(s):
        found = (SENTENCE_END_RE.search(s, m.end()), SWITCH_RE.search(s, m.end()), NOW_RE.search(s, m.end()))
        ends = [e.start() for e in found if e]
        out.append((m.start(), min(ends, default=len(s))))
    if "before" in s or "previously" in s or "earlier" in s or "past" in s or "then" in s or "的" in s:
        for m in TRAILING_RE.finditer(s):
            starts = [c.end() for c in CLAUSE_START_RE.finditer(s, 0, m.start())]
            out.append((starts[-1] if starts else 0, m.start()))
    return out


def earlier_counts(
    s: str, roles: list[Role], loose: list[NumberToken] | None = None
) -> tuple[list[Role], list[tuple[str, str]]]:
    """``roles`` without the counts of an earlier setup, and those counts named as typed (``s``: the
    normalized text the roles were read on). ``loose``: the numbers read with no role (the parse's unread
    tokens); a bare one after a word of the present (:func:`present_count`) becomes the count asked about,
    its token left in ``roles`` (the caller takes it off its unread lists)."""
    roles, durations = other_durations(s, roles)
    if "count" not in {r.role for r in roles}:
        return roles, durations
    switched = _before_switch(s, roles)
    if switched:
        return [r for r in roles if r not in switched], [*durations, *_named(switched)]
    windows = _windows(s)
    if not windows:
        return roles, durations

    def earlier(pos: int) -> bool:
        return any(a <= pos < b for a, b in windows)

    counts = [r for r in roles if r.role == "count"]
    before = [r for r in counts if earlier(r.tok.start)]
    single = [m for p in (SINGLE_CARD_RE, SINGLE_EN_RE) for m in p.finditer(s) if not earlier(m.start())]
    if before and not single and len(before) == len(counts) and loose:
        now = present_count(s, before[-1].tok.end, loose)
        if now is not None:  # review s47 B2: '2 A100s before, now 8': the 8 is the current count
            roles = [*roles, Role("count", now.value, now)]
            counts = [*counts, roles[-1]]
    if not before or not (single or len(before) < len(counts)):
        return roles, durations
    return [r for r in roles if r not in before], [*durations, *_named(before)]


PRESENT_COUNT_RE = rc(
    r"\s*(?:(?:we|i|they)\s+)?(?:(?:have|has|had|got|use|using|run|are\s+using|with)\s+)?"
    r"(?:(?:有|用|是|上|换成|换了)\s*)?(?P<n>\d{1,4})"
    r"(?=\s*(?:[,，。;；!?！？:：)]|\.(?:\s|$)|(?:and|but|so|then)\b|$))"
    r"|\s*(?:(?:we|i|they)\s+)?(?:have|has|got|use|using)\s+(?P<m>\d{1,4})\s+of\s+them\b"
    r"|\s*(?:(?:有|用|是|上|换成|换了)\s*)?(?P<c>\d{1,4})\s*(?:张|块)(?!\s*(?:[a-z]|卡))"
)
"""A bare count right after a word of the present (:data:`NOW_RE`): 'now have 8', 'now 8', 'now we have 8
of them', '现在 8 张', '现在有 8 张' — never a number with a unit or a name after it ('now 8B', 'now 8 hours',
'现在 8 张 4090' is read by the count reader, '8x', '8%'): the bare one ends its clause (a comma, a stop,
'and' / 'but')."""


def present_count(s: str, after: int, loose: list[NumberToken]) -> NumberToken | None:
    """The token of ``loose`` (numbers with no role) said as the count of the setup the user has now — bare,
    right after a :data:`NOW_RE` word that follows the earlier count's end ``after`` (review s47 B2: 'We used
    2 A100s before and now have 8' sized the 2 and named the 8 'another setup'); None when there is none."""
    for now in NOW_RE.finditer(s, after):
        m = PRESENT_COUNT_RE.match(s, now.end())
        if m is None:
            continue
        at = m.start("n") if m.group("n") else m.start("m") if m.group("m") else m.start("c")
        return next((t for t in loose if t.start == at), None)
    return None


def _named(roles: list[Role]) -> list[tuple[str, str]]:
    return [(r.tok.raw.strip(), "other_setup") for r in roles]


def other_durations(s: str, roles: list[Role]) -> tuple[list[Role], list[tuple[str, str]]]:
    """``roles`` without a duration said of another setup's run, and those named as typed (session 13,
    trial s12 B7): 'colleague did it on 1 A100 in 5 hours', '同事 8 卡跑了 30 小时', 'last time it took 3
    days on 8 A100' state how long that run took, not this job's deadline (the 5 hours had become it)."""
    days = [r for r in roles if r.role == "days"]
    if not days:
        return roles, []
    switches = [c.start() for c in SWITCH_RE.finditer(s)]  # '花了 10 天。现在要训 13B': that run's days
    other = [
        r
        for r in days
        if other_run_at(s, r.tok.start)  # a lone past run is the one asked about
        or (any(r.tok.end < at for at in switches) and not DEADLINE_AFTER_RE.match(s, r.tok.end))
    ]
    return [r for r in roles if r not in other], [(_with_unit(s, r), "other_setup") for r in other]


DEADLINE_AFTER_RE = rc(
    r"\s*(?:个\s*)?(?:(?:天|days?|小时|hours?|h|周|weeks?|月|months?)\s*)?(?:内|以内|之内)"
)
"""A duration said as a deadline ('10 天内', '3 天以内'): never another run's, wherever it stands."""


def _with_unit(s: str, role: Role) -> str:
    """The duration as typed with its unit word ('5 hours', '30 小时')."""
    unit = UNIT_RE.match(s, role.tok.end)
    return s[role.tok.start : unit.end() if unit else role.tok.end].strip()


def _before_switch(s: str, roles: list[Role]) -> list[Role]:
    """The counts said before a switch to another job when the part after it asks for the count and
    states none (module docstring); else none."""
    counts = [r for r in roles if r.role == "count"]
    for cue in SWITCH_RE.finditer(s):
        if not ASKS_COUNT_AFTER_RE.search(s, cue.end()):
            continue
        if any(r.tok.start >= cue.start() for r in counts):
            return []  # the new job's own count: the usual reading
        return [r for r in counts if r.tok.start < cue.start()]
    return []
