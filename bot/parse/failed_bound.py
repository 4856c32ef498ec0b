"""A setting's value above which the run failed (s45 round 41 zh, issue 24): '--gpu-memory-utilization 超过
0.82 就崩', 'batch_size 大于 8 就 OOM', '--max-num-seqs above 64 crashes'. The value is a limit the user
observed, not the setting of the run sized: named as typed with its key (``observed``), as other figures of
a run are (bot/core/ignored_reasons.py); before, the number was named ``unread`` (no word said what it is).

Only a flag or a config key written as such ('--max-num-seqs', 'gpu_memory_utilization') right before the
bound word, and a failure word right after the value ('崩', 'OOM', '报错', 'crash', 'fails'): 'batch 设成 8'
and '超过 80GB 的模型' are no such limit. Imported on first use behind bot.parse.settings.BOUND_WORDS.
"""

from __future__ import annotations

from bot.parse.regex import rc

FAILURE_WORDS = ("崩", "oom", "爆", "报错", "挂", "crash", "fail", "out of memory", "error", "die")
"""A failure word must be in the message too before :data:`FAILED_BOUND_RE` is searched."""
FAILED_BOUND_RE = rc(
    r"(?<![\w\-])(?P<key>--[a-z][a-z0-9_\-]+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*(?:[=:：]\s*)?"
    r"(?:(?:设|调|开)(?:到|成|为)?|set\s+(?:it\s+)?to|at)?\s*"
    r"(?:超过|大于|高于|above|over|more\s+than|greater\s+than)\s*(?P<v>\d+(?:\.\d+)?)(?![\d.])\s*"
    r"(?:就|会|则|后|以后|时|的话|[,，])?\s*(?:会|就)?\s*(?:直接)?\s*(?:(?:it\s+)?(?:runs?|goes|will|would)\s+)?"
    r"(?=崩|oom|爆|报错|挂|crash|fail|out\s+of\s+memory|errors?\b|dies|dying)"
)
"""A flag or config key, a bound word, the value, then a failure word (the module doc)."""


def failed_bounds(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` (normalized, lower-cased) with each setting's failing bound masked, and the items naming them
    (``'--gpu-memory-utilization: 0.82'``, ``observed``)."""
    named: list[tuple[str, str]] = []
    if not any(map(s.__contains__, FAILURE_WORDS)):
        return s, named
    for m in reversed(list(FAILED_BOUND_RE.finditer(s))):
        named.insert(0, (f"{m.group('key')}: {m.group('v')}", "observed"))
        s = s[: m.start()] + " " * (m.end() - m.start()) + s[m.end() :]
    return s, named
