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

import re

from bot.parse.normalize import mask
from bot.parse.regex import LazyPattern, rc

PAIR_RE = rc(
    r"(?<![\w\-])(?:(?P<key>--?[a-z][a-z0-9_\-]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
    r"(?:\s*[=:：]\s*|\s+)(?P<v>\d+(?:\.\d+)?)"
    r"|(?P<pkey>tp|pp|ep|bs|batch[\s\-]*size|micro[\s\-]*batch(?:[\s\-]*size)?|tensor[\s\-]+parallel(?:[\s\-]+size)?)"
    r"(?:\s*[=:：]\s*|\s*)(?P<pv>\d{1,4}))(?![\w.])"
)
"""A config-style key and its number: '--max_batch_size 64', 'max_batch_size = 128', '--tp 2'; s26: a
setting's word in prose and its number, joined or not ('TP4', 'tp 2', 'bs=8', 'batch size 16', 'tensor
parallel size 4'): 'works with tp 2 but OOMs with tp 4', 'TP4 正常，TP8 就 OOM', 'bs=8 能跑，bs=16 就爆'."""
CLAUSE_END_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)|\bbut\b|\bwhereas\b|但是?|然而|可是")
"""Where a clause ends: a sentence end, or a turn ('but', '但')."""
FAILED_RE = rc(
    r"(?<![a-z])oom(?:s|ed)?(?![a-z])|out\s+of\s+memory|\bfail(?:s|ed|ing|ure)?\b|\berrors?\b|insufficient"
    r"|can'?t\s+allocate|cannot\s+allocate|no\s+free\s+blocks|\bcrash\w*|报错|不足|不够|失败|爆显存|起不来|跑不起来"
)
"""A failure reported in a clause."""
WORKED_RE = rc(
    r"\bworks?\b|\bworked\b|\bworking\b|\bfine\b|\bruns?\b|\bran\b|\bsucceed\w*|\bok(?:ay)?\b"
    r"|正常|能起来|起得来|能跑|可以跑|跑得起来|没问题|成功|可以(?=\s*(?:了|$|[,.;!，。；！]))"
)
"""A success reported in a clause (checked only where no failure is); s49: '可以' ending its clause
('4 张卡可以。', '4 张就可以了'), never '可以吗' nor '可以用' (a question, a verb)."""
GATE_RE = rc(FAILED_RE.pattern)


COMMA_RE = rc(rf"{CLAUSE_END_RE.pattern}|[,，、]")
"""A narrower clause: up to a comma too ('max_num_seqs=16 没问题，max_num_seqs=64 就报错')."""


def _clause(s: str, at: int, ends_re: LazyPattern) -> tuple[int, int]:
    """(start, end) of the clause holding position ``at``, its ends found by ``ends_re``."""
    ends = [m.end() for m in ends_re.finditer(s, 0, at)]
    nxt = ends_re.search(s, at)
    return (ends[-1] if ends else 0), (nxt.start() if nxt else len(s))


def outcome(s: str, at: int) -> str | None:
    """'failed', 'worked' or None: what the comma clause holding ``at`` reports, or else its sentence
    clause (:func:`_outcome` without its span; bot.parse.counts_outcome)."""
    return _outcome(s, at)[0]


def _outcome(s: str, at: int) -> tuple[str | None, int, int]:
    """('failed', 'worked' or None; the clause's start and end, an empty span for a failure found only in
    the sentence clause): what the comma clause holding ``at`` reports, or else its sentence clause ('with
    max_batch_size = 64, running batch 64 … is fine')."""
    for ends_re in (COMMA_RE, CLAUSE_END_RE):
        a, b = _clause(s, at, ends_re)
        narrow = ends_re is COMMA_RE  # only a comma clause's failure is the setting's alone (masked)
        if FAILED_RE.search(s, a, b):
            return "failed", a, b if narrow else a
        if WORKED_RE.search(s, a, b):
            return "worked", a, b
    return None, 0, 0


def _mask_failure(s: str, a: int, b: int) -> str:
    """``s`` with the failure words between ``a`` and ``b`` masked: they said the setting's value failed,
    not the GPU count (s26 trial 2 #1: 'works at tp 2 but OOMs at tp 4 on 4x RTX 4090' read as 'OOM on 4
    GPUs' by bot.parse.count_failed and sized at 8 cards; the user has 4, and TP 4 failed on them)."""
    for m in list(FAILED_RE.finditer(s, a, b)):
        s = mask(s, m.start(), m.end(), " ")
    return s


