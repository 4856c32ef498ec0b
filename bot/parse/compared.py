"""Two setups compared in one message ('DPO vs full SFT', 'vllm vs sglang'): the one sized is kept, and
each other one is named as not sized (``other_setup``: 'another setup in your message: this answer
sizes the one named above — ask to size it'), as a second model already is (docs/design.md §8: nothing
named is silently dropped).

Only a message that compares (vs, versus, compared to, or, 对比, 比较, 还是, 相比, 哪个; 甚至 / 'and even')
names the others: 'SFT then DPO' is one pipeline, and 'Ollama (GGUF)' one runtime said twice."""

from __future__ import annotations

from bot.parse import lexicon as lx
from bot.parse.method_words import RUNTIMES
from bot.parse.regex import rc
from bot.parse.words import model_description_removed

COMPARE_RE = rc(
    r"\bvs\.?(?![a-z])|\bversus\b|\bcompar(?:e|ed|ing|ison)\b|\bor\b|\bagainst\b|对比|比较|还是|相比|或者|哪个|哪一个|和.{0,30}比"
    r"|甚至|乃至|\b(?:and|or)\s+even\b|比用|比起|相较|\bthan\b"  # round 5: '甚至', '比用 X 大'
)
"""Words that set two setups side by side."""

_ALGORITHM_NAMES = {"dpo": "DPO", "grpo": "GRPO", "ppo": "PPO", "rloo": "RLOO", "sft": "SFT"}


def sized_algorithm(s: str) -> str | None:
    """The algorithm sized for the normalized text ``s``: in a message that compares ('GRPO or DPO',
    'GRPO还是DPO') the first one named (the others are ``other_setup``: :func:`compared_setups`); else
    the first of :data:`bot.parse.lexicon.ALGORITHM_RES` found ('SFT then DPO' is one DPO pipeline); not
    one that only says how a served model was made ('serve a model trained with RLHF'; s12 review 3)."""
    s = model_description_removed(s)
    found = [(m.start(), name) for name, pattern in lx.ALGORITHM_RES if (m := pattern.search(s))]
    if len(found) > 1 and COMPARE_RE.search(s):
        return min(found)[1]
    return found[0][1] if found else None


def compared_setups(s: str, algorithm: str | None, runtime: str | None) -> list[tuple[str, str]]:
    """('algorithm: SFT', 'other_setup') for each algorithm or serving runtime named in the normalized
    text ``s`` besides the one sized (``algorithm``, ``runtime``), when the message compares them."""
    if not COMPARE_RE.search(s):
        return []
    out: list[tuple[str, str]] = []
    if algorithm is not None:
        for name, pattern in lx.ALGORITHM_RES:
            if name != algorithm and pattern.search(s):
                out.append((f"algorithm: {_ALGORITHM_NAMES.get(name, name)}", "other_setup"))
    if runtime is not None:
        seen = {runtime}
        for pattern, other in RUNTIMES:
            if other not in seen and pattern.search(s):
                seen.add(other)
                out.append((f"runtime: {other}", "other_setup"))
    return out
