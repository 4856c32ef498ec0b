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
from itertools import pairwise
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
FEWER_RE = rc(
    r"省卡|省显卡|更少的?(?:显)?卡|(?:显)?卡(?:数)?(?:更|比较)?少|少用(?:几张)?卡|用卡(?:更|比较)?少"
    r"|\b(?:fewer|less|fewest|least)\s+(?:gpus?|cards?|accelerators?)\b"
)
"""The message asks which needs fewer cards ('哪个部署更省卡', '哪个用卡少', 'which needs fewer GPUs'): the
cards each needs answer it, not the cost (s39 fixp #4; bot.core.compared_models.fewer_cards)."""
FEWER_ASKED = "compared_fewer"
"""The note :func:`with_models_compared` adds when the message asks which needs fewer cards."""
COUNT_RE = rc(
    r"(?:几|多少)\s*(?:张|块|台|个)?\s*(?:显卡|卡|gpu)|(?:几|多少)\s*(?:张|块)"
    r"|\bhow\s+many\s+(?:[a-z0-9-]+\s+)?(?:gpus?|cards?|accelerators?)\b"
    r"|\bhow\s+many\s+(?:rtx\s?)?(?:[a-z]{1,3}\d{2,4}(?:\s?\d{2,3}\s?gb?)?s?|\d{4}s)\b"
)
"""The message asks how many cards ('各要几张 4090', '分别需要多少张卡', 'how many GPUs does each need'):
the cards each model needs answer it (s39 fixs2 #1), not the cost, unless cost is asked too (COST_RE)."""
COST_RE = rc(
    r"划算|便宜|省钱|成本|费用|价格|花费|多少钱|性价比|\bcheap\w*|\bcosts?\b|\bprice\w*|\bbudget\b|\bmoney\b"
)
"""A word asking the cost ('哪个更划算', 'cheaper'): the cost line answers it."""
EACH_ASKED = "compared_count"
"""The note added when the message asks how many cards each model needs and not which is cheaper."""


def with_models_compared(parsed: ParseResult, raw: str) -> ParseResult:
    """``parsed`` with the one other model it names compared (module doc), else ``parsed`` itself."""
    others = [(t, r) for t, r in parsed.unused_numbers if r == "other_setup" and t.startswith(PREFIX)]
    typed = parsed.model_typed
    if not others or not typed or parsed.request.model is None or parsed.gpu_alternatives:
        return parsed
    if len(others) > 1:  # s39: one family's sizes listed ('Qwen2.5-7B、14B、32B'): its models compared
        return _family_listed(parsed, raw, typed, others)
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
    model = _catalog_id(other) or _same_family(typed, other)  # s39: 'Qwen2.5-7B vs 14B'
    if model is None or model == parsed.request.model:
        return parsed
    kept = [n for n in parsed.unused_numbers if n != others[0]]
    notes = [*parsed.notes, FASTER_ASKED] if FASTER_RE.search(text) else parsed.notes
    notes = [*notes, FEWER_ASKED] if FEWER_RE.search(text) else notes
    notes = [*notes, EACH_ASKED] if asks_count(text) else notes
    return parsed.model_copy(update={"compared_models": (model,), "unused_numbers": kept, "notes": notes})


def asks_count(text: str) -> bool:
    """Whether ``text`` (lower-cased) asks how many cards and not the cost (:data:`COUNT_RE`); a cheap test
    first: a message without 几, 多少 or 'how many' pays no search."""
    if "几" not in text and "多少" not in text and "how many" not in text:
        return False
    return bool(COUNT_RE.search(text)) and not COST_RE.search(text)


MAX_FAMILY = 5
"""At most this many other sizes of one family compared; a longer list leaves the rest named as not sized."""
_SIZE_RE = rc(r"(?<![0-9.a-z])\d{1,4}(?:\.\d{1,2})?\s?[bm](?![a-z])")
"""A model's size in its name ('7b' of 'qwen2.5-7b-instruct'), lower-cased."""


