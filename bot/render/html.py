"""Telegram HTML limits: visible length as Telegram counts it, safe truncation, tag filters."""

from __future__ import annotations

import re
from typing import Any

import markupsafe
from markupsafe import Markup, escape


def str_escape() -> Any:
    """What escapes a ``str`` to its escaped text: markupsafe 3.0's private C ``_escape_inner`` (no
    Markup built) where it exists, else the public :func:`markupsafe.escape` (the same text, as a
    Markup: markupsafe 2.x, or a release that renames it)."""
    return getattr(markupsafe, "_escape_inner", None) or escape


escape_str = str_escape()
"""The escape of a ``str`` the reply paths use (:func:`str_escape`)."""

_new_str = str.__new__
"""``str.__new__(Markup, text)`` is ``Markup(text)`` for a str ``text``, without Markup's Python-level
``__new__`` (it only reads ``__html__`` and an encoding, which a str has not)."""

TELEGRAM_MAX_CHARS = 4096
"""Telegram's limit on a message's text after entity parsing (sendMessage ``text``)."""

_TAG_RE = re.compile(r"<[^>]*>")
_TOKEN_RE = re.compile(r"<[^>]*>|&[#a-zA-Z0-9]+;|[^<&]+|[<&]")


TAGS: dict[Any, tuple[str, str]] = {}
"""Each :func:`tag` filter → its (opening, closing) tag: :class:`bot.render.codegen.ReplyCodeGenerator`
writes such a filter's work in place for a str or Markup value (the same text, no Python frame)."""


def tag(name: str, attrs: str = "") -> Any:
    """A filter wrapping its value, escaped (a Markup as it is), in ``<name attrs>…</name>``."""
    open_tag = f"<{name}{(' ' + attrs) if attrs else ''}>"
    close_tag = f"</{name}>"

    def wrap(value: Any) -> Markup:
        kind = type(value)  # escape copies a Markup (same text); a str is escaped as escape does
        inner = value if kind is Markup else escape_str(value) if kind is str else escape(value)
        return _new_str(Markup, "".join((open_tag, inner, close_tag)))  # Markup(text), without its frame

    TAGS[wrap] = (open_tag, close_tag)
    return wrap


def visible_length(html_text: str) -> int:
    """Length as Telegram counts it: tags removed, entities decoded, in UTF-16 code units."""
    from html import unescape  # html loads its entity table: only where a length is asked (start-up)

    plain = unescape(_TAG_RE.sub("", html_text))
    return len(plain.encode("utf-16-le")) // 2


def truncate_html(html_text: str, limit: int = TELEGRAM_MAX_CHARS, ellipsis: str = "…") -> str:
    """Cut HTML to ``limit`` visible characters without splitting a tag or an entity; close open tags."""
    if visible_length(html_text) <= limit:
        return html_text
    from html import unescape  # loaded by visible_length above

    budget = limit - len(ellipsis)
    out: list[str] = []
    stack: list[str] = []
    used = 0
    for token in _TOKEN_RE.findall(html_text):
        if token.startswith("<"):
            name = token.strip("</>").split()[0].lower() if token.strip("</>") else ""
            if token.startswith("</"):
                if stack and stack[-1] == name:
                    stack.pop()
            else:
                stack.append(name)
            out.append(token)
            continue
        size = len(unescape(token).encode("utf-16-le")) // 2
        if used + size > budget:
            if not token.startswith("&"):
                room = budget - used
                cut = ""
                for ch in token:
                    w = len(ch.encode("utf-16-le")) // 2
                    if room < w:
                        break
                    cut += ch
                    room -= w
                out.append(cut)
            break
        out.append(token)
        used += size
    # drop tags opened with nothing inside, then close the rest
    out.append(escape(ellipsis))
    for name in reversed(stack):
        out.append(f"</{name}>")
    return "".join(out)
