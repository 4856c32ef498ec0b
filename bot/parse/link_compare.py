"""A comparison of GPU links asked ('NVLink vs PCIe, how much difference?', 'NVLink 和 PCIe 差多少', 'the SXM
or the PCIe version?') with no answer of its own (s47 drop #7). Before, the question was dropped in silence:
the reply sized the job and never said the comparison asked was not answered.

The estimator takes each card's links from its catalog entry (``estimator.gpu_spec.GpuSpec.nvlink``): with
NVLink a layout may use tensor parallelism inside a node, over PCIe data parallelism is preferred
(estimator.layouts.plan_preference); it has no timing model of the link's bandwidth, so how much faster
one link makes the job is not estimated. The comparison is named as typed, reason ``link_compare``
(bot.render.ignored_texts), and the job is still sized as said.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc

_LINK = r"(?:nvlink|pcie|sxm)(?:\s*(?:版本?|version|variant|card)s?)?"
COMPARE_RE = rc(
    rf"(?<![a-z0-9])(?P<a>{_LINK})\s*"
    r"(?:vs\.?|versus|v\.s\.|compared (?:to|with)|and|or|和|与|跟|对比|比|还是|或)"
    rf"\s*(?:the\s+)?(?P<b>{_LINK})(?![a-z0-9])"
)
"""Two links joined by a comparing word ('nvlink vs pcie', 'pcie 和 nvlink', 'sxm or pcie version'), on the
normalized (lower-case) text; the two must differ (:func:`link_compare`)."""


ASKED_RE = rc(
    r"(?:does|do|would|will|is|how much (?:does|would|will))\s+(?:the\s+|an?\s+)?nvlink(?:\s+bridge)?\s+"
    r"(?:really\s+)?(?:matter|help|make\s+(?:a|much|any)\s+difference|worth\s+it|needed|necessary|required"
    r"|speed\s+(?:it\s+|things\s+|training\s+)?up)"
    r"|(?:need|require|worth)\s+(?:an?\s+)?nvlink(?:\s+bridge)?(?=\s*(?:\?|for\b))"
    r"|nvlink\s*(?:桥)?\s*(?:到底|真的)?\s*(?:有没有必要|有必要吗|重要吗|有用吗|有多大(?:影响|用|区别|提升)|影响大吗"
    r"|能快多少|快多少|提升多少|值得吗|需要吗|有影响吗)"
    r"|(?:需要|要不要|有必要|必须)\s*(?:上|加|用|装)?\s*nvlink(?:\s*桥)?\s*(?:吗|么)?"
)
"""Whether NVLink matters, asked of one setup ('does NVLink matter for 2x 3090 training', 'do I need
NVLink?', 'NVLink 有没有必要', '要不要上 NVLink'; s49 leftovers #4): a comparison of links too, not answered
by any timing model either (named ``link_compare``); not 'with NVLink' said of the cards (a setup)."""


def link_asked(s: str, raw: str = "") -> tuple[str, list[tuple[str, str]]]:
    """``s`` with the first question whether NVLink matters (:data:`ASKED_RE`) masked, and it named
    ``link_compare`` as typed in ``raw`` — or ``s`` and []. Callers test for 'nvlink' first."""
    m = ASKED_RE.search(s)
    if m is None:
        return s, []
    low = raw.lower()
    t = ASKED_RE.search(low) if len(low) == len(raw) else None
    typed = raw[t.start() : t.end()] if t is not None else m.group(0)
    return mask(s, m.start(), m.end(), " "), [(" ".join(typed.split()).rstrip("?？"), "link_compare")]


def link_compare(s: str, raw: str = "") -> tuple[str, list[tuple[str, str]]]:
    """``s`` with the first comparison of two different links masked (same length), and it named
    ``link_compare`` as typed in ``raw`` (the message before normalizing) — or ``s`` and []. Callers test
    for 'pcie' and 'nvlink' or 'sxm' first."""
    for m in COMPARE_RE.finditer(s):
        if m["a"][:3] == m["b"][:3]:  # 'PCIe and PCIe': no comparison
            continue
        low = raw.lower()
        t = COMPARE_RE.search(low) if len(low) == len(raw) else None
        typed = raw[t.start() : t.end()] if t is not None else m.group(0)
        return mask(s, m.start(), m.end(), " "), [(" ".join(typed.split()), "link_compare")]
    return s, []
