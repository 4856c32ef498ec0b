"""A long-context phase at the end of a pre-training run (trial s12 A3): '128k context for the last 50B
tokens', 'the last 50B tokens at 128k context', '最后 500 亿 token 用 128k 上下文',
'最后 50B token 扩到 128K 长度'.

Llama 3 (Dubey et al. 2024, §3.4.2 "Long Context Pre-Training") and the Qwen2.5 technical report (2024,
long-context pre-training) pre-train at a short context and extend it on a last, small share of the
tokens. The sizing has one sequence length for the whole run, so the phase is named as not used
(``no_field``: it changes the answer, and the sizing has no setting for it yet) and the run is sized at
its main length. Before, all 2T tokens were timed at 128K (the attention term about 3x the time) and the
phase's 50B was named as a second token count.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc, words_gate

_CTX = r"\d+(?:\.\d+)?\s*[km]"
_TOKENS = r"\d+(?:\.\d+)?\s*(?:[bt]|亿|万亿|billion|trillion)"
_CTX_WORD = r"(?:context|ctx|sequences?|seq(?:uence)?\s+length|上下文|长度|序列)"
PHASE_RE = rc(
    rf"{_CTX}\s*(?:-?tokens?\s+)?{_CTX_WORD}\s*(?:for|on|over|during|in)\s+the\s+(?:last|final)\s+{_TOKENS}"
    r"\s*tokens?"
    rf"|(?:the\s+)?(?:last|final)\s+{_TOKENS}\s*tokens?\s*(?:at|with|on|in)\s+(?:a\s+)?{_CTX}"
    rf"(?:\s*-?tokens?)?\s*{_CTX_WORD}?"
    rf"|最后\s*(?:的\s*)?{_TOKENS}\s*(?:个\s*)?(?:token|词元|数据)\s*(?:用|使用|上|扩到|扩展到|开到|开|在)?\s*{_CTX}"
    rf"\s*(?:的\s*)?{_CTX_WORD}?"
)
"""The phase: its context and its (last) tokens, either order, English or Chinese. The count is followed by a
token word: a bare '70B' is a model's size ('最后 70B 用 32k 上下文部署'; session 13 review finding 4)."""
_GATE = ("last", "final", "最后")
_GATE_RE = words_gate(_GATE)
TRAINING_RE = rc(r"(?i)train|训练|训|\bcpt\b")
"""A training word: a phase is a pre-training run's; a serving question has none ('最后 70B 用 32k
上下文部署，100 并发要几张 H100？' is a 70B served at 32k)."""


def context_phase(s: str) -> tuple[str, list[tuple[str, str]]]:
    """``s`` with a long-context phase masked, and the phase named as not used (``no_field``)."""
    if not _GATE_RE.search(s) or not TRAINING_RE.search(s):
        return s, []
    named: list[tuple[str, str]] = []
    for m in reversed(list(PHASE_RE.finditer(s))):
        named.insert(0, (" ".join(m.group(0).split()).rstrip(",. "), "no_field"))
        s = mask(s, m.start(), m.end(), " ")
    return s, named
