"""The whole message's structure (issue 24, session 12): which clause states the job asked about.

A held-out miss is rarely one key alone: a second setup in the message (what was tried, what works, a
colleague's), or a figure the thread reports about what happened (memory in use, tokens/s), gets its
numbers mixed into the job asked about. This module cuts the normalized message into segments (one pass,
one compiled pattern) and gives each a role from cue words in both languages:

- ``job``: the setup asked about ('I want to', '我想/打算/准备', 'how many', '几张/够不够/能不能', the
  question sentence);
- ``tried``: another setup, or the same run as it failed ('I tried', 'it works with', '之前/原来/试过/能跑',
  'my colleague', 'compared with', 'OOM', '报错');
- ``observed``: a figure measured while it ran ('uses 13 GB', 'got 20 tokens/s', '占用/只占 13G', '3 s/it');
- ``current``: what runs today, beside a change asked about ('serves 30 users today', 'for 30 users now',
  '现在 … 服务 30 个用户', '目前 20 并发'; session 13, trial s12 B1): its figure loses to the job's, named
  as observed;
- ``context``: background ('we have', 'our cluster', '公司有', '手上有');
- ``plain``: none of these (a pasted config line, a list item).

:func:`pick` then chooses among numbers given the same role with different values: never an observed
figure when another value competes, the one in a job segment first, then one outside a tried segment.
A value that stands alone is used wherever it is (an OOM report's '4 张 4090 都 OOM，要几张' states the
run asked about: the labels of every round keep that count). The values that lose are named with the
reason :func:`lost_reason` gives (``observed``, ``other_setup``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from typing import Any

from bot.parse.cue_words import ASKS_COUNT, EARLIER, REQUIRED
from bot.parse.cued_alternation import CuedAlternation
from bot.parse.regex import rc
from bot.parse.throughput_words import rate_asked_between

JOB, FAILED, TRIED, OBSERVED, CONTEXT, PLAIN = "job", "failed", "tried", "observed", "context", "plain"
CURRENT = "current"

_BREAKS = (
    r"(?s:```.*?(?:```|$))"  # a code block (a pasted config, a command): one segment
    r"|[。！？；!?;\n]+|\.(?=\s|$)|[，、]"
    r"|,(?=\s)|(?i:\s(?=(?:but|whereas|while|previously|vs\.?|versus|I\s+tried|we\s+tried)\b))"
)
ZH_BREAK_WORDS = ("但是", "可是", "不过", "而且", "之前", "原来", "后来", "结果")
BREAK_RE = rc(_BREAKS + r"|(?=(?:但是|可是|不过|而且|(?<![周月天日号年点前])之前|原来|后来|结果)(?!\d))")
"""Where a segment ends: sentence ends (both languages), newlines, full-width commas, ', ' and the clause
words that start another setup ('but', 'whereas', 'vs', 'I tried', '但是', '之前', '后来'); a ``` code
block is kept whole; a comma between digits ('10,000') is no break."""
BREAK_NO_ZH_RE = rc(_BREAKS)
""":data:`BREAK_RE` without its last branch, for a text with none of :data:`ZH_BREAK_WORDS` (the same
matches). No empty match: the engine (:mod:`bot.parse.first_chars`) skips to the next break character in
C, where it tried the whole pattern at every position (~5 → ~1.7 µs a message; issue 23 item 7, s21)."""


def breaks(s: str) -> Iterator[re.Match[str]]:
    """``BREAK_RE.finditer(s)``: the same matches, by :data:`BREAK_NO_ZH_RE` when ``s`` has no Chinese
    clause word (an ASCII text has none)."""
    zh = not s.isascii() and any(map(s.__contains__, ZH_BREAK_WORDS))
    return (BREAK_RE if zh else BREAK_NO_ZH_RE).finditer(s)


SENTENCE_END_RE = rc(r"```|[。！？；!?;\n]|\.")
"""The breaks of :data:`BREAK_RE` that end a sentence, not a clause only."""

