"""The HTML of one answer as the Telegram adapter sends it (pure): full or short, plus the
pre-sales contact line, always within Telegram's 4,096 visible characters (:mod:`bot.render.fit`)."""

from __future__ import annotations

from bot.core.conversation import Turn
from bot.render.fit import fit_html, fit_with_footer, without_details
from bot.render.html import TELEGRAM_MAX_CHARS
from bot.render.renderer import render
from bot.settings.presales import Localized, text_for

__all__ = ["reply_html", "with_contact", "without_details"]


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
