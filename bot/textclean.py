"""Text that cannot be encoded is cleaned where it enters, once, by one function.

A lone UTF-16 surrogate (``'\\ud800'``) is a valid ``str`` in Python (JSON's ``"\\ud800"`` escape, or
an undecodable byte kept by ``surrogateescape``) but no encoder accepts it: echoed in a reply it
raises ``UnicodeEncodeError`` when the reply is encoded to UTF-8 (sending, printing, SQLite, a log
line). Every way text comes in — a Bot API answer (messages, captions, inline queries, callback
data: ``bot.telegram.transport``), a webhook update (``bot.telegram.journal``), a question given to
the pipeline (``bot.core.pipeline.answer``, every front end), a config.json file
(``bot.core.configfile``) — goes through :func:`clean_text` / :func:`clean_data`: each lone
surrogate becomes U+FFFD, the replacement character, as a UTF-8 decoder does for a bad byte.
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with every surrogate code point replaced by U+FFFD (unchanged, same object, if none).

    A ``str`` never holds a valid surrogate *pair* (Python combines pairs when decoding), so every
    surrogate left in one is lone."""
    return _SURROGATE_RE.sub(REPLACEMENT, text) if _SURROGATE_RE.search(text) else text


_CODE_ELEMENT_RE = re.compile(r"<(script|style)\b[^<>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


_PLACEHOLDER_RE = re.compile(r"<([A-Za-z][A-Za-z0-9._\-/: ]{0,78}[A-Za-z0-9])>")
"""A name written in angle brackets as a placeholder ('serve <Llama-3-8B> on 1 A100', '<Qwen2.5-7B>'): a
letter first, a digit in it (:func:`placeholder`), no '=' or quotes (an attribute's)."""
_HEADING_RE = re.compile(r"h[1-6]", re.IGNORECASE)


def placeholder(match: re.Match[str]) -> str:
    """The replacement of a tag-like ``<…>`` (a match whose group 0 is the whole): the name inside with
    spaces around when it is a placeholder holding a digit — a model written '<Llama-3-8B>' is the model
    (trial s27 #6: the whole message was read without it and got the help); a space for any other tag
    (``<b>``, ``<h2>``, ``<br/>``, ``<a href=…>``)."""
    inner = _PLACEHOLDER_RE.fullmatch(match.group(0))
    name = inner.group(1) if inner is not None else ""
    if any(c.isdigit() for c in name) and not _HEADING_RE.fullmatch(name):
        return f" {name} "
    tag = _TAG_NAME_RE.match(match.group(0))
    if tag is None or tag.group(1).lower() not in INLINE_TAGS:
        return " "
    text, start, end = match.string, match.start(), match.end()
    inside = start > 0 and end < len(text) and not text[start - 1].isspace() and not text[end].isspace()
    return "" if inside else " "  # '</b>-13B' inside a word: joined; '<b>serve</b> x': a space, as before


INLINE_TAGS = frozenset(
    {"b", "i", "u", "s", "em", "strong", "code", "span", "a", "mark", "small", "sub", "sup"}
)
"""Tags of text inside a line (HTML's phrasing content: the HTML Living Standard §3.2.5.2.5): inside a word
dropped with nothing in their place, as a browser shows '<b>Foo</b>-13B' as 'Foo-13B' (s28 trial L5: a space
there made '-13B' a negative number), else a space; any other tag (``<br>``, ``<p>``, ``<li>``) is a space."""
_TAG_NAME_RE = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)")


def strip_markup(text: str) -> str:
    """``text`` with HTML elements of code (``<script>…</script>``, ``<style>…</style>``) removed and
    other tags (``<b>``, ``</b>``, ``<br/>``) replaced by a space; unchanged, same object, without a
    '<'. A message written with markup asks what its words ask: the '1' of ``<script>alert(1)</script>``
    is no number of the question (trial s21 #20). A '<' before a digit or a space ('batch <8',
    'a < b') is no tag and stays; a name with a digit in brackets ('<Llama-3-8B>') is kept
    (:func:`placeholder`); replies still escape everything they echo."""
    if "<" not in text:
        return text
    return _TAG_RE.sub(placeholder, _CODE_ELEMENT_RE.sub(" ", text))


def clean_data(value: Any) -> Any:
    """``value`` (parsed JSON: dicts, lists, strings, numbers) with :func:`clean_text` applied to every
    string, keys included; containers are copied only where something changed."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        items = [(clean_data(k), clean_data(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(items, value.items(), strict=True)):
            return value
        return dict(items)
    if isinstance(value, list):
        cleaned = [clean_data(v) for v in value]
        return value if all(a is b for a, b in zip(cleaned, value, strict=True)) else cleaned
    return value


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a code point no encoder accepts."""
    return _SURROGATE_RE.search(text) is not None