_JOB = (
    r"[?？]|吗|\bhow\s+(?:many|much|long|big|fast)\b|\benough\b|\bcan\s+(?:I|we)\b"
    r"|^\s*(?:what|which|how|can|could|would|will|should|is|are|does|do)\b"
    r"|\bI\s*(?:want|need|plan|'d\s+like|would\s+like|am\s+going|'m\s+going|intend)\b"
    r"|\bwe\s+(?:want|need|plan|'d\s+like|would\s+like|are\s+going|intend)\b|\bplanning\b"
    r"|^\s*(?:size|estimate)\b|我想|想要|想用|想在|打算|准备|计划|要多少|需要多少|多少张|几台|"
    rf"{ASKS_COUNT}|{REQUIRED}"
    r"|够不够|够吗|能不能|可不可以|可以吗|行不行|行吗|是否|需要几"
    r"|\btarget\b|\bat\s+least\b|(?:吞吐|速度|性能)\s*(?:要|需要|至少|目标)|目标|至少"
    r"|(?:扩|扩容|扩展|增加|增长|提升|提高|加|翻倍|翻一倍|涨)到\s*\d|预计|预期"
    r"|\b(?:grow|go|get|scale|increase|double|expand|bump|move)\w*\s+(?:[a-z]+\s+){0,3}?to\s+\d|\bwe\s+expect\b"
)
_OBSERVED = (
    r"\b(?:uses|used\s+up|using\s+up|consum\w+|occup\w+|allocated|peak(?:s|ed)?\s+at|measured|reach(?:es|ed)"
    r"|(?:got|get(?:ting)?)\s+(?:about|around|only|~)?\s*\d|hit(?:s|ting)?)\b(?!\s+(?:most|all|half)\s+of\s+my\b)"
    r"|\btok(?:en)?s?\s*/\s*s\b"
    r"|\btokens?\s+per\s+second\b|\bs\s*/\s*it\b|\bit\s*/\s*s\b|\bper\s+(?:step|iteration)\b|\bloss\b"
    # round 14: PyTorch's out-of-memory message (c10/cuda/CUDACachingAllocator.cpp), each figure a measurement
    r"|\btried\s+to\s+allocate\b|\bmemory\s+in\s+use\b|\balready\s+allocated\b|\b(?:is\s+)?free\s*(?:;|\)|$)"
    r"|\breserved\s+(?:in\s+total\s+)?by\s+pytorch\b"
    r"|\b(?:gpu\s+|v?ram\s+)?memory\s+(?:usage\b|use\b|(?:was|is)\s+at\b|(?:was|shows?|showed|sat|sits|sitting"
    r"|stays?|stayed|peaked|hover(?:s|ed)?)\b)|\bvram\s+usage\b|(?:\d\s*|\b)gi?b\s+(?:is\s+|are\s+)?used\b"
    r"|占用|占了|只占|占到|占满|占\s*\d|占\s*(?:了\s*)?显存|冲到|涨到|飙到|峰值(?!\s*(?:并发|qps|用户|请求))|用掉|速度(?:是|为|只有|大概|约)|每秒|秒\s*/\s*(?:步|it)"
    r"|显存(?:用了|使用了|显示)|显示(?:占用|用了|已用)|已用|压测|\bbenchmark\w*\s+(?:shows?|showed|gave|reported)\b"
    r"|(?:显存|\bmemory|\bvram)(?![^\d,，。;；]{0,6}?(?:一共|总共|合计|加起来|总计|共计))"  # s29: a total
    r"(?=[^\d,，。;；]{0,12}?\d+(?:\.\d+)?\s*(?:g(?:i?b)?\s*)?(?:-|~|–|到|至|\bto\b)\s*\d+(?:\.\d+)?\s*g"
    r"|[^\d,，。;；]{0,12}?\d+(?:\.\d+)?\s*g(?:i?b)?\s*(?:左右|上下|多|\+))"
)
"""… and a memory said as a range or about a figure ('每张卡显存 60-70G', '每卡显存 70G 左右', 'memory per GPU
is 60-70GB'; round 12): a card's memory is one exact figure, so such a one is measured on the run —
unless a total word follows the memory word ('显存一共 320G 左右': all the cards' memory, as '总共 320G 显存'
is; s29)."""
_FAILED = (
    r"\bOOMs?\b|\bout\s+of\s+memory\b|\bcrash\w*|\bfail\w*|\berror\b"
    r"|OOM|报错|爆显存|显存不足|显存溢出|跑不动|跑不起来|挂掉|失败"
)
_TRIED = (
    r"\bI\s+(?:tried|have\s+tried|'ve\s+tried|used\s+to|was\s+using|ran)\b|\bwe\s+(?:tried|'ve\s+tried|ran)\b"
    r"|^\s*we\s+used\b"
    r"|\bpreviously\b|\bbefore\b|\bearlier\b|\bworks?\s+(?:with|on|fine|well)\b|\bworked\b|\bcolleague"
    r"|\b(?:works|fits|runs\s+fine)\s*(?=[.,;!?]|$)|(?<![不否都也])(?:可以|能行|放得下)\s*(?=[,，。;；!！]|$)"
    r"|\bteam-?mates?\b|\bco-?workers?\b|\blast\s+(?:week|month|year|quarter|time)\b|上周|上个月|去年|同学|朋友"
    r"|\bcompared\s+(?:with|to)\b|\b(?:no|without(?:\s+any)?)\s+(?:problems?|issues?)\b|\bguide\b|\bREADME\b"
    r"|\bdocs?\b|\baccording\s+to\b"
    r"|\banother\s+(?:run|team|group|lab|setup|experiment)\b|\bothers\s+(?:report|got|ran)\b"  # s42 swap
    rf"|\bheard\b|\bcomparable\b|\bsimilar\s+to\b|听说|类似|相当于|{EARLIER}"
    r"|别人|其他人|试过|用过|能跑|跑得动|可以跑|跑通|没问题|正常|同事|相比|比起|对比|官方|文档|教程"
    # s48: a reference setup the asker will not run ('论文用 8 张 A100', 'the paper used 8 A100s'), said with
    # a verb of its run: a claim reported ('the 8 hours the paper says for 1B tokens') is about the job's data
    r"|(?:论文|原文|原作者|作者)(?:里|中|里面)?(?:用|使用|用的|用了|是用|训练时用)"
    r"|\b(?:the|their|original)\s+(?:paper|authors?)\s+(?:used|uses|ran|trained|train"
    r"|fine[\s\-]?tuned|pre[\s\-]?trained)\b|\bpaper\s+used\b"  # s48b: 'the paper fine-tuned X on 8 A100s'
    r"|(?:论文|原文|原作者)(?:里|中|里面)?在"  # s48b: '论文在 8 张 A100 上微调'
    r"|\bthey\s+(?:used|trained|ran)\b"
)
_CURRENT = (
    r"\bcurrently\b|\bright\s+now\b|\bat\s+the\s+moment\b|\bat\s+present\b|\btoday\b|\bnow\s*$"
    r"|(?<![想要])现在(?!\s*(?:想|要|准备|打算|需要|计划))|目前|当前|眼下"
)
_CONTEXT = (
    r"\b(?:I|we)\s+(?:have|'ve\s+got|own)\b|\bmy\s+(?:own\s+)?(?:gpus?|cards?|machine|box|server|rig|workstation)\b"
    r"|我这边|我这里|我手上|我手头|我自己的|我的(?:卡|机器|服务器)|\bour\s+(?:cluster|server|machine|lab|company)|公司有|我们有|手上有|手头有|实验室有"
    r"|服务器有|集群"
)

