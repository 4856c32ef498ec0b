"""An x glued to a model number right before a card word is a card's name, not a count (s42 trial #1).

'serve Qwen2.5-7B on an X9000 GPU' was read as 9,000 × A100 and '部署到 X9000 显卡上' left '9000' unused:
the normalizer's 'A100 x8' rule (``x<digits>`` after white space is 'x <count>') took the name's X as a
times sign. A card word right after the number, and before the x no card name, spec or machine word
('A100 x8 GPUs', 'H100 SXM x8 GPUs', '2 nodes x8 GPUs': a count), keep the name whole ('X9000', 'Foo X1'),
so :data:`bot.parse.lexicon.UNKNOWN_GPU_RE` names it as typed and the reply asks for its memory.
"""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.regex import rc

_CARD_AFTER_RE = rc(
    r"\s*(?:\d{2,3}\s*g(?:i?b)?\s*)?(?:的\s*)?(?:gpus?|cards?|accelerators?|npus?|显卡|加速卡|卡)(?![a-z])"
)
"""A card word right after the number, perhaps after the card's memory ('x9000 gpu', 'x9000 48gb gpu',
'x9000 显卡')."""
_COUNTED_WORDS = frozenset(
    (
        *("node", "nodes", "machine", "machines", "server", "servers", "box", "boxes", "host", "hosts"),
        *("instance", "instances", "pod", "pods", "sxm", "pcie", "nvl", "hgx", "dgx", "gpu", "gpus", "card"),
        *("cards", "rig", "rigs", "cluster", "clusters", "worker", "workers"),
    )
)
"""Words a count of cards follows ('2 nodes x8 GPUs', 'H100 SXM x8 GPUs'): the x is a times sign there."""
_FUNCTION_WORDS = frozenset((*lx.NOT_CARD_NAME_WORDS, "a", "an"))
"""Words that end a phrase before a card's name ('on an X9000 GPU', 'with x8 GPUs'): after them only a
model number of 3 or more digits is a name ('x9000'; 'with x8 GPUs' stays eight cards)."""
_NAME_BEFORE_ZH = "到在用上是张块款个买租的有台"
"""Chinese characters a card's name follows ('到 X9000 显卡上', '一张 X9000 显卡')."""


def x_is_name(m: re.Match[str]) -> bool:
    """Whether the match of ``x<digits>`` (group 1 the digits, in the normalized lower-case text) is a card's
    model name: a card word right after it, and before it none of :data:`_COUNTED_WORDS` nor a word holding a
    digit (a catalog card's name, a memory); after a function word or a Chinese preposition or measure word
    only with 3+ digits. The caller runs it only on a match (an x after white space, then digits)."""
    s = m.string
    if not _CARD_AFTER_RE.match(s, m.end()):
        return False
    before = s[max(0, m.start() - 24) : m.start()].split()
    word = before[-1] if before else ""
    if not word or word[-1] in _NAME_BEFORE_ZH or word in _FUNCTION_WORDS:
        return len(m.group(1)) >= 3
    if word[-1] >= "\u3000" or any(c.isdigit() for c in word) or word in _COUNTED_WORDS:
        return False
    return word.isascii() and word.isalpha()
