"""An offload said beside a question asked without one (issue 24 item 4, offload direction; s45-workmiss).

'The 250K context only starts with --cpu-offload-gb … can the eight 3090s hold it without offloading?',
'ZeRO-3 with the optimizer offloaded to CPU runs, offloading to NVMe runs out of memory … is this card big
enough without offload?', 'with or without offloading to CPU', '之前开了 offload 到 CPU 才跑起来，不开 offload
能跑吗': the setup asked about has no offload (bot.parse.vocab_patterns.NO_OFFLOAD_RE, read first), and the
offload the message also names is another setup's — named as typed by its direction ('offload: cpu',
'offload: nvme'), reason ``other_setup``, never dropped in silence (docs/design.md §8). Called only where a
no-offload phrase was read (its own cue), on the text with that phrase masked.
"""

from __future__ import annotations

import re

OFFLOAD_SAID_RE = re.compile(r"offload\w*|卸载")
"""Any offload word left once the no-offload phrase is masked: an offload said of another setup."""
_NVME_RE = re.compile(r"nvme|ssd|磁盘|硬盘")
"""The offload's target written near it: NVMe (DeepSpeed ZeRO-Infinity ``offload_*.device: nvme``)."""
_BOTH_RE = re.compile(r"\b(?:with|on)\s+or$|(?<!没)有$|开$|开\s*[或和]$")
"""'with or' ('… without offloading'), '有' ('没有 offload'), '开' ('不开 offload') right before the
no-offload phrase: 'with or without', '有没有', '开不开' — both setups asked about."""


def offloads_aside(masked: str, before: str) -> list[tuple[str, str]]:
    """('offload: cpu' | 'offload: nvme', 'other_setup') for each offload direction said in ``masked`` (the
    normalized text with the no-offload phrase blanked), and for 'with or without' written right before that
    phrase (``before``: the text up to it, its direction read after it). Each direction once, in order."""
    out: list[tuple[str, str]] = []
    spots = [(m.start(), m.end()) for m in OFFLOAD_SAID_RE.finditer(masked)]
    if _BOTH_RE.search(before):
        spots.insert(0, (len(before), len(before)))
    for start, end in spots:
        near = masked[max(0, start - 30) : end + 30]
        item = (f"offload: {'nvme' if _NVME_RE.search(near) else 'cpu'}", "other_setup")
        if item not in out:
            out.append(item)
    return out