_CUE_RE = CuedAlternation(
    [
        (JOB, _JOB),
        (OBSERVED, _OBSERVED),
        (FAILED, _FAILED),
        (TRIED, _TRIED),
        (CURRENT, _CURRENT),
        (CONTEXT, _CONTEXT),
    ],
    re.ASCII | re.IGNORECASE,
)
"""Every cue in one pattern, run once per segment (case-insensitive): ``(?P<job>…)|(?P<observed>…)|…``,
asked with only the branches whose cues the segment holds (:mod:`bot.parse.cued_alternation`: ~150
branches, no start scan; ~45 µs a segment searched whole)."""

_KIND = {JOB: 0, OBSERVED: 1, FAILED: 2, TRIED: 3, CURRENT: 4, CONTEXT: 5, PLAIN: 6}
"""A segment with cues of several kinds takes the first in this order: a question about a tried setup
('换成 8 张能跑吗？') asks about it; a run tried that failed ('试了八卡也 OOM') is the run asked about."""

_PREFER = {JOB: 0, FAILED: 1, CONTEXT: 2, PLAIN: 2, TRIED: 3, CURRENT: 3, OBSERVED: 4}
"""Which segment's value the job takes when values differ: the question's; then the run that failed (the
same run, asked about again: s24, before a plain clause's earlier value — '16 concurrent requests; at 64 it
OOMs' sizes 64, the 16 named as the run that ran, tests/data/real_questions/README.md 'Session 24'); then
background and plain clauses, in text order; then another setup or what runs today (``current``); an
observed figure last. When no value is in the job's own clauses (question, failed run, plain, context), the
first is kept: the structure has nothing to say."""


