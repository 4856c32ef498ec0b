"""Chat forms (issue 24, paraphrase robustness): how people in a group chat or an issue thread shorten or
reorder what the count and setting rules read written out, spelt out before those rules read the text.

- **w/, w/o** ('LoRA w/ ZeRO-3', 'FT w/ and w/o LoRA'): 'with', 'without' (so 'with and without LoRA'
  reads as both methods, :mod:`bot.parse.with_without`).
- **global / effective / total bs** ('global bs 256'): the global batch, as 'global batch 256' is read
  (lexicon.GLOBAL_BATCH_RE); 'bs' alone stays the micro-batch.
- **Nodes written card × count first** ('two H100*8 machines', '3 A100x8 nodes', 'two 8xH100 nodes'): that
  many nodes of that many cards each, written as the node rules read it ('two machines of 8 h100'); before,
  the node count was taken for the cards and the per-node count named as repeated.

Only a word of its own is spelt out: never inside a path ('/data/w/o'), a name or a key."""

from __future__ import annotations

import re

from bot.parse.regex import rc

W_WITHOUT_RE = rc(r"(?<![\w/.\-])w/(?:o|out)(?![\w/.])")
"""'w/o', 'w/out': without."""
W_WITH_RE = rc(r"(?<![\w/.\-])w/(?=(\s)|[a-z][a-z0-9\-]*(?![\w/]))")
"""'w/ LoRA', 'w/lora': with (not 'w/o', read first, nor a path segment 'a/w/b')."""
GLOBAL_BS_RE = rc(r"\b(?:global|effective|total|overall)[\s_\-]+bs\b")
"""'global bs 256', 'effective bs=64': the global batch."""

_N = r"(?<![\d.])(\d{1,3}|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen)"
_CARD = r"((?:nvidia\s+)?[a-z]{1,4}\s?\d{2,4}[a-z]?)"
_NODES = r"(nodes?|machines?|servers?|boxes|hosts?)\b"
CARD_TIMES_NODES_RE = rc(rf"{_N}\s+{_CARD}\s*[x×*]\s*(\d{{1,2}})\s+{_NODES}")
"""'two H100*8 machines', '3 a100x8 nodes': N nodes, each of M cards."""
TIMES_CARD_NODES_RE = rc(rf"{_N}\s+(\d{{1,2}})\s*[x×*]\s*{_CARD}\s+{_NODES}")
"""'two 8xH100 nodes', '4 8 x A100 servers': N nodes, each of M cards."""
_GATE = re.compile(r"w/|\bbs\b|node|machine|server|box|host")


def chat_forms(s: str) -> str:
    """The normalized text ``s`` with the chat forms of this module's docstring written out."""
    if not _GATE.search(s):
        return s
    if "w/" in s:
        s = W_WITH_RE.sub(lambda m: "with" if m.group(1) else "with ", W_WITHOUT_RE.sub("without", s))
    if "bs" in s:
        s = GLOBAL_BS_RE.sub("global batch", s)
    s = CARD_TIMES_NODES_RE.sub(r"\1 \4 of \3 \2", s)
    return TIMES_CARD_NODES_RE.sub(r"\1 \4 of \2 \3", s)
