"""The pre-sales contact line appended to sized answers, in the reply's language (any front end)."""

from __future__ import annotations

from bot.settings.localized import Localized, text_for
from bot.settings.presales import PresalesConfig


def contact_of(presales: PresalesConfig | None) -> str | Localized | None:
    """A deployment's contact setting (one string, or one per language), if configured."""
    return presales.contact if presales is not None else None


def contact_line(contact: str | Localized | None, lang: str) -> str | None:
    """The contact line in ``lang`` (the provider's own words), or None when there is none."""
    return text_for(contact, lang)
