"""The network between nodes said (s45 trial #5): 'we have 4 nodes x 8 H100 with RoCE (not IB)',
'有256张H800，IB网络', 'over InfiniBand', '100G 以太网'.

The sizing does not model the fabric: its MFU is fitted on published whole runs, which ran on InfiniBand
or on tuned RoCE (Meta's two 24,576-GPU Llama 3 clusters, one of each: engineering.fb.com 2024-03-12,
'Building Meta's GenAI Infrastructure'). Before, the fabric went unsaid; now the first fabric word is
named ``interconnect`` as typed (a bandwidth before it, '100G 以太网', masked with it) and the reason says
what the time assumes.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc

_RATE = r"(?:\d{2,3}\s*g(?:bps|b/s|b)?\s*)?"
FABRIC_RE = rc(
    _RATE + r"(?:\broce(?:\s*v2)?\b|\binfiniband\b"
    r"|\bib\b(?=\s*(?:网络|组网|互联|network|fabric|interconnect|\)|）))"
    r"|(?<=\s)ib(?=网)|(?:over|with|via|用|走)\s*ib\b|\bethernet\b|以太网)"
)
"""'roce', 'roce v2', 'infiniband', 'ib' beside a network word or after 'over'/'with' (not an 'ib' inside a
word), 'ethernet', '以太网', on the normalized (lower-case) text."""


def fabric_words(s: str, raw: str = "") -> tuple[str, list[tuple[str, str]]]:
    """``s`` with the first fabric phrase masked (same length), and it named as ``interconnect`` as typed in
    ``raw`` (the message before normalizing: '400G InfiniBand', not '400g infiniband'; s45 review item 5), or
    ``s`` and []. Callers test for 'roce', 'infiniband', ' ib', 'ethernet' or '以太网' first."""
    m = FABRIC_RE.search(s)
    if m is None:
        return s, []
    low = raw.lower()  # the same search on the message as typed ('400G' is '400gb' by now)
    t = FABRIC_RE.search(low) if len(low) == len(raw) else None
    typed = raw[t.start() : t.end()] if t is not None else m.group(0)
    return mask(s, m.start(), m.end(), " "), [(" ".join(typed.split()), "interconnect")]
