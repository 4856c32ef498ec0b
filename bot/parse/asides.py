"""Another person's or earlier setup named beside the user's own ('同事用 2 张 4090 跑 7B QLoRA，我手上有
1 张 A100 80G，想 LoRA 微调 14B'): its card and its method are asides, never a comparison row or a method
table that the answer could lead with (the cheapest row moves first,
:func:`bot.core.pipeline.answer_request`; a method table sizes its first method). The user's own setup is
the answer; the other card and method are named as not sized (``other_setup``), as the parser names that
setup's count and model (s14 trial: the colleague's 4090 row and QLoRA table led the answer)."""

from __future__ import annotations

import re

from bot.parse.gpus import extract_gpus
from bot.parse.result import ParseResult
from bot.parse.settings import METHOD_WORDS
from bot.parse.structure import OBSERVED, TRIED, Segment, read_cues, segment_at, segments
from estimator import catalog
from estimator.models import Method, Precision

OTHER_SETUP = "other_setup"


def without_other_setups(parsed: ParseResult) -> ParseResult:
    """``parsed`` without the cards and methods of another setup (:func:`without_other_cards`,
    :func:`without_other_methods`)."""
    return without_other_methods(without_other_cards(parsed))


def without_other_cards(parsed: ParseResult) -> ParseResult:
    """``parsed`` without the compared cards (``gpu_alternatives``) that are named only in another setup's
    clause (:func:`_other_at`) while the card sized is named outside one; each such card is added to
    ``unused_numbers`` as ``(family, 'other_setup')``. Unchanged (the same object) when there is none."""
    if not parsed.gpu_alternatives or not parsed.request.gpu:
        return parsed
    s = parsed.normalized
    segs = segments(s)
    if not any(_other_at(segs, seg.start) for seg in segs):
        return parsed  # no other setup's clause: no second scan of the card names (tests/test_startup)
    _, mentions = extract_gpus(s)
    other = {id(m): _other_at(segs, m.start) for m in mentions}
    if not any(m.gpu_id == parsed.request.gpu and not other[id(m)] for m in mentions):
        return parsed  # the card sized is itself only in another setup's clause: nothing is the user's own
    asides = [
        gpu
        for gpu in parsed.gpu_alternatives
        if (said := [m for m in mentions if m.gpu_id == gpu]) and all(other[id(m)] for m in said)
    ]
    if not asides:
        return parsed
    named = [(_as_said(gpu, mentions), OTHER_SETUP) for gpu in asides]
    return parsed.model_copy(
        update={
            "gpu_alternatives": [g for g in parsed.gpu_alternatives if g not in asides],
            "unused_numbers": [*parsed.unused_numbers, *(n for n in named if n not in parsed.unused_numbers)],
        }
    )


def _as_said(gpu: str, mentions: list) -> str:
    """The other setup's card as named: its family, with the memory said with it ('80GB A100s' → 'A100
    80GB'; round 36: the 80 was dropped in silence with the card)."""
    memory = next((m.memory_gib for m in mentions if m.gpu_id == gpu and m.memory_gib), None)
    family = catalog.gpu(gpu).family
    return f"{family} {memory:g}GB" if memory else family


def _other_at(segs: list[Segment], pos: int) -> bool:
    """Whether character ``pos`` lies in another setup's clause, or in an observed one that is another
    person's or an earlier run's (as :func:`bot.parse.withheld.withheld_reason` reads a number there). A
    comparison word alone ('A100、H100、H20部署70B对比', 'compared with') makes no other setup: the cards
    compared are all the user's options."""
    seg = segment_at(segs, pos)
    if seg is None or not (seg.role == TRIED or (seg.role == OBSERVED and seg.other_person)):
        return False
    text = _COMPARE_RE.sub(" ", seg.text)
    return read_cues(text, 0, len(text))[2]


_COMPARE_RE = re.compile(r"对比|相比|比起|比较|\bcompar(?:ed|ing|e|ison)\b(?:\s+(?:with|to))?", re.IGNORECASE)


def without_other_methods(parsed: ParseResult) -> ParseResult:
    """``parsed`` without the compared methods (``request.methods``) written only in another setup's
    clause while another method is written outside one: the method sized becomes the user's own (the
    first such, as written), a QLoRA base's int4 goes with the QLoRA left behind, the method table goes
    when one method remains, and each method left is named as ``('method: QLoRA', 'other_setup')``.
    Unchanged (the same object) when there is none."""
    req = parsed.request
    if not req.methods or len(req.methods) < 2:
        return parsed
    s = parsed.normalized
    segs = segments(s)
    written = {
        method: [m.start() for pattern, name in METHOD_WORDS if name == method for m in pattern.finditer(s)]
        for method in req.methods
    }
    asides = [m for m in req.methods if written[m] and all(_other_at(segs, p) for p in written[m])]
    own = [m for m in req.methods if m not in asides]
    if not asides or not own:
        return parsed
    update: dict = {"methods": own if len(own) > 1 else None}
    if req.method in asides:
        update["method"] = own[0]
        if req.method == Method.qlora and req.precision == Precision.int4:
            update["precision"] = None  # the NF4 base was the colleague's QLoRA's
    named = [(f"method: {_METHOD_NAMES[m]}", OTHER_SETUP) for m in asides]
    return parsed.model_copy(
        update={
            "request": req.model_copy(update=update),
            "unused_numbers": [*parsed.unused_numbers, *(n for n in named if n not in parsed.unused_numbers)],
        }
    )


_METHOD_NAMES = {
    Method.full: "full fine-tuning",
    Method.lora: "LoRA",
    Method.qlora: "QLoRA",
    Method.freeze: "freeze",
    Method.ptuning: "P-tuning",
}
"""How a method left behind is named (as written in the catalog's method names)."""
