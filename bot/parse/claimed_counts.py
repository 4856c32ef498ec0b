"""A GPU count said of another party's setup, or of a requirement the user questions, when the user gives
one card of their own (issue 24, session 22): named (``other_setup``), not sized.

People ask why a maintainer, a guide or a claim needs more cards than the one they have: 'why do you need
2 GPUs to run Qwen2.5 3B? My 4090 has 24GB', '你们用的是 A100-80G，是一定要 8 张卡么，单卡无法训练？',
'Does gpt-oss-120b really need two DGX Spark nodes? Shouldn't it fit on a single Spark?'. The count after
a second-person setup word ('you need', 'do you use', '你们用', '您用') or a questioned requirement
('really need', '一定要', '必须要', '非得') up to the end of its sentence — or up to the user's own single
card, when that comes first in the sentence — is the other party's; when the message also names one card
of the user's own outside that stretch ('单卡', '单芯', 'a single Spark', 'one GPU', 'my 4090',
'GPU=1'), the other party's count is named and the single card is the setup sized. Without a card of the
user's own the count stays: 'you need 2 GPUs for this' alone is the only count said.

Like :mod:`bot.parse.earlier_counts` (an earlier setup's count, named when the message gives the count
asked about), it reads the text before masks and the roles the numbers got.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.parse.regex import rc
from bot.parse.words import SINGLE_CARD_RE

if TYPE_CHECKING:
    from bot.parse.roles import Role

OTHER_PARTY_RE = rc(
    r"\b(?:do|did|does|would)\s+you\s+(?:really\s+)?(?:need|use|recommend|require)\b"
    r"|\byou\s+(?:guys\s+)?(?:need|used?|recommend|require|suggest)\b"
    r"|\breally\s+(?:need|require)s?\b"
    r"|你们(?:用|使用|需要|推荐|说)|您(?:用|使用|推荐)|(?:一定|必须|非得)要"
    r"|\b(?:readme|repo(?:sitory)?|paper|docs?|documentation|guide|blog(?:\s+post)?|model\s+card|tutorial)"
    r"\s+(?:says|said|states|stated|claims|claimed|reports|reported|mentions|mentioned)\b"
)
"""A second-person setup or a questioned requirement: the count after it (in its sentence) is not the
user's own. 'really need' and '一定要' question a claim ('does it really need two nodes', '是一定要 8 张卡
么'); 'you need', '你们用' say what the other party runs; a document's reported claim ('the original LLaVA
repo says it fits 7B in 8-RTX3090', 'the paper states …', round 17) is the document's setup."""

OWN_SINGLE_RE = rc(
    rf"{SINGLE_CARD_RE.pattern}|单芯|单颗"
    r"|\ba\s+single\s+(?:(?:nvidia|rtx|geforce|dgx|tesla)\s+)?(?:gpu|card|device|accelerator|spark"
    r"|[a-z]{0,2}\d{2,4}[a-z]{0,3})\b(?!\s*s\b)"
    r"|\bone\s+(?:gpu|card)\b|\bsingle[\s\-]gpu\b"
    r"|\bmy\s+(?:\d{1,3}\s*gi?b\s+)?(?:(?:rtx|nvidia|geforce)\s*)?\d{4}(?:\s*ti)?\b(?!\s*s\b)"
    r"|\bgpus?\s*=\s*1\b"
)
"""One card of the user's own: '单卡' (:data:`bot.parse.words.SINGLE_CARD_RE`: not '单卡 batch'), '单芯
1684x', 'a single Spark', 'a single RTX 3090', 'one GPU', 'my 4090', 'my 24GB RTX 3090' (round 17),
'GPU=1'. 'a single node' (many cards), 'a single epoch' (no card) are not."""

SENTENCE_END_RE = rc(r"[。！？!?;；\n]|\.(?:\s|$)")


def _windows(s: str) -> list[tuple[int, int]]:
    """(start, end) of each other-party stretch: from the cue to the end of its sentence, or to the user's
    own single card when that comes first ('是一定要 8 张卡么，单卡无法训练？')."""
    out = []
    for m in OTHER_PARTY_RE.finditer(s):
        end = SENTENCE_END_RE.search(s, m.end())
        own = OWN_SINGLE_RE.search(s, m.end())
        out.append((m.start(), min(x.start() for x in (end, own) if x) if end or own else len(s)))
    return out


def claimed_counts(s: str, roles: list[Role]) -> tuple[list[Role], list[tuple[str, str]]]:
    """``roles`` without the GPU counts said of another party's setup when ``s`` (the normalized text the
    roles were read on) names one card of the user's own, and those counts named as typed
    (``other_setup``)."""
    counts = [r for r in roles if r.role == "count"]
    if not counts:
        return roles, []
    windows = _windows(s)
    if not windows:
        return roles, []

    def claimed(pos: int) -> bool:
        return any(a <= pos < b for a, b in windows)

    theirs = [r for r in counts if claimed(r.tok.start)]
    own = [m for m in OWN_SINGLE_RE.finditer(s) if not claimed(m.start())]
    if not theirs or not own:
        return roles, []
    return [r for r in roles if r not in theirs], [(r.tok.raw.strip(), "other_setup") for r in theirs]
