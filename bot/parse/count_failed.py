"""One card count the user says ran out of memory: a lower bound, as two tried counts are (session 18).

"8 卡 H100 OOM 了，怎么办", "it OOMs on 8 H100s", "vLLM OOMs on 2 A100s", "4x A100 40GB … getting CUDA
OOM. Is 4 enough?": the count is what failed, not a count to recommend. The parser notes it as
:data:`bot.parse.counts_tried.COUNTS_FAILED` with ``gpu_count`` only (no ``gpu_count_max``), and
:mod:`bot.core.failed_counts` sizes the request above it, for training and for serving.

A failure is a report, not a worry: 'will 8 H100s OOM?', '会不会 OOM', 'to avoid OOM', '8 卡不行吗' are
questions (:data:`_HYPOTHETICAL`), and the failure is said in the count's own sentence.
"""

from __future__ import annotations

from bot.parse.regex import rc
from bot.parse.roles import Role

_MEM = r"(?:显存|(?<![a-z])vram(?![a-z])|(?<![a-z])oom(?![a-z])|(?<!illegal )\bmemory\b(?!\s+access))"
_BROKE = r"(?:\bcrash\w*|爆了|跑不起来|跑不动|起不来)"
GATE_RE = rc(
    r"(?<![a-z])oom(?:s|ed|ing)?(?![a-z])|cuda\s*oom|out\s+of\s+(?:gpu\s+)?memory|爆显存|显存(?:不足|不够|溢出|爆)"
    rf"|{_MEM}[^。！？!?;；\n]{{0,16}}?{_BROKE}|{_BROKE}[^。！？!?;；\n]{{0,16}}?{_MEM}"
)
"""A failure reported ('OOM 了', 'OOMs', 'getting CUDA OOM', '爆显存', '显存爆了', 'crashed, out of
memory'): the gate at the call site (one C search) and the pattern looked for in the count's sentence.
Narrower than :data:`bot.parse.counts_tried.FAILED_RE`: '不行', '不够用' and 'fail' said of one count are
most often questions ('8 卡不行吗', 'would 8 fail?'). Word-bounded (s18: 'server room', 'zoom' are no
OOM); a crash, '爆了', '跑不起来' only next to a memory word ('显存', 'memory', 'VRAM', 'OOM'):
'跑不起来，驱动版本不对' and an 'illegal memory access' crash are other failures, not a count too small."""

_HYPOTHETICAL = rc(
    r"(?:会|不|\bnot|\bno|\bto|\bif)\s*(?:an?\s+|get(?:ting)?\s+|cuda\s+|run\s+)?$"
    r"|会不会|不会|能不能|避免|防止|以免|\bwill\b|\bwould\b|\bwon'?t\b|\bwithout\b|\bavoid|\bprevent"
    r"|\bmight\b|\bmay\b|\bcould\b|\brisk|\bnever\b|\bis it\b|\bdoes it\b|\bwhether\b"
)
"""Before the failure word in its sentence: a worry or a question, not a report ('will 8 H100s OOM',
'8 卡会不会爆显存'); 'not', 'to', 'if', '不', '会' only right before it ('not OOM', '会 OOM')."""

_QUESTION_AFTER = rc(r"\s*(?:吗|么|嘛|\?)")
"""Right after it: 'OOM 吗', 'OOM?' (not '8 卡 OOM 了，怎么办？': the question is what to do)."""

_SENTENCE_END = rc(r"[。！？!?;；\n]|\.(?:\s|$)")
"""Where the count's sentence ends."""

_WORKS_RE = rc(r"\bworks?\s+(?:fine|well|ok)|\bruns?\s+fine|没问题|正常(?:运行|跑)|跑得(?:很好|好好的)")
"""Another setup said to work ('vLLM works fine but TGI keeps OOMing', 'vLLM 没问题但 TGI 老是 OOM'): the
count holds the model; the failure is that engine's, so the count is no lower bound."""

BEFORE = 40
"""Characters before the count looked at: 'vllm ooms on 2 a100s', 'crashed with 8 gpus'."""


def failed_count(s: str, roles: list[Role]) -> Role | None:
    """The one GPU count of ``s`` (normalized text the ``roles`` index) said to have run out of memory in
    its own sentence, else None (no count, two or more counts, a failure asked about or feared)."""
    counted = [r for r in roles if r.role == "count" and r.extra is None]
    if len(counted) != 1 or _WORKS_RE.search(s):
        return None
    count = counted[0]
    at = count.tok.start
    start = max(s.rfind("。", 0, at), s.rfind(". ", 0, at), s.rfind("?", 0, at), s.rfind("？", 0, at))
    start = max(start + 1, count.tok.start - BEFORE)
    end_m = _SENTENCE_END.search(s, count.tok.end)
    end = end_m.start() if end_m else len(s)
    for m in GATE_RE.finditer(s, start, end):
        if _HYPOTHETICAL.search(s, start, m.start()) or _QUESTION_AFTER.match(s, m.end()):
            continue
        return count
    return None


def unread_repeat(unread: list[str], count: Role) -> list[str]:
    """``unread`` without one bare repeat of the failed count ('4x A100 … OOM. Is 4 enough?': the second
    '4' is the same count asked about, not a number nobody read)."""
    out = list(unread)
    if (bare := f"{count.value:g}") in out:
        out.remove(bare)
    return out