def _same_family(typed: str, other: str) -> str | None:
    """The catalog model of ``typed``'s family at ``other``'s size, when ``other`` is a bare size ('14B' after
    'Qwen2.5-7B': Qwen2.5-14B), else None (s39, issue 24)."""
    size = other.strip().lower()
    at = _SIZE_RE.search(typed.lower())
    if at is None or not _SIZE_RE.fullmatch(size):
        return None
    return _catalog_id(typed.lower()[: at.start()] + size + typed.lower()[at.end() :])


def _family_listed(parsed: ParseResult, raw: str, typed: str, others: list[tuple[str, str]]) -> ParseResult:
    """``parsed`` comparing the catalog models of one family whose sizes the message lists after the model
    it names ('Qwen2.5-7B、14B、32B 各要几张卡', 'Qwen2.5-7B, 14B or 32B'): a written list of sizes
    (bot.parse.name_list.SIZE_RUN_RE) that starts at the named model's size and holds every other size named;
    unchanged otherwise (two models merely mentioned, a size the catalog lacks)."""
    from bot.parse.name_list import SIZE_RUN_RE

    text, name = _simplified(raw.lower()), _simplified(typed.lower())
    at, size = text.find(name), _SIZE_RE.search(name)
    if at < 0 or size is None:
        return parsed
    run = SIZE_RUN_RE.match(text, at + size.start())
    sizes = [o[0][len(PREFIX) :] for o in others[:MAX_FAMILY]]
    if run is None or not all(s.strip().lower() in run.group(0) for s in sizes):
        return _names_listed(parsed, text, name, others)
    return _compared(parsed, text, others, [_same_family(typed, s) for s in sizes])


def _names_listed(parsed: ParseResult, text: str, name: str, others: list[tuple[str, str]]) -> ParseResult:
    """``parsed`` comparing three or more catalog models named in full one after another, as two are
    compared (each gap joins them: 'Qwen2.5-7B、Qwen2.5-14B 还是 Qwen2.5-32B', s39); else unchanged."""
    typed = [_simplified(o[0][len(PREFIX) :].lower()) for o in others[:MAX_FAMILY]]
    spots = sorted((text.find(n), n) for n in (name, *typed))
    if spots[0][0] < 0:
        return parsed
    gaps = [text[a + len(n) : b] for (a, n), (b, _) in pairwise(spots)]
    ends = (spots[0][0], spots[-1][0] + len(spots[-1][1]))
    joined = all(
        len(g) <= MAX_GAP
        and not ALIAS_RE.search(g)
        and not SENTENCE_END_RE.search(g)
        and (SETS_AGAINST_RE.search(g) or JOINS_RE.search(g))
        for g in gaps
    )
    if not joined or not (any(SETS_AGAINST_RE.search(g) for g in gaps) or _asks_which(text, ends)):
        return parsed
    return _compared(parsed, text, others, [_catalog_id(o[0][len(PREFIX) :]) for o in others[:MAX_FAMILY]])


def _compared(
    parsed: ParseResult, text: str, others: list[tuple[str, str]], models: list[str | None]
) -> ParseResult:
    """``parsed`` with ``models`` (the catalog's, one per other model named) compared and no longer named as
    not used; unchanged when one is not in the catalog or repeats another."""
    if not all(models) or parsed.request.model in models or len(set(models)) < len(models):
        return parsed
    taken = set(others[: len(models)])
    kept = [n for n in parsed.unused_numbers if n not in taken]
    notes = [*parsed.notes, FASTER_ASKED] if FASTER_RE.search(text) else parsed.notes
    notes = [*notes, FEWER_ASKED] if FEWER_RE.search(text) else notes
    notes = [*notes, EACH_ASKED] if asks_count(text) else notes
    return parsed.model_copy(
        update={"compared_models": tuple(models), "unused_numbers": kept, "notes": notes}
    )


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
