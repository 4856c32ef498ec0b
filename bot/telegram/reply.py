"""The HTML of one answer as the Telegram adapter sends it (pure): full or short, plus the
pre-sales contact line, always within Telegram's 4,096 visible characters; and its short forms: a
chart's caption (the headline) and an inline card (the headline and the key figures)."""

from __future__ import annotations

import html
import re

from bot.core.conversation import Turn
from bot.core.pipeline import Answer
from bot.render.fit import fit_html, fit_with_footer, without_details
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.render.renderer import render
from bot.settings.localized import Localized, text_for

CAPTION_MAX_CHARS = 1024
"""Telegram's limit on a photo's caption (after entity parsing)."""
CARD_MAX_LINES = 6
"""Key figures under the headline on an inline card."""
CARD_MAX_CHARS = 1200
"""An inline card's text at most (headline + key figures + contact): well under 4,096."""
_BAR_RE = re.compile("[\u2580-\u259f]")  # block elements: a text bar chart's bars

__all__ = ["card", "card_html", "chart_caption", "reply_html", "with_contact", "without_details"]


def with_contact(reply_html: str, contact: str | Localized | None, lang: str = "en") -> str:
    """``reply_html`` plus the pre-sales contact line in the reply's language ``lang`` (the provider's
    own words), still within Telegram's 4,096 characters."""
    return fit_with_footer(reply_html, text_for(contact, lang), TELEGRAM_MAX_CHARS)


def reply_html(turn: Turn, *, details: bool = True, contact: str | Localized | None = None) -> str:
    """The HTML for one turn: full or short, with the contact line when something was sized."""
    text = render(turn.answer, "html")
    if not details:
        text = without_details(text)
    if turn.answer.understood:
        return with_contact(text, contact, turn.answer.lang)
    return fit_html(text, TELEGRAM_MAX_CHARS)


def card(answer: Answer) -> tuple[str, list[str]]:
    """The answer's headline (plain text, its first line) and its key figures: the first block after
    the headline without a text bar chart's lines (block characters), at most :data:`CARD_MAX_LINES`
    of them (an indented line continues the one above and comes with it)."""
    lines = [line.rstrip() for line in render(answer, "text").splitlines()]
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return "", []
    block: list[str] = []
    shown = 0
    for line in lines[first + 1 :]:
        if not line.strip():
            if block:
                break
            continue
        if _BAR_RE.search(line):
            continue
        continued = line[0].isspace()
        if not continued:
            if shown == CARD_MAX_LINES:
                break
            shown += 1
        block.append(line)
    return lines[first].strip(), block


def chart_caption(answer: Answer) -> str:
    """A chart's caption: the answer's headline (HTML-escaped), within Telegram's caption limit."""
    return html.escape(_cap(card(answer)[0], CAPTION_MAX_CHARS), quote=False)


def card_html(
    title: str, figures: list[str], contact: str | Localized | None = None, lang: str = "en"
) -> str:
    """An inline card's message: the headline in bold and the key figures, short (not the whole
    answer: a card is posted into any chat), and the contact line when given."""
    lines, size = [], len(title)
    for line in figures:
        if size + len(line) + 1 > CARD_MAX_CHARS:
            break
        lines.append(html.escape(line, quote=False))
        size += len(line) + 1
    body = f"<b>{html.escape(title, quote=False)}</b>"
    if lines:
        body += "\n\n" + "\n".join(lines)
    return with_contact(body, contact, lang)


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