def worked_then_failed(s: str) -> tuple[str, list[tuple[str, str]]]:
    """The normalized text ``s`` with the working values of a setting masked when another value of it
    failed, and those pairs named as typed (``other_setup``)."""
    if not GATE_RE.search(s):
        return s, []
    by_key: dict[str, list[tuple[str, int, int, str | None]]] = {}
    spans: dict[int, tuple[int, int]] = {}
    for m in PAIR_RE.finditer(s):
        key = (m.group("key") or m.group("pkey")).lstrip("-").replace("-", "_").replace(" ", "_")
        v = m.group("v") or m.group("pv")
        out, a, b = _outcome(s, m.start())
        by_key.setdefault(key, []).append((v, m.start(), m.end(), out))
        spans[m.start()] = (a, b)
    named: list[tuple[str, str]] = []
    for key, pairs in by_key.items():
        if len(pairs) == 1 and pairs[0][3] == "worked":  # 'runs at tp 1 and 2 but OOMs at 4' (s26)
            s = _listed_then_failed(s, key, pairs[0], named)
            continue
        values = {float(v) for v, *_ in pairs}
        failed = {float(v) for v, _, _, out in pairs if out == "failed"}
        worked = {float(v) for v, _, _, out in pairs if out == "worked"}
        if len(values) < 2 or len(failed) != 1 or failed & worked or worked != values - failed:
            continue
        for v, start, end, _ in pairs:
            if float(v) in worked:
                named.append((s[start:end].strip(), "other_setup"))
                s = mask(s, start, end, " ")
            else:
                s = _mask_failure(s, *spans[start])
    return s, named


LIST_RE = rc(r"(?:\s*(?:,|，|、|/|\band\b|\bor\b|和|与|或)\s*(?P<v>\d{1,4})(?![\w.%]))+")
"""More values of the same setting right after its first ('tensor_parallel_size 1 and 2', 'bs 4, 8')."""
BARE_FAILED_RE = rc(
    r"(?:(?<![a-z])oom(?:s|ed)?|\bfail(?:s|ed)?|\bcrash(?:es|ed)?|out\s+of\s+memory)"
    r"(?P<gap>\s*(?:at|with|on|when\s+(?:set\s+to|at))\s*)(?P<v>\d{1,4})"
    r"(?=\s*(?:$|[,;:!?，。；：！？)）]|\.(?!\d)|\b(?:but|and|while|though)\b|但|而))"
)
"""A failure with the failing value bare after it and nothing else ('but OOMs at 4', 'crashes with 16,'): not
a number with its own unit ('OOMs at 64 concurrent requests', 'fails with 8 GPUs')."""
SHORT_KEYS = {
    "tp": "tp", "tp_size": "tp", "tensor_parallel": "tp", "tensor_parallel_size": "tp",
    "pp": "pp", "pp_size": "pp", "pipeline_parallel_size": "pp",
    "bs": "bs", "batch_size": "bs", "micro_batch": "bs", "micro_batch_size": "bs",
    "per_device_train_batch_size": "bs", "train_micro_batch_size_per_gpu": "bs",
}  # fmt: skip
"""A setting's key → the short word its reader reads ('tp 4', 'bs 16'), written where the failing value
stood bare."""


def _listed_then_failed(
    s: str, key: str, pair: tuple[str, int, int, str | None], named: list[tuple[str, str]]
) -> str:
    """``s`` with a setting's working values ('runs at tensor_parallel_size 1 and 2') masked and named as
    typed (``other_setup``) when its failing value is said bare in the next clause ('but OOMs at 4'): the
    setting's short word is written before that value in place of the words between (offsets kept:
    'OOMs   tp 4'), so the readers read it; else ``s``."""
    _, start, end, _ = pair
    more = LIST_RE.match(s, end)
    stop = more.end() if more else end
    failed = BARE_FAILED_RE.search(s, stop, stop + 40)
    short = SHORT_KEYS.get(key)
    if failed is None or short is None or failed.group("v") in re.findall(r"\d+", s[start:stop]):
        return s
    text = f"{short} {failed.group('v')}"
    a, b = failed.start("gap"), failed.end("v")
    if len(text) + 1 > b - a:
        return s
    named.append((s[start:stop].strip(), "other_setup"))
    s = mask(s, start, stop, " ")
    s = mask(s, failed.start(), a, " ")  # 'OOMs': the setting's failure, not the count's (s26 trial 2 #1)
    return s[:a] + text.rjust(b - a) + s[b:]
