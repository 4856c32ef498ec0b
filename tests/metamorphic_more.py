"""Rewrite families added in session 32 (s32-meta) to the sweep of :mod:`tests.metamorphic`: ways people
write the same question that the s31 families did not try. Each is declared once in
``tests.metamorphic.FAMILIES`` with its expected effect: no stated key changes.

- ``mention``: the bot addressed first, as a group chat or inline query writes it ('@sizing_bot …').
- ``question_mark``: the closing question mark left out, or added where there was none.
- ``line_breaks``: each setting on its own line (', ' and '，' between clauses as line breaks).
- ``polite_middle``: a polite aside between the first and the second sentence.
- ``memory_words``: '80GB' spelt out as '80 gigabytes' (English only).
- ``node_forms``: '2 nodes of 8 GPUs' ↔ '16 GPUs across 2 nodes' (English only: the totals stated).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_MENTION = {"zh": "@sizing_bot ", "en": "@sizing_bot "}


def mention(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'@sizing_bot ' before the question (Telegram's mention of the bot in a group)."""
    yield "at-bot", _MENTION[lang] + text


_END_Q_RE = re.compile(r"[?？]\s*$")


def question_mark(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """The final '?' / '？' dropped; or one added to a message that ends without one."""
    if _END_Q_RE.search(text):
        yield "dropped", _END_Q_RE.sub("", text)
    elif text.rstrip()[-1:] not in ".。!！:：)）`\"'":
        yield "added", text.rstrip() + ("？" if lang == "zh" else "?")


_CLAUSE_COMMA_RE = re.compile(r"(?<=[^\d\s]),\s+(?=[^\d\s])|，")


def line_breaks(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """Each clause on its own line: ', ' (not inside a number) and '，' as line breaks."""
    if any(c in text for c in ("`", "--", "{", ":", "：", "=")):
        return  # a pasted command or config ('stage: sft, finetuning_type: full'): its commas are syntax
    new = _CLAUSE_COMMA_RE.sub("\n", text)
    if new != text:
        yield "commas", new


_POLITE = {"zh": "麻烦各位帮忙看看。", "en": "Any help is much appreciated."}
_FIRST_SENTENCE_RE = re.compile(r"^[^。！？!?\n]{8,}?[。！？!?](?=\s*\S)|^.{8,}?\.(?=\s+[A-Z])")


def polite_middle(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """A polite sentence after the first sentence ('… 麻烦各位帮忙看看。 …')."""
    m = _FIRST_SENTENCE_RE.search(text)
    if m:
        yield "after-first", f"{m.group(0)} {_POLITE[lang]} {text[m.end() :].lstrip()}"


_GB_RE = re.compile(r"(?<![\w.])(\d{1,3})\s?GB(?![\w/])")


def memory_words(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'80GB' / '80 GB' as '80 gigabytes'."""
    if _GB_RE.search(text):
        yield "gigabytes", _GB_RE.sub(lambda m: f"{m.group(1)} gigabytes", text)


_NODES_OF_RE = re.compile(
    r"(?<![\w.])(\d{1,2}) nodes? (?:of|with) (\d{1,2}) (GPUs|[AH]\d{2,3}s)(?: each)?(?![\w])"
)
_ACROSS_RE = re.compile(r"(?<![\w.])(\d{1,3}) (GPUs|[AH]\d{2,3}s) across (\d{1,2}) nodes(?![\w])")


def node_forms(text: str, lang: str) -> Iterator[tuple[str, str]]:
    """'2 nodes of 8 GPUs' → '16 GPUs across 2 nodes'; '16 GPUs across 2 nodes' → '2 nodes of 8 GPUs'."""

    def across(m: re.Match[str]) -> str:
        return f"{int(m.group(1)) * int(m.group(2))} {m.group(3)} across {m.group(1)} nodes"

    def of(m: re.Match[str]) -> str:
        total, nodes = int(m.group(1)), int(m.group(3))
        if total % nodes:
            return m.group(0)
        return f"{nodes} nodes of {total // nodes} {m.group(2)}"

    if _NODES_OF_RE.search(text):
        yield "of>across", _NODES_OF_RE.sub(across, text)
    if _ACROSS_RE.search(text):
        yield "across>of", _ACROSS_RE.sub(of, text)


_CONNECTIVE_RE = re.compile(
    r"^\s*(?:and|or|but|also|so|then|maybe|if|it|this|that|these|those|which|what about|"
    r"或者|还是|另外|那|那么|这|如果|但|但是|而且|并且|和|跟|比如|也|还|[0-9]\))",
    re.I,
)
"""A sentence that leans on the one before it ('Or would a 1B fit?', '或者 H100 要多少张？', 'Maybe int4?'):
moved to the front it says something else, so the clause-order family does not move it."""


def leans_back(sentence: str) -> bool:
    """True when ``sentence`` begins with a connective or a word pointing back (:data:`_CONNECTIVE_RE`)."""
    return bool(_CONNECTIVE_RE.match(sentence))
