"""Two setups compared in one message ('DPO vs full SFT', 'vllm vs sglang'): the one sized is kept, and
each other one is named as not sized (``other_setup``: 'another setup in your message: this answer
sizes the one named above — ask to size it'), as a second model already is (docs/design.md §8: nothing
named is silently dropped).

Only a message that compares (vs, versus, compared to, or, 对比, 比较, 还是, 相比, 哪个; 甚至 / 'and even')
names the others: 'SFT then DPO' is one pipeline, and 'Ollama (GGUF)' one runtime said twice."""

from __future__ import annotations

import re

from bot.parse import lexicon as lx
from bot.parse.method_words import RUNTIMES
from bot.parse.regex import rc
from bot.parse.words import model_description_removed

COMPARE_RE = rc(
    r"\bvs\.?(?![a-z])|\bversus\b|\bcompar(?:e|ed|ing|ison)\b|\bor\b|\bagainst\b|对比|比较|还是|相比|或者|哪个|哪一个|和.{0,30}比"
    r"|甚至|乃至|\b(?:and|or)\s+even\b|比用|比起|相较|\bthan\b"  # round 5: '甚至', '比用 X 大'
)
"""Words that set two setups side by side."""

LISTED_RE = rc(
    r"\brespectively\b|\b(?:for\s+)?each\s+(?:of\s+)?(?:the\s+)?(?:stages?|phases?|algorithms?|methods?)\b"
    r"|分别|各自|每个阶段"
)
"""Words that make algorithms named together separate setups, each asked about ('how many GPUs for PPO,
REINFORCE++ and GRPO, respectively', 'for each of the stages (SFT, reward model training, PPO)', '分别')."""
PIPELINE_RE = rc(r"\bthen\b|\bfollowed\s+by\b|\bafter\b|\bbefore\b|->|→|然后|之后|再做|再用")
CONTRAST_RE = rc(r"\bbut\b|\bwhereas\b|\bunlike\b|\bhowever\b|但是|可是|不过")
"""Words that set two algorithms against each other ('PPO might work, but SFT OOMs'): separate setups, the
first named sized, when nothing chains them into one run (round 17: 'train a 70B for SFT … PPO might work
across nodes, but SFT …' sized PPO by the algorithms' order of precedence)."""
"""Words that chain algorithms into one run ('SFT then DPO'): never separate setups by a list alone."""


def apart(s: str, count: int) -> bool:
    """Whether ``count`` algorithms named in the normalized text ``s`` are separate setups (the first
    sized, the others named): compared ('GRPO or DPO'), or listed as each asked about ('respectively',
    'for each of the stages') or three or more in a list ('SFT, DPO and PPO'), never chained ('SFT then
    DPO', one pipeline; round 16 English)."""
    if count < 2:
        return False
    if COMPARE_RE.search(s) or (CONTRAST_RE.search(s) and not PIPELINE_RE.search(s)):
        return True
    return bool(LISTED_RE.search(s) or count > 2) and not PIPELINE_RE.search(s)


_ALGORITHM_NAMES = {"dpo": "DPO", "grpo": "GRPO", "ppo": "PPO", "rloo": "RLOO", "sft": "SFT"}


def sized_algorithm(s: str) -> str | None:
    """The algorithm sized for the normalized text ``s``: in a message that compares ('GRPO or DPO',
    'GRPO还是DPO') the first one named (the others are ``other_setup``: :func:`compared_setups`); else
    the first of :data:`bot.parse.lexicon.ALGORITHM_RES` found ('SFT then DPO' is one DPO pipeline); not
    one that only says how a served model was made ('serve a model trained with RLHF'; s12 review 3)."""
    s = model_description_removed(s)
    found = [(m.start(), name) for name, pattern in lx.ALGORITHM_RES if (m := pattern.search(s))]
    if apart(s, len(found)):
        return min(found)[1]
    return found[0][1] if found else None


SENTENCE_END_RE = re.compile(r"[。!！?？;；\n]|\.(?!\d)")
"""A sentence's end (not a version's point: 'qwen2.5')."""


def _own_sentences(s: str, algorithm: str | None) -> bool:
    """Whether another algorithm is named in a sentence of its own, apart from every mention of the one
    sized, and nothing chains them into one run (s31: 'Can Online DPO train 72B models? … for 7B PPO you
    use 7 GPUs': PPO is another setup, named, never dropped in silence; 'SFT then DPO' stays one run)."""
    sized = dict(lx.ALGORITHM_RES).get(algorithm or "")
    if sized is None or PIPELINE_RE.search(s):
        return False
    parts = [p for p in SENTENCE_END_RE.split(s) if p.strip()]
    others = [p for n, p in lx.ALGORITHM_RES if n != algorithm]
    return any(sized.search(part) for part in parts) and any(
        not sized.search(part) and any(o.search(part) for o in others) for part in parts
    )


def compared_setups(s: str, algorithm: str | None, runtime: str | None) -> list[tuple[str, str]]:
    """('algorithm: SFT', 'other_setup') for each algorithm or serving runtime named in the normalized
    text ``s`` besides the one sized (``algorithm``, ``runtime``), when the message compares them."""
    compare = COMPARE_RE.search(s)
    found = sum(1 for _, p in lx.ALGORITHM_RES if p.search(s)) if algorithm is not None else 0
    listed = found > 1 and (apart(s, found) or _own_sentences(s, algorithm))  # apart: 2 or more
    if not compare and not listed:
        return []
    out: list[tuple[str, str]] = []
    if algorithm is not None:
        for name, pattern in lx.ALGORITHM_RES:
            if name != algorithm and pattern.search(s):
                out.append((f"algorithm: {_ALGORITHM_NAMES.get(name, name)}", "other_setup"))
    if runtime is not None and compare:
        seen = {runtime}
        for pattern, other in RUNTIMES:
            if other not in seen and pattern.search(s):
                seen.add(other)
                out.append((f"runtime: {other}", "other_setup"))
    return out
