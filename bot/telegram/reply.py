"""The HTML of one answer as the Telegram adapter sends it (pure): full or short, plus the
pre-sales contact line, always within Telegram's 4,096 visible characters."""

from __future__ import annotations

import html
import re

from bot.core.conversation import Turn
from bot.render.html import TELEGRAM_MAX_CHARS, truncate_html, visible_length
from bot.render.renderer import render
from bot.settings.presales import Localized, text_for

_DETAILS_RE = re.compile(r"\s*<blockquote expandable>.*?</blockquote>", re.DOTALL)


def without_details(reply_html: str) -> str:
    """The short reply: the expandable assumptions/formulas block cut out."""
    short = _DETAILS_RE.sub("", reply_html).rstrip()
    return short if short.strip() else reply_html


def with_contact(reply_html: str, contact: str | Localized | None, lang: str = "en") -> str:
    """``reply_html`` plus the pre-sales contact line in the reply's language ``lang`` (the provider's
    own words), still within Telegram's 4,096 characters."""
    contact = text_for(contact, lang)
    if not contact or not contact.strip():
        return reply_html
    line = html.escape(" ".join(contact.split()), quote=False)
    room = TELEGRAM_MAX_CHARS - visible_length(line) - 2
    if visible_length(reply_html) > room:
        reply_html = truncate_html(reply_html, room)
    return f"{reply_html}\n\n{line}"


def reply_html(turn: Turn, *, details: bool = True, contact: str | Localized | None = None) -> str:
    """The HTML for one turn: full or short, with the contact line when something was sized."""
    text = render(turn.answer, "html")
    if not details:
        text = without_details(text)
    if turn.answer.understood:
        text = with_contact(text, contact, turn.answer.lang)
    return text
