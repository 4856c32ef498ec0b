"""Several fine-tuning methods in one message (round 4 of the real questions, issue 24 item 4: two setups):
'QLoRA 在 24G 上可以…，应该如何进行不量化的 LoRA 呢？' tells of one that worked and asks about another. The
method the asking sentence names is sized (as the engine and the card asked about are:
:mod:`bot.parse.engines_named`, :func:`bot.parse.asked_model.asked_card`); the others stay named as
compared setups. Without one asking sentence naming exactly one method, the first written is sized."""

from __future__ import annotations

from bot.parse.asked_model import ASKING_RE, SENTENCE_RE
from bot.parse.lexicon import LORA_MEANS, NEGATORS
from bot.parse.regex import rc

_CLAUSE_RE = rc(r"[,，]")
_TURN_RE = rc(
    r"\s*(?:那么|那|但是|但|不过|可是|而|\bbut\b|\bhowever\b|\bthen\b|\bwhat\s+about\b|\bhow\s+about\b)"
)
"""A last clause that turns the question ('…，那不量化的 LoRA 要多少显存？', '…, but how much does LoRA
need?'): asked about on its own; a clause after a list's comma ('支持 QLoRA、P-tuning 吗？') is not."""
_NEGATED_BEFORE_RE = rc(NEGATORS.replace("|非", "") + r"\s*" + LORA_MEANS + "$")
_SWITCH_BEFORE_RE = rc(
    r"(?:\b(?:switch(?:ing)?|mov(?:e|ing)|chang(?:e|ing)|go(?:ing)?|fall(?:ing)?\s+back)\s+(?:over\s+)?to"
    r"|\binstead\s+(?:use|try)|改用|换成|换用|改成|切换到|切到|转用|换)\s*(?:a\s+|an\s+)?$"
)
"""'should we switch to QLoRA?', '要不要改用 QLoRA': the method named after it is the alternative asked
about; the run the message tells of (its OOM, its settings) is sized first (trial s20 q18)."""


def asked_method_first(s: str, methods: list[str], words: tuple[tuple[object, str], ...]) -> list[str]:
    """``methods`` (as written in the normalized text ``s``; ``words``: each method's pattern) with the one
    the first asking sentence names alone moved first."""
    if len(methods) < 2:
        return methods
    for m in SENTENCE_RE.finditer(s):
        text = m.group(0)
        if not text.strip() or not ASKING_RE.search(text):
            continue
        named: set[str] = set()
        switched = {method for pattern, method in words if method in methods and _switched(pattern, text)}
        if switched and len(switched) < len(methods):  # the alternative after the method in use
            return [*(x for x in methods if x not in switched), *(x for x in methods if x in switched)]
        last = _CLAUSE_RE.split(text)[-1]
        for part in (text, last) if _TURN_RE.match(last) else (text,):  # '…能微调，那不量化的 LoRA 呢？'
            named = {method for pattern, method in words if method in methods and _named(pattern, part)}
            if len(named) == 1:
                asked = named.pop()
                return [asked, *(x for x in methods if x != asked)]
        if named:  # the asking sentence compares them: the first written is sized
            return methods
    return methods


def _named(pattern: object, text: str) -> bool:
    hit = pattern.search(text)  # type: ignore[attr-defined]
    return bool(hit) and not _NEGATED_BEFORE_RE.search(text[max(0, hit.start() - 12) : hit.start()])


def _switched(pattern: object, text: str) -> bool:
    """The method ``pattern`` finds is named after 'switch to' / '改用' (:data:`_SWITCH_BEFORE_RE`)."""
    return any(
        _SWITCH_BEFORE_RE.search(text[max(0, h.start() - 24) : h.start()])
        for h in pattern.finditer(text)  # type: ignore[attr-defined]
    )


