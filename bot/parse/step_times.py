"""Measured step times (trial s12 A9): '95 s/it', '1.5 it/s', '3.2 s per step', 'one step takes about
210 s', '每步 120 秒', '每步约 45 秒', '120 秒一步', '每个 step 大概 30 秒'.

A time per training step is what a run the user watched reports (the progress bar of Hugging Face
Trainer / TRL prints 's/it' or 'it/s'; verl, OpenRLHF and ms-swift log a time per step): an observation,
not a setting the sizing takes. Each one is named as ``observed`` with its value as typed. Before, the
number was left behind with 'no word said what it is', as if the user had typed a stray number.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc, words_gate

_V = r"(?P<v>\d+(?:\.\d+)?)"
_SECONDS = r"(?:s|secs?|seconds?|mins?|minutes?|秒钟?|分钟)"
_STEP = r"(?:it|iters?|iterations?|steps?|training\s+steps?)"
VALUE_FIRST_RE = rc(
    rf"(?<![\w.]){_V}\s*{_SECONDS}\s*(?:/\s*{_STEP}|per\s+{_STEP}|an?\s+{_STEP}|each\s+{_STEP}"
    r"|一步|每步|/\s*步|一个\s*step)(?![a-z])"
    r"|(?<![\w.])(?P<w>\d+(?:\.\d+)?)\s*(?:it|its|iters?)\s*/\s*s(?![a-z])"
)
"""'95 s/it', '3.2 s per step', '2 minutes a step', '120 秒一步', '1.5 it/s' (iterations per second)."""
STEP_FIRST_RE = rc(
    r"(?:每一?步|一步|每个\s*(?:step|迭代|iteration)|每次迭代|每轮迭代|单步"
    r"|\b(?:one|each|a|per|every|the)\s+(?:training\s+)?(?:step|iteration)s?|\bstep\s*time|\btime\s+per\s+step"
    r"|\biteration\s+time)"
    rf"[^\d\n。.;；!?！？]{{0,20}}?(?<![\w.]){_V}\s*{_SECONDS}(?![a-z])"
)
"""'one step takes about 210 s', 'step time 3.5s', '每步 120 秒', '每步耗时 8s', '一步要 20 秒'."""
_GATE = ("步", "step", "/it", "it/s", "iter", "迭代")
_GATE_RE = words_gate(_GATE)
WISH_RE = rc(
    r"希望|不超过|不要超过|以内|之内|控制在|目标|要求|最多|最好|"
    r"\b(?:want|wants|need|needs|target|aim|within|at\s+most|no\s+more\s+than|less\s+than)\b"
)
"""Words that make a step time a wish, not a measurement: '希望每步不超过 2 秒', '每步 2 秒以内',
'we want 2 s/it or less', 'target 1.5 s per step' (s13 review 13: named "observed", from a run)."""
_WISH_BEFORE = 16  # characters before the time (the STEP_FIRST form's own span is searched too)
_WISH_AFTER = 4  # '2 秒以内'


def step_times(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with each step time masked, and each named (its value as typed): ``observed`` when measured,
    ``step_time_target`` when :data:`WISH_RE` says it is wanted (the sizing has no per-step target)."""
    if not _GATE_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for pattern in (VALUE_FIRST_RE, STEP_FIRST_RE):
        for m in reversed(list(pattern.finditer(s))):
            wish = WISH_RE.search(s, max(0, m.start() - _WISH_BEFORE), m.end() + _WISH_AFTER)
            named.insert(
                0, (m.groupdict().get("w") or m.group("v"), "step_time_target" if wish else "observed")
            )
            s = mask(s, m.start(), m.end(), " ")
    return s, named
