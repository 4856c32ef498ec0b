"""The parts of the provider's offer that every answer's model declares, apart from the offer file's own
models: a text in the provider's words per reply language (:class:`Localized`, a field of
``bot.core.offer.Offer``, which is a field of ``Answer``) and the billing month. ``Answer`` needs them at
class creation; :mod:`bot.settings.presales` (the file's five models) is imported only when an offer is
read (``sizing-bot ask`` with no offer: ~10M instructions of start-up less, measured 2026-12-04 with
callgrind, bench/RESULTS.md). :mod:`bot.settings.presales` re-exports every name here."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_LINE_CHARS = 500
"""contact, availability and quote_note: one line shown under answers and on the quote."""

HOURS_PER_MONTH = 730.0
"""Hours in a billing month: 365 × 24 / 12 = 730 (the convention of cloud price lists, e.g. AWS and
Azure monthly estimates); the same month the serving answer's cost per month uses."""


class Localized(BaseModel):
    """A text in the provider's words, per reply language (``{ zh = "…", en = "…" }``), or one text for
    both (a plain string in the file)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    zh: str | None = Field(None, max_length=MAX_LINE_CHARS)
    en: str | None = Field(None, max_length=MAX_LINE_CHARS)

    @model_validator(mode="before")
    @classmethod
    def _plain_string(cls, v: object) -> object:
        return {"zh": v, "en": v} if isinstance(v, str) else v

    @model_validator(mode="after")
    def _not_empty(self) -> Localized:
        if not (self.zh or "").strip() and not (self.en or "").strip():
            raise ValueError("needs a text (a string, or zh = … / en = …)")
        return self

    def text(self, lang: str) -> str:
        """The text for ``lang``, else the other language's (the provider wrote only one)."""
        own, other = (self.zh, self.en) if lang == "zh" else (self.en, self.zh)
        return " ".join((own or other or "").split())


def text_for(value: str | Localized | None, lang: str) -> str | None:
    """A provider's text that is one string for both languages or one per language, in ``lang``."""
    if isinstance(value, Localized):
        return value.text(lang) or None
    return value
