"""A length in the prose that asks to change the pasted config's (session 19, s19-fix item 10).

'cutoff_len: 1024' in a pasted LLaMA-Factory YAML and '我想改成 4096' / 'I want 4096 tokens instead' in the
message: both say a sequence length. The design's understanding contract (§8) has every value the user
states either used or named as not used with the reason; which one is used follows what the message does
with the config. A message that asks for a change (:data:`CHANGE_RE`: '改成', '换成', '想用', 'instead',
'change it to', 'want to use', …) states the job it asks about: its length is sized, and the config's is
named as not used ('prose_changes'). A message that describes the config ('这是我现在的配置，序列长度
4096') has the config's length win and its own named (``config_differs``, :mod:`bot.parse.configs.merge`).

Session 26 (gen2): a parallel layout too. '--tp 1 … 是能起来的；改成 --tp 2 就报 NPU 不足' with the command
pasted: the command's ``--tp 1`` is the run that worked, the message asks about the changed ``--tp 2`` (the
one that failed). A change word before the text's own 'tp 2' / '--tensor-parallel-size 4' (written with
its key, never a bare number: a '2' elsewhere says nothing of the layout) makes the text's layout the one
sized, its world size the card count, and the config's named ('prose_changes', :func:`layout_changes`).
"""

from __future__ import annotations

from typing import Any

from bot.parse.regex import rc

LENGTH_FIELDS = ("seq_len", "max_model_len", "max_completion_length")
"""The lengths a config key and the prose both state (``cutoff_len``, ``max_model_len``, …)."""
CHANGE_RE = rc(
    r"改成|改为|改到|换成|调到|调成|调大到|提到|提高到|增加到|加到|扩到|想用|想要用|想改|打算用|准备用|要改|改用"
    r"|\binstead\b|\bchang(?:e|ing)\s+(?:it\s+|that\s+|this\s+|the\s+\w+\s+(?:\w+\s+)?)?to\b|\bswitch(?:ing)?\s+to\b"
    r"|\b(?:increas|rais|bump|extend)(?:e|es|ing)?\s+(?:it\s+|that\s+|the\s+\w+\s+(?:\w+\s+)?)?to\b"
    r"|\b(?:want|would\s+like|i['’]d\s+like|plan|going|hope)\s+to\s+(?:use|train|run|go|try)\b"
)
"""Words that ask for another value than the one in place (the lower-cased, normalized message). Session 19
review: a bare '想要' / "i'd like" / 'what if' asks no change ('我想要知道…')."""
CLAUSE_RE = rc(r"[，,;；。!?！？\n]")
"""What ends a clause: the change word must stand in the length's clause, before it, or in the one before."""


def _length_at(text: str, value: float) -> int | None:
    """Where the prose writes ``value`` (tokens) in ``text``: '4096', '4k', '4K'; None when not found."""
    n = int(value)
    forms = [str(n)] + [f"{n // d}\\s*k" for d in (1024, 1000) if n % d == 0 and n >= d]
    m = rc(r"(?<![\d.])(?:" + "|".join(forms) + r")(?![\d.])").search(text)
    return None if m is None else m.start()


def _change_before(text: str, value: float) -> bool:
    """Whether a change word stands in the clause of the prose's length, before it, or in the clause right
    before that one ('序列长度改成 4096', 'I want to use 4096 instead' but not '这是我现在的配置，序列长度
    4096，我想要知道…': a change word anywhere else asks no change of this length)."""
    at = _length_at(text, value)
    if at is None:
        return False
    starts = [0] + [m.end() for m in CLAUSE_RE.finditer(text, 0, at)]
    start = starts[-2] if len(starts) > 1 else 0
    end = CLAUSE_RE.search(text, at)
    return CHANGE_RE.search(text, start, end.start() if end else len(text)) is not None


def prose_changes(
    text: str, found: list[str], req: Any, update: dict[str, Any], used: dict[str, str]
) -> list[tuple[str, str]]:
    """The config's lengths the message asks to change (``text``: the normalized message without the
    config; ``found``: the fields it states; ``req``: its request; ``update``: the config's values, from
    which each such length is removed; ``used``: the config's keys → fields), each named as not used
    ('prose_changes', 'cutoff_len: 1024'). Nothing without a change word."""
    fields = [
        f
        for f in LENGTH_FIELDS
        if f in update and f in found and getattr(req, f, None) not in (None, update[f])
    ]
    if not fields or not CHANGE_RE.search(text):
        return []
    fields = [f for f in fields if _change_before(text, getattr(req, f))]
    keys = {field: key for key, field in used.items()}
    out = []
    for field in fields:
        out.append((f"{keys.get(field, field)}: {update.pop(field)}", "prose_changes"))
    return out


LAYOUT_FIELDS = {
    "tp": r"tp|tp[\-_]size|tensor[\-_ ]parallel(?:[\-_ ]size)?",
    "pp": r"pp|pp[\-_]size|pipeline[\-_ ]parallel(?:[\-_ ]size)?",
}
"""A parallel layout's field → how its key is written in prose or a flag ('--tp 2', 'tensor_parallel_size=4',
'--tensor-parallel-size to 8'; vLLM, SGLang and LMDeploy flag names)."""


def _layout_at(text: str, field: str, value: float) -> int | None:
    """Where the prose writes ``field``'s key with ``value`` ('--tp 2', 'tp=2', '--tp to 2'), else None."""
    m = rc(
        rf"(?<![\w\-])(?:--?)?(?:{LAYOUT_FIELDS[field]})(?:\s*[=:]\s*|\s+to\s+|\s*){int(value)}(?![\d.])"
    ).search(text)
    return None if m is None else m.start()


def layout_changes(text: str, found: list[str], req: Any, update: dict[str, Any]) -> list[tuple[str, str]]:
    """The config's parallel layout (``tp``, ``pp``) the message asks to change: ``text`` (the normalized
    message without the config) says a change word and then the layout with its key and another value
    ('改成 --tp 2', 'changing it to tp 4'); each such field is removed from ``update`` (the config's values)
    so the text's is sized, and named as not used ('prose_changes', 'tp: 1'). Nothing without a change
    word."""
    fields = [
        f
        for f in LAYOUT_FIELDS
        if f in update and f in found and getattr(req, f, None) not in (None, update[f])
    ]
    if not fields or not CHANGE_RE.search(text):
        return []
    out = []
    for field in fields:
        at = _layout_at(text, field, getattr(req, field))
        if at is None:
            continue
        starts = [0] + [m.end() for m in CLAUSE_RE.finditer(text, 0, at)]
        end = CLAUSE_RE.search(text, at)
        if CHANGE_RE.search(text, starts[-1], end.start() if end else len(text)):
            out.append((f"{field}: {update.pop(field)}", "prose_changes"))
    return out