MEASURED_ROLES = frozenset({"gpu_mem", "total_mem", "tokens"})
"""Number roles a run's report fills with what it measured ('uses 60 GB per GPU', '每张卡只占 13G',
'ran 4096 tokens and consumed 75 GB'): said only in observed clauses, they are no setting of the job."""


OTHERS_ROLES = frozenset({"batch"})
"""Number roles a setting of another person's or earlier run fills ('My colleague runs it on 2x RTX 4090
with batch 2'): said only in such clauses, they are that setup's (``other_setup``), and the job takes its
default (session 13, trial s12 A4: the colleague's micro-batch 2 made the user's card not fit)."""
PICKED_ALONE = MEASURED_ROLES | OTHERS_ROLES
"""Roles :func:`pick` reads even when said once."""
LOAD_ROLES = frozenset({"concurrency"})
"""s43-workmiss: roles a run is set to, never a figure it measured: another value said in an observed
clause and reported by no observed cue is that other run's setting (``other_setup``), not ``observed``
('100、120、150 并发都通过 … 再做 50 并发的压测，显存还会继续涨': the 50 is the next test's load; the rising
memory is what was observed)."""


class Segment:
    """One segment of the normalized message: its span (character offsets) and its role, read from its
    cues when first asked for (most parses ask for few: the cue pattern runs only on those)."""

    __slots__ = ("_cues", "_s", "end", "sentence", "start")
    _cues: tuple[str, tuple[tuple[int, int, bool], ...], bool] | None

    def __init__(self, s: str, start: int, end: int, sentence: list[Segment]) -> None:
        self._s, self.start, self.end, self.sentence = s, start, end, sentence
        self._cues = None

    def _read(self) -> tuple[str, tuple[tuple[int, int, bool], ...], bool]:
        if self._cues is None:
            self._cues = read_cues(self._s, self.start, self.end)
        return self._cues

    @property
    def text(self) -> str:
        """The segment's text (of the normalized message)."""
        return self._s[self.start : self.end]

    @property
    def own_role(self) -> str:
        """The role from this segment's own cues (``plain`` without any)."""
        return self._read()[0]

    @property
    def role(self) -> str:
        """The role: its own; a clause without cues takes the job's role when its sentence asks about the
        job ('32k 上下文' in '我准备部署 70B，32k 上下文，够吗？')."""
        own = self.own_role
        if own == PLAIN and any(c.own_role == JOB for c in self.sentence if c is not self):
            return JOB
        return own

    @property
    def observed(self) -> tuple[tuple[int, int, bool], ...]:
        """The observed cues in the segment: start, end (message offsets), and whether it is a rate unit
        written after its figure ('tok/s', 's/it', 'tokens per second')."""
        return self._read()[1]

    @property
    def other_person(self) -> bool:
        """Whether the segment also has another setup's cue ('my colleague runs it … at 1.8 s/it'): its
        numbers that no observed cue reports are that setup's (``other_setup``), not observed."""
        return self._read()[2]


def segments(s: str) -> list[Segment]:
    """The segments of ``s`` (the normalized message) in order (module docstring); a sentence's clauses
    share its list (:attr:`Segment.sentence`)."""
    out: list[Segment] = []
    sentence: list[Segment] = []
    start = 0
    for m in breaks(s):
        _add(sentence, s, start, m.start())
        if m.group().startswith("```"):
            sentence.append(Segment(s, m.start(), m.end(), sentence))
        start = m.end()
        if SENTENCE_END_RE.match(m.group()):
            out += sentence
            sentence = []
    _add(sentence, s, start, len(s))
    return out + sentence


def _add(out: list[Segment], s: str, start: int, end: int) -> None:
    if s[start:end].strip():
        out.append(Segment(s, start, end, out))


def read_cues(s: str, start: int, end: int) -> tuple[str, tuple[tuple[int, int, bool], ...], bool]:
    """A segment's own role, observed cues and whether another setup's cue is among them (one run of
    the cue pattern over its text)."""
    if s.startswith("```", start):
        return PLAIN, (), False
    cues = [(m.lastgroup, m.start() + start, m.end() + start) for m in _CUE_RE.finditer(s[start:end])]
    kinds = {c[0] for c in cues if c[0] != OBSERVED or not TOKEN_RATE_RE.match(s, c[1])}  # no cue alone
    role = min(kinds, key=_KIND.__getitem__) if kinds else PLAIN
    seen = tuple([(a, b, bool(RATE_UNIT_RE.match(s, a))) for kind, a, b in cues if kind == OBSERVED])
    if role != JOB and s[end : end + 1] in ("?", "？"):  # the question's own mark ends it
        role = JOB
    return role, seen, TRIED in kinds


