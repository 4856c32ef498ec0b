"""The script of a Chinese reply — Simplified (``Hans``) or Traditional (``Hant``) — and the reply's language.

Precedence (:func:`reply_script`), as the language's (bot.parse.lang): a script fixed for this answer
(``--lang zh-Hant``), the chat's /settings (``ChatSettings.script``), the message's own characters (the
script with more characters that exist only in it: a mixed text follows its majority), the conversation's
script (a follow-up 'H100呢？' has no evidence and keeps it), then Simplified. An English reply has none.

A message with none of the commonest Traditional characters (bot.parse.lexicon's ~140) in a conversation
not already Traditional is Simplified at two C-level tests: the tables of both scripts (bot.render.hant,
~8,000 characters) are imported only for a Traditional message or a follow-up of one (start-up and memory
of every other question unchanged; tests/test_warmup.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from bot.parse.spelling_tables import TRAD_TO_SIMP

if TYPE_CHECKING:
    from bot.core.pipeline import Context
    from bot.parse import ParseResult
    from bot.parse.lang import Lang
    from bot.settings.chat import ChatSettings

Script = Literal["Hans", "Hant"]
SCRIPTS: tuple[Script, ...] = ("Hans", "Hant")
LANG_TAGS = {"zh-Hant": ("zh", "Hant"), "zh-Hans": ("zh", "Hans"), "zh": ("zh", None), "en": ("en", None)}
"""The reply languages a user can fix (``--lang``, the web's language): BCP 47 tags → (language, script)."""
SCRIPT_NAMES = {"Hans": "Simplified Chinese", "Hant": "Traditional Chinese"}


def as_script(value: object) -> Script | None:
    """``value`` if it is a script, else None."""
    return value if value in SCRIPTS else None  # type: ignore[return-value]


def traditional_hint(text: str) -> bool:
    """Whether ``text`` has one of the ~140 commonest Traditional characters (bot.parse.lexicon: 張, 訓練,
    問, 這, 幾, 體 …). A ``str.translate``, no regex: core reads no message with a pattern
    (tests/test_core_one_pass.py)."""
    return not text.isascii() and text.translate(TRAD_TO_SIMP) != text


def reply_script(
    text: str, lang: str, *, fixed: str | None = None, chosen: str | None = None, previous: str | None = None
) -> Script:
    """The script of a reply in ``lang`` to ``text`` (precedence in the module docstring)."""
    if lang != "zh":
        return "Hans"
    if fixed in SCRIPTS or chosen in SCRIPTS:
        return fixed if fixed in SCRIPTS else chosen  # type: ignore[return-value]
    if previous != "Hant" and (text.isascii() or not traditional_hint(text)):  # no call: ASCII
        return "Hans"
    from bot.render.hant import text_script  # a Traditional message or conversation only

    return text_script(text) or as_script(previous) or "Hans"


def reply_langs(
    parsed: ParseResult, text: str, context: Context, settings: ChatSettings
) -> tuple[Lang, Script]:
    """The reply's language from the parse's own evidence (no call back into the parser), and its script."""
    lang = parsed.reply_lang(
        fixed=context.fixed_lang,
        chosen=settings.lang,
        previous=context.previous_lang,
        client=context.client_lang,
    )
    fixed, previous = context.fixed_script, context.previous_script
    return lang, reply_script(text, lang, fixed=fixed, chosen=settings.script, previous=previous)
