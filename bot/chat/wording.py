"""What an adapter says besides the replies (errors, notices, the command menu): msgids
translated through the Babel catalogs like every other user-visible text."""

from __future__ import annotations

from dataclasses import dataclass

from bot.parse.lang import LANGS
from bot.render.i18n import N_, translate


@dataclass(frozen=True)
class Phrase:
    """One adapter message: ``PHRASE[lang]`` is its text in that language."""

    msgid: str

    def __getitem__(self, lang: str) -> str:
        return translate(lang, self.msgid)

    def format(self, lang: str, **params: object) -> str:
        """The text in ``lang`` with its ``%(name)s`` parameters filled in."""
        return translate(lang, self.msgid, **params)

    def values(self) -> list[str]:
        return [self[lang] for lang in LANGS]


ERROR_REPLY = Phrase(N_("Sorry, something went wrong on my side — please try again in a moment."))
"""A bug of ours (never the user's wording)."""
TELEGRAM_TROUBLE = Phrase(
    N_("Sorry — Telegram had a problem delivering my answer. Please ask again in a minute.")
)
"""Telegram kept failing after the retries (bot.telegram.transport)."""
PERMISSION_CHECK_FAILED = Phrase(
    N_("Sorry — I could not check your permissions with Telegram. Please try again in a minute.")
)
"""getChatMember kept failing: whether the user may change the group's settings is unknown."""
SETTINGS_UNAVAILABLE = Phrase(N_("Settings are temporarily unavailable — please try again in a minute."))
"""The settings database is locked or failing (bot.telegram.settings_io)."""
VALUE_REFUSED = Phrase(N_("That value is outside the allowed range; nothing was changed."))
"""A settings button with a value a typed setting would refuse too (bot.settings.chat bounds)."""
EXPIRED = Phrase(N_("This result has expired — please ask again"))
NOT_ADMIN = Phrase(N_("Only group administrators can change this group's settings."))
NO_SETTINGS = Phrase(N_("Settings are not available in this deployment."))
SAVED = Phrase(N_("Saved"))
PRICES_NEED_CURRENCY = Phrase(
    N_(
        "Custom prices are quoted in the current currency: remove them before changing it "
        "(/settings price A100 off)."
    )
)
NO_CHART = Phrase(N_("The chart is not available right now."))
NO_RECIPE = Phrase(
    N_("No launch recipe for this answer: nothing fits, or none of my tools runs this method.")
)
SLOW_DOWN = Phrase(N_("Too many requests — please wait a moment"))
"""An inline query over its limit (the button under the empty result list)."""
WAIT_SECONDS = Phrase(N_("Too many requests — please wait %(seconds)s s"))
"""A button that costs an answer (another GPU, method, chart, recipe, quote) pressed over the limit."""
ANSWER_LATE = Phrase(N_("Too many requests — I will answer this in about %(seconds)s s."))
"""A typed question over the limit: booked for a later slot (bot.chat.ratelimit), said once."""
SEND_AGAIN = Phrase(N_("Too many requests — please send this again in %(seconds)s s."))
"""A typed question more than one window ahead of its slot: not booked; said once per streak."""

COMMANDS: tuple[tuple[str, Phrase], ...] = (
    ("start", Phrase(N_("What I can size, with examples"))),
    ("help", Phrase(N_("How to ask"))),
    ("size", Phrase(N_("Size a job, e.g. /size 7B 1T tokens A100"))),
    ("estimate", Phrase(N_("Same as /size"))),
    ("gpus", Phrase(N_("GPU catalog: TFLOPS, memory, price"))),
    ("models", Phrase(N_("Model catalog: parameters"))),
    ("settings", Phrase(N_("Language, currency, prices, MFU, deadline"))),
)
"""The command menu, in the order Telegram shows it."""
QUOTE_COMMAND = ("quote", Phrase(N_("PDF quote of the last answer")))
"""Added to the menu in a pre-sales deployment (bot.telegram.quote)."""