def segment_at(segs: list[Segment], pos: int) -> Segment | None:
    """The segment holding character ``pos`` (None between segments)."""
    i = bisect.bisect_right([g.start for g in segs], pos) - 1
    return segs[i] if i >= 0 and pos < segs[i].end else None


def role_at(segs: list[Segment], pos: int) -> str:
    """The role of the segment holding character ``pos`` (``plain`` between segments)."""
    seg = segment_at(segs, pos)
    return seg.role if seg is not None else PLAIN


SEVERAL_RUNS_RE = rc(r"\bboth\b.{1,40}?\band\b|\beither\b.{1,40}?\bor\b")
"""A failure said of several runs ('OOMs with both single-GPU and FSDP configs'): no one run to size."""


def _one_run(segs: list[Segment], pos: int) -> str:
    """:func:`role_at`, save that a failed clause naming several runs (:data:`SEVERAL_RUNS_RE`) is a plain
    one: the failed run's value is preferred (s24) only when the clause names one run (s16: '8 GPUs with
    46 GB each, yet … OOMs with both single-GPU and FSDP configs' sizes the 8, not the single GPU)."""
    seg = segment_at(segs, pos)
    role = seg.role if seg is not None else PLAIN
    if role == FAILED and seg is not None and SEVERAL_RUNS_RE.search(seg._s, seg.start, seg.end):
        return PLAIN
    return role


def measured(segs: list[Segment], tok: Any) -> bool:
    """Whether the number ``tok`` is the figure an observed cue reports: the cue ends ≤ :data:`CUE_BEFORE`
    chars before it ('占了 60g') or is a rate unit, not asked for, ≤ :data:`CUE_AFTER` after ('900 tok/s')."""
    seg = segment_at(segs, tok.start)
    return seg is not None and any(
        0 <= tok.start - b <= CUE_BEFORE
        or (unit and 0 <= a - tok.end <= CUE_AFTER and not rate_asked_between(seg._s, tok.end, a, b))
        for a, b, unit in seg.observed
    )


RATE_UNIT_RE = rc(r"(?i)tok|s\s*/|it\s*/|per\s|每?秒")
"""Observed cues that are rate units ('900 tok/s', '3 s/it', '2 秒/步', '每秒 35 个 token')."""
TOKEN_RATE_RE = rc(r"(?i)tok|每秒")
"""The tokens/s units among them ('2000 tok/s', 'tokens per second', '每秒 2000 token'): they give a clause
no role on their own, a serving target being written the same way (review finding 1); 's/it' does."""
CUE_BEFORE = 16
"""Characters between an observed cue and the figure it reports ('uses about 40gb', '显存占用 60g')."""
CUE_AFTER = 12
"""Characters between a figure and the observed cue after it ('75 gb used', '900 output tok/s')."""


def pick(roles: list[Any], segs: list[Segment]) -> tuple[Any | None, dict[int, str]]:
    """Among numbers of one role (``bot.parse.roles.Role``, in text order), the one the job uses, and the
    reasons the others are not used, by ``id``. One value (or several equal ones): the first, as before.
    Several values: never an observed figure while another remains (review finding 5); then the first in
    a job segment; then the first outside a tried segment; else the first that is not observed."""
    if not roles:
        return None, {}
    if roles[0].role in OTHERS_ROLES and all(_others(segs, r.tok) for r in roles):  # a colleague's batch
        return None, {id(r): "other_setup" for r in roles}
    if roles[0].role in MEASURED_ROLES and all(measured(segs, r.tok) for r in roles):  # 'uses 60 GB'
        return None, {id(r): OBSERVED for r in roles}
    if len({r.value for r in roles}) < 2:
        return roles[0], {}
    where = [_one_run(segs, r.tok.start) for r in roles]
    ranked = sorted(zip(roles, where, strict=True), key=lambda rw: (_PREFER[rw[1]], _inherited(segs, rw[0])))
    if _PREFER[ranked[0][1]] > 2:  # nothing in the job's own clauses: the first not observed, as before
        chosen = next((r for r, w in zip(roles, where, strict=True) if w != OBSERVED), roles[0])
        return chosen, {
            id(r): OBSERVED for r, w in zip(roles, where, strict=True) if w == OBSERVED and r is not chosen
        }
    chosen = ranked[0][0]
    lost: dict[int, str] = {}
    ran = (
        ranked[0][1] == FAILED
    )  # s24: the failed run's value; a plain clause's other value is the run that ran
    for r, w in zip(roles, where, strict=True):
        if r.value != chosen.value and (w in (OBSERVED, TRIED, CURRENT) or (ran and w == PLAIN)):
            other = w in (TRIED, PLAIN) or (r.role in LOAD_ROLES and not measured(segs, r.tok))
            lost[id(r)] = "other_setup" if other else _observed_or_other(segs, r.tok, w)
    return chosen, lost