_NEED_ASKED_RE = rc(
    r"(?:\bdo(?:es)?\s+(?:i|we|you|it|one)\s+(?:really\s+|still\s+)?need(?:\s+to\s+(?:use|go\s+with))?"
    r"|\bshould\s+(?:i|we)\s+(?:use|go\s+with|try|do)|\bis\s+it\s+(?:necessary|better)\s+to\s+use"
    r"|要不要|需不需要|是否(?:需要|要|得)|有没有必要|有必要|该不该|是不是(?:要|得)|必须)\s*(?:用|上|做|走|改用)?\s*$"
)
"""'do I need QLoRA?', 'should I use QLoRA', '要不要用 QLoRA', '需不需要 QLoRA', '是否需要 LoRA': the method
after it is the alternative asked about, not the run (s34 fixa); '需要 … 吗' is :data:`_NEED_THEN_MA_RE`."""
_NEED_THEN_MA_RE = rc(r"需要\s*(?:用|上|做)?\s*$")
_MA_AFTER_RE = rc(r"^\s*(?:微调|训练|方法)?\s*(?:吗|么|嘛)")


def asked_alternative(s: str, stage: str | None, methods: list[str]) -> list[str]:
    """``methods`` with a LoRA / QLoRA the message asks whether it needs ('Fine-tuning Llama 3 8B in bf16,
    do I need QLoRA?', '要不要用 QLoRA', '需要 QLoRA 吗') sized as the alternative: after the run stated,
    full fine-tuning when the message names no other method ('QLoRA 可以…，不量化的 LoRA 呢？' is
    :func:`asked_method_first`'s). Gated: 'lora' and an asking word in ``s``."""
    if "lora" not in s or not ("need" in s or "should" in s or "要" in s or "必" in s or "是否" in s):
        return methods
    from bot.parse.lexicon import LORA_RE, QLORA_RE

    asked = next((m for m, p in (("qlora", QLORA_RE), ("lora", LORA_RE)) if _asked(p, s)), None)
    if asked is None or stage not in (None, "finetune"):
        return methods
    others = [m for m in methods if m != asked]
    return [*(others or ["full"]), asked]


def _asked(pattern: object, s: str) -> bool:
    for h in pattern.finditer(s):  # type: ignore[attr-defined]
        before = s[max(0, h.start() - 24) : h.start()]
        if _NEED_ASKED_RE.search(before):
            return True
        if _NEED_THEN_MA_RE.search(before) and _MA_AFTER_RE.match(s[h.end() : h.end() + 8]):
            return True
    return False


NEED_GATE = ("need", "should", "要", "必", "是否")
"""Literals one of which every need cue of :data:`_NEED_ASKED_RE` holds: the caller's ``in`` tests."""
_NEED_CUE_RE = rc(
    _NEED_ASKED_RE.pattern.replace(r"|必须)", r")(?P<q>)|(?:必须|需要)").replace(r"\s*$", r"\s*")
)
""":data:`_NEED_ASKED_RE` where it stands (no end anchor; a question of itself: group ``q`` matched), and
'必须' / a bare '需要', a question only before a question mark or particle ('需要 int4 吗'; '必须用 fp16。'
says what the run uses)."""
_ASK_END_RE = rc(r"[?？.。!！;；\n]|(?:吗|么|嘛)")
"""Where an asked list ends: the sentence's end, or a Chinese question particle."""


def need_asked_spans(s: str) -> list[tuple[int, int]]:
    """The spans of ``s`` (normalized) from a need cue ('do I need', 'should we use', '要不要', '需要…吗') to
    its sentence's end or question particle (s44 fixread, issue 24 item 4, en-007): a format named there
    ('do I need QLoRA / int8 / int4?', '需要用 int4 吗') is an option asked about, not the run's setting.
    The caller gates on :data:`NEED_GATE`, and on a method stated (a run told of): with none, the format
    asked about is sized ('要不要 4bit 量化？Qwen2-7B 一张 3090', tests/test_s37_rev.py)."""
    out = []
    for m in _NEED_CUE_RE.finditer(s):
        end = _ASK_END_RE.search(s, m.end())
        stop = end.start() if end else len(s)
        if m.group("q") is not None or (end is not None and end.group(0) in "?？吗么嘛"):
            out.append((m.end(), stop))
    return out
