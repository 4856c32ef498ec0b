"""Two models set side by side on one job (session 36 fixb #1): 'Qwen3-32B 还是 Llama-3.3-70B，哪个用 4 张
H20 部署更划算', 'Qwen3-32B or Llama-3.3-70B — which is cheaper to serve on 4 H20?', 'compare Llama-3.1-8B
and Qwen3-8B for LoRA on one A100'.

The parser sizes one model and names each other one ``model: <as typed>`` / ``other_setup``
(:mod:`bot.parse.asked_model`). When the two names are joined by a word that sets them against each other
(还是, 或者, or, vs, versus, 对比, 比较, 相比), or by 'and'/和/与/跟 with a word asking which one (哪个,
哪一个, which, compare, 对比, 比较) right before or after the pair (:data:`WHICH_WINDOW`, within its sentence)
and not asking which card ('哪个卡', 'which GPU': :data:`ASKS_HARDWARE_RE`), the other model is
compared instead: its catalog id goes in
``compared_models`` and core sizes it at the same load and settings (bot.core.compared_models). A message
that merely mentions a second model ('I ran Qwen3-8B last week; now 70B on 8 A100?') keeps the other one
named as not used (docs/design.md §8)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.parse.regex import rc
from bot.parse.spelling_tables import TRAD_TO_SIMP
from bot.parse.trad_chars import TRAD_RE, simplified_char

if TYPE_CHECKING:
    from bot.parse.result import ParseResult

PREFIX = "model: "
"""How :mod:`bot.parse.asked_model` names another model (``interpretation.ignored``)."""
MAX_GAP = 24
"""At most this many characters between the two names: one joining word and its spaces or a comma."""

SETS_AGAINST_RE = rc(r"还是|或者|或是|\bor\b|\bvs\.?(?![a-z])|\bversus\b|对比|比较|相比|\bagainst\b")
"""Words between two names that set them against each other (not '/': 'Qwen14B（Qwen/Qwen1.5-14B）' is one
model restated by its repository path)."""
ALIAS_RE = rc(r"[(（\[【]")
"""A bracket between the names: the second restates the first ('Qwen14B（Qwen1.5-14B）'), never compared."""
JOINS_RE = rc(r"和|与|跟|\band\b|、|,|，")
"""Words that join two names, comparing only in a message that asks which."""
ASKS_WHICH_RE = rc(
    r"哪个|哪一个|哪款|哪种|谁更|\bwhich\b|\bcompar(?:e|ed|ing|ison)\b|对比|比较|相比|更划算|更便宜|更快"
)
"""A word that asks which of the named ones (near the pair: :func:`_asks_which`)."""
WHICH_WINDOW = 40
"""How many characters before the first name or after the second one the which-word is looked for."""
ASKS_HARDWARE_RE = rc(
    r"\s*(?:张|块|台|个|种|款|家)?\s*(?:显卡|卡|gpus?\b|cards?\b|机器|服务器|instances?\b|nodes?\b|节点|硬件"
    r"|hardware\b|accelerators?\b|芯片|chips?\b|云|clouds?\b|providers?\b|平台|platforms?\b)"
)
"""After the which-word: it asks which card or machine ('哪个卡', 'which GPU'), not which model."""
SENTENCE_END_RE = rc(r"[。；;!！]|\.\s")
"""A sentence stop: the which-word is looked for within the pair's sentence."""
FASTER_RE = rc(r"更快|较快|快一些|速度|\bfaster\b|\bquicker\b|\bspeed\b|\bthroughput\b|吞吐")
"""The message asks which is faster ('哪个更快', 'which is faster'): speed decides before cost."""
CARDS_FASTER_RE = rc(
    r"\bfaster\b|\bquicker\b|哪个快|哪个更快|哪个比较快|更快|较快|快一些|哪个[^，,。？?]{0,6}快"
)
"""Two or more cards compared and the message asks which is faster ('which is faster, a 4090 or an A100',
'4090 和 A100 哪个快'): the speed line leads (s37 fixg #1; bot.render.faster_line)."""
FASTER_ASKED = "compared_faster"
"""The note :func:`with_models_compared` adds when the message asks which is faster."""


def with_models_compared(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with the one other model it names compared (module doc), else ``parsed`` itself."""
    others = [(t, r) for t, r in parsed.unused_numbers if r == "other_setup" and t.startswith(PREFIX)]
    typed = parsed.model_typed
    if len(others) != 1 or not typed or parsed.request.model is None or parsed.gpu_alternatives:
        return parsed
    other = others[0][0][len(PREFIX) :]
    text, name, other_name = (_simplified(t.lower()) for t in (raw, typed, other))
    at, at_other = text.find(name), text.find(other_name)
    if at < 0 or at_other < 0:
        return parsed
    first, second = sorted(((at, name), (at_other, other_name)))
    gap = text[first[0] + len(first[1]) : second[0]]
    ends = (first[0], second[0] + len(second[1]))
    if len(gap) > MAX_GAP or ALIAS_RE.search(gap) or not _compares(gap, text, ends):
        return parsed
    model = _catalog_id(other)
    if model is None or model == parsed.request.model:
        return parsed
    kept = [n for n in parsed.unused_numbers if n != others[0]]
    notes = [*parsed.notes, FASTER_ASKED] if FASTER_RE.search(text) else parsed.notes
    return parsed.model_copy(update={"compared_models": (model,), "unused_numbers": kept, "notes": notes})


def _simplified(text: str) -> str:
    """``text`` in Simplified characters, one for one (s37 fixg #3: '哪個比較快', '還是' read as '哪个比较快',
    '还是'); positions are kept, so the names are found where they were."""
    return TRAD_RE.sub(simplified_char, text.translate(TRAD_TO_SIMP))


def _compares(gap: str, text: str, ends: tuple[int, int]) -> bool:
    """Whether the text between the names sets them side by side (module doc)."""
    if SETS_AGAINST_RE.search(gap):
        return True
    return bool(JOINS_RE.search(gap)) and not re.search(r"[。.;；]", gap) and _asks_which(text, ends)


def _asks_which(text: str, ends: tuple[int, int]) -> bool:
    """Whether a which-word right before the pair or right after it, within its sentence, asks which model
    ('哪个更快', 'which one'), not which card ('哪个卡', 'which GPU')."""
    before = SENTENCE_END_RE.split(text[max(0, ends[0] - WHICH_WINDOW) : ends[0]])[-1]
    after = SENTENCE_END_RE.split(text[ends[1] : ends[1] + WHICH_WINDOW])[0]
    for start, part in ((ends[0] - len(before), before), (ends[1], after)):
        for m in ASKS_WHICH_RE.finditer(part):
            if not ASKS_HARDWARE_RE.match(text, start + m.end()):
                return True
    return False


def _catalog_id(typed: str) -> str | None:
    """The catalog model the parser reads from ``typed`` alone (imported when used: start-up)."""
    from bot.parse.message import parse_one

    return parse_one(typed).request.model


def with_cards_faster(parsed: ParseResult) -> ParseResult:
    """``parsed`` noted :data:`FASTER_ASKED` when it compares cards and asks which is faster (s37 fixg #1)."""
    if FASTER_ASKED in parsed.notes or not CARDS_FASTER_RE.search(_simplified(parsed.normalized)):
        return parsed
    return parsed.model_copy(update={"notes": [*parsed.notes, FASTER_ASKED]})