def _inherited(segs: list[Segment], role: Any) -> bool:
    """Whether ``role`` is in a clause that is the job's only by its sentence ('20 并发' in '20 并发，要增加到
    80 并发'): a clause with the job's own cues comes first (s13 review 12: the 20 was sized)."""
    seg = segment_at(segs, role.tok.start)
    return seg is not None and seg.own_role != JOB


def job_card(gpus: list[Any], chosen: Any, cut: Callable[[], list[Segment]]) -> Any:
    """The card the job uses among several named (``bot.parse.gpus.GpuMention``): ``chosen`` unless it is
    said only in another setup's or an observed clause and another card is said in the job's clause
    ('My colleague used 2 A100s. I want to use 8 H100s.': the H100), else in the user's own ('My colleague
    runs it on 2x RTX 4090. I have one Quadro RTX 8000.': the Quadro; session 13, trial s12 A4)."""
    if len({g.gpu_id for g in gpus}) < 2:
        return chosen
    segs = cut()  # the segments, cut only when two cards compete
    mine = [role_at(segs, g.start) for g in gpus if g.gpu_id == chosen.gpu_id]
    if any(w not in (TRIED, OBSERVED, CURRENT) for w in mine):
        return chosen
    where = [role_at(segs, g.start) for g in gpus]
    return next((g for g, w in zip(gpus, where, strict=True) if w == JOB), None) or next(
        (g for g, w in zip(gpus, where, strict=True) if w in (CONTEXT, FAILED, PLAIN)), chosen
    )


def _others(segs: list[Segment], tok: Any) -> bool:
    """Whether the number ``tok`` is said in another setup's clause, or in an observed one that is another
    person's or earlier run's ('my colleague runs it … at 1.8 s/it with batch 2')."""
    seg = segment_at(segs, tok.start)
    return seg is not None and (seg.role == TRIED or (seg.role == OBSERVED and seg.other_person))


def _observed_or_other(segs: list[Segment], tok: Any, where: str) -> str:
    """``observed``, or ``other_setup`` for a number no observed cue reports in an observed clause that is
    another person's or earlier run ('My colleague runs it on 2x RTX 4090 at 1.8 s/it': the 2 is the
    colleague's setup, the 1.8 what was measured; session 13, trial s12 A4)."""
    if where != OBSERVED or measured(segs, tok):
        return OBSERVED
    seg = segment_at(segs, tok.start)
    return "other_setup" if seg is not None and seg.other_person else OBSERVED


def job_tokens(toks: list[Any], segs: list[Segment]) -> list[Any]:
    """The number tokens outside another setup's and observed clauses: what the general reader
    (:mod:`bot.parse.generic_values`) may place in the job's unset fields."""
    return [t for t in toks if role_at(segs, t.start) not in (TRIED, OBSERVED)]


def other_run_at(s: str, pos: int) -> str | None:
    """``other_setup`` when character ``pos`` of ``s`` lies in another setup's clause ('colleague did it on
    1 A100 in 5 hours': that run's duration, never this job's deadline; session 13, trial s12 B7) and a
    job's or plain clause states a setup of its own (a number: 'I have 8 H800'); a run with only a
    question beside it ('we ran … for 3 days, what did it cost') is the run asked about."""
    segs = segments(s)
    if role_at(segs, pos) != TRIED:
        return None
    own = any(g.role in (JOB, PLAIN) and any(c.isdigit() for c in s[g.start : g.end]) for g in segs)
    return "other_setup" if own else None


def observed_at(s: str, pos: int) -> bool:
    """Whether character ``pos`` of ``s`` lies in an observed clause ('generation reaches 900 tokens/s',
    'the training uses 60 GB'): a figure measured, not a setting."""
    return role_at(segments(s), pos) == OBSERVED
