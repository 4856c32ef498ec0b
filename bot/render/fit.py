"""Fit a reply to a platform's message limit: shortened, never lost. For every front end (Telegram's
4,096 characters, :data:`bot.render.html.TELEGRAM_MAX_CHARS`; other platforms pass their own limit).

In order, until the reply fits ``limit`` visible characters (tags removed, entities decoded, UTF-16
code units — how Telegram counts; :func:`bot.render.html.visible_length`):

1. long values echoed inside ``<code>`` (a 4,000-digit number from a config file) are shortened to
   :data:`MAX_CODE_CHARS` with an ellipsis;
2. the details (the expandable ``<blockquote>`` with assumptions and formulas) fold away;
3. the text is cut at ``limit`` without splitting a tag or an entity, with an ellipsis.

A footer (the pre-sales contact line) is kept whole up to :data:`MAX_FOOTER_SHARE` of the limit
(cut with an ellipsis beyond), and the body gets the rest of the room.
"""

from __future__ import annotations

import html
import re

from bot.render.html import truncate_html, visible_length

MAX_CODE_CHARS = 40
"""A ``<code>`` value longer than this is shortened when the reply is too long (a model size or a
config value a user copies is far shorter)."""
MAX_FOOTER_SHARE = 0.25
"""The most of the limit a footer may take (1,024 of Telegram's 4,096 characters)."""

_DETAILS_RE = re.compile(r"\s*<blockquote expandable>.*?</blockquote>", re.DOTALL)
_CODE_RE = re.compile(r"<code>([^<]*)</code>")


def without_details(reply_html: str) -> str:
    """The short reply: the expandable assumptions/formulas block cut out (unless it is all there is)."""
    short = _DETAILS_RE.sub("", reply_html).rstrip()
    return short if short.strip() else reply_html


def _shorten_code(match: re.Match[str]) -> str:
    value = html.unescape(match[1])
    if len(value) <= MAX_CODE_CHARS:
        return match[0]
    half = (MAX_CODE_CHARS - 1) // 2
    short = f"{value[:half]}…{value[-half:]} ({len(value):,} chars)"
    return f"<code>{html.escape(short, quote=False)}</code>"


def fit_html(reply_html: str, limit: int) -> str:
    """``reply_html`` within ``limit`` visible characters (see the module steps); unchanged if it fits."""
    if visible_length(reply_html) <= limit:
        return reply_html
    text = _CODE_RE.sub(_shorten_code, reply_html)
    if visible_length(text) <= limit:
        return text
    text = without_details(text)
    if visible_length(text) <= limit:
        return text
    return truncate_html(text, limit)


def footer_line(footer: str, limit: int) -> str:
    """``footer`` (plain text) as one escaped line of at most ``MAX_FOOTER_SHARE × limit`` characters."""
    line = " ".join(footer.split())
    cap = max(1, int(limit * MAX_FOOTER_SHARE))
    if len(line.encode("utf-16-le")) // 2 > cap:
        line = truncate_html(html.escape(line, quote=False), cap)
        return line
    return html.escape(line, quote=False)


def fit_with_footer(reply_html: str, footer: str | None, limit: int) -> str:
    """``reply_html`` and, after a blank line, the ``footer`` line, together within ``limit``."""
    if not footer or not footer.strip():
        return fit_html(reply_html, limit)
    line = footer_line(footer, limit)
    room = limit - visible_length(line) - 2
    return f"{fit_html(reply_html, room)}\n\n{line}"
