"""A setting given two values, one said to work and the other to fail (issue 24, session 22): the failing
one is the setup asked about, the working one is named (``other_setup``).

People report a setting they raised until it broke: 'works perfectly with --max_batch_size 64, but with
--max_batch_size 128 the build … fails', 'max_batch_size = 64 … is fine. But when I build with
max_batch_size = 128, it fails', '--tp 1 … 是能起来的；改成 --tp 2 就报 NPU 不足'. The question is why the
second fails and what it needs; before, the first value was read and the second left unread ('no word
said what it is'). Each ``key value`` / ``key=value`` / ``key: value`` pair of a config-style key (a flag
'--max_batch_size', a snake_case key 'max_batch_size') is found; a key given two or more values is looked
at clause by clause (a clause ends at a comma, or else at a sentence end, 'but', '但', '；'): when exactly
one value's clauses report a failure (OOM, out of memory, fails, error, insufficient, 报错, 不足, 失败 …)
and every other value's clauses report success (works, fine, runs, 正常, 能起来, 能跑 …), the working
pairs are masked (same length) so the readers read the failing one, and each is named as typed. Anything
else (both fail, neither is said to work, prose values such as 'batch 64') is left to the readers.
Limit: a setting a pasted command's reader takes from the raw text (vLLM's '--max-model-len' in a
command) keeps its first value there.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import LazyPattern, rc

PAIR_RE = rc(
    r"(?<![\w\-])(?P<key>--?[a-z][a-z0-9_\-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
    r"(?:\s*[=:：]\s*|\s+)(?P<v>\d+(?:\.\d+)?)(?![\w.])"
)
"""A config-style key and its number: '--max_batch_size 64', 'max_batch_size = 128', '--tp 2'."""
CLAUSE_END_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)|\bbut\b|\bwhereas\b|但是?|然而|可是")
"""Where a clause ends: a sentence end, or a turn ('but', '但')."""
FAILED_RE = rc(
    r"(?<![a-z])oom(?:s|ed)?(?![a-z])|out\s+of\s+memory|\bfail(?:s|ed|ing|ure)?\b|\berrors?\b|insufficient"
    r"|can'?t\s+allocate|cannot\s+allocate|no\s+free\s+blocks|\bcrash\w*|报错|不足|不够|失败|爆显存|起不来|跑不起来"
)
"""A failure reported in a clause."""
WORKED_RE = rc(
    r"\bworks?\b|\bworked\b|\bworking\b|\bfine\b|\bruns?\b|\bran\b|\bsucceed\w*|\bok(?:ay)?\b"
    r"|正常|能起来|起得来|能跑|可以跑|跑得起来|没问题|成功"
)
"""A success reported in a clause (checked only where no failure is)."""
GATE_RE = rc(FAILED_RE.pattern)


COMMA_RE = rc(rf"{CLAUSE_END_RE.pattern}|[,，、]")
"""A narrower clause: up to a comma too ('max_num_seqs=16 没问题，max_num_seqs=64 就报错')."""


def _clause(s: str, at: int, ends_re: LazyPattern) -> tuple[int, int]:
    """(start, end) of the clause holding position ``at``, its ends found by ``ends_re``."""
    ends = [m.end() for m in ends_re.finditer(s, 0, at)]
    nxt = ends_re.search(s, at)
    return (ends[-1] if ends else 0), (nxt.start() if nxt else len(s))


def _outcome(s: str, at: int) -> str | None:
    """'failed', 'worked' or None: what the comma clause holding ``at`` reports, or else its sentence
    clause ('with max_batch_size = 64, running batch 64 … is fine')."""
    for ends_re in (COMMA_RE, CLAUSE_END_RE):
        a, b = _clause(s, at, ends_re)
        if FAILED_RE.search(s, a, b):
            return "failed"
        if WORKED_RE.search(s, a, b):
            return "worked"
    return None


def worked_then_failed(s: str) -> tuple[str, list[tuple[str, str]]]:
    """The normalized text ``s`` with the working values of a setting masked when another value of it
    failed, and those pairs named as typed (``other_setup``)."""
    if not GATE_RE.search(s):
        return s, []
    by_key: dict[str, list[tuple[str, int, int, str | None]]] = {}
    for m in PAIR_RE.finditer(s):
        key = m.group("key").lstrip("-").replace("-", "_")
        by_key.setdefault(key, []).append((m.group("v"), m.start(), m.end(), _outcome(s, m.start())))
    named: list[tuple[str, str]] = []
    for pairs in by_key.values():
        values = {float(v) for v, *_ in pairs}
        failed = {float(v) for v, _, _, out in pairs if out == "failed"}
        worked = {float(v) for v, _, _, out in pairs if out == "worked"}
        if len(values) < 2 or len(failed) != 1 or failed & worked or worked != values - failed:
            continue
        for v, start, end, _ in pairs:
            if float(v) in worked:
                named.append((s[start:end].strip(), "other_setup"))
                s = mask(s, start, end, " ")
    return s, named
