"""``/settings`` on Feishu / Lark: show a chat's settings; ``/settings price A100 18`` sets a price.

Who may change them: anyone in a p2p chat; in a group, its owner and its administrators, read from
``GET /open-apis/im/v1/chats/:chat_id`` (``data.owner_id`` and ``data.user_manager_id_list``, open_ids)
and remembered 60 s per group (:meth:`bot.feishu.api.FeishuAPI.chat_admins`); anyone else is told
that only the group's administrators can change them, and when the check itself fails, that it could
not be made. Settings are stored per chat under ``feishu:<chat_id>``
in the same SQLite as Telegram's (:class:`bot.settings.store.SettingsStore`). The texts are the
Telegram adapter's (:mod:`bot.chat.commands`, :mod:`bot.chat.wording`).
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.chat.commands import (
    PRICE_PROBLEMS,
    PriceChange,
    currency_of,
    parse_price_command,
    price_conflict_text,
    price_saved_text,
    settings_text,
)
from bot.chat.wording import NO_SETTINGS, NOT_ADMIN, Phrase
from bot.render.i18n import N_

if TYPE_CHECKING:
    from bot.chat.adapter import Inbound
    from bot.core.conversation import Conversation
    from bot.feishu.api import FeishuAPI
    from bot.settings.chat import ChatSettings

log = logging.getLogger(__name__)

PERMISSION_CHECK_FAILED_FEISHU = Phrase(
    N_("Sorry — I could not check your permissions with Feishu. Please try again in a minute.")
)
"""The chat-info call kept failing: whether the user may change the group's settings is unknown."""
COMMAND = re.compile(r"^/settings(?:@\S+)?(?:\s+(?P<arg>.*))?$", re.DOTALL)
TAG = re.compile(r"</?(?:b|i|code|pre|a)(?:\s[^>]*)?>")
CJK = re.compile(r"[\u4e00-\u9fff]")


def settings_argument(text: str) -> str | None:
    """The argument of a ``/settings`` command ("" for none); None when ``text`` is not one."""
    m = COMMAND.match(text.strip())
    return None if m is None else (m.group("arg") or "").strip()


def _lang(text: str, current: ChatSettings) -> str:
    return current.lang or ("zh" if CJK.search(text) else "en")


def _price(store, chat: str, current: ChatSettings, change: PriceChange, lang: str, presales) -> str:
    """Store the price (or remove it); the line saying what was saved, or why nothing was."""
    prices = dict(current.prices)
    if change.price is None:
        prices.pop(change.family, None)
        store.update(chat, prices=prices)
        return ""
    chat_currency = currency_of(current, presales, lang)
    currency = change.currency.value if change.currency else chat_currency
    others = {fam: p for fam, p in prices.items() if fam != change.family}
    if others and currency != chat_currency:
        return price_conflict_text(lang, chat_currency, others)
    prices[change.family] = change.price
    store.update(chat, prices=prices, currency=currency)
    return price_saved_text(lang, change, currency, switched=currency != chat_currency)


Refusal = Callable[["Inbound", str], Awaitable[str | None]]
"""``(message, lang) -> None`` when its sender may change a group's settings, else the refusal text."""


async def settings_reply(
    msg: Inbound,
    argument: str,
    conversation: Conversation,
    api: FeishuAPI | None,
    *,
    refusal: Refusal | None = None,
) -> str:
    """The text answering ``/settings …`` in ``msg``'s chat (changing the settings when allowed). In a
    group, ``refusal`` decides who may change them (default: the Feishu group's owner and
    managers, asked of ``api``)."""
    store = conversation.settings_store
    current = conversation.settings(msg.chat_id)
    lang = _lang(argument or msg.text, current)
    if store is None:
        return NO_SETTINGS[lang]
    change = parse_price_command(argument)
    if isinstance(change, str):
        return plain(PRICE_PROBLEMS[change][lang])
    saved = ""
    if change is not None:
        if msg.is_group:
            refused = await (refusal or _admins_only(api))(msg, lang)
            if refused:
                return refused
        saved = await asyncio.to_thread(
            _price, store, msg.chat_id, current, change, lang, conversation.presales
        )
        current = conversation.settings(msg.chat_id)
    text = settings_text(current, lang, conversation.presales)
    return plain(f"{saved}\n\n{text}" if saved else text)


def _admins_only(api: FeishuAPI | None) -> Refusal:
    """Feishu's rule: the group's owner and its managers (``api.chat_admins``) may change settings."""

    async def check(msg: Inbound, lang: str) -> str | None:
        assert api is not None
        try:
            admins = await api.chat_admins(msg.chat_id.partition(":")[2])
        except Exception as exc:  # FeishuAPIError (e.g. no im:chat:readonly scope), transport errors
            log.warning("feishu: could not read the admins of %s: %s", msg.chat_id, exc)
            return PERMISSION_CHECK_FAILED_FEISHU[lang]
        return None if msg.user_id.partition(":")[2] in admins else NOT_ADMIN[lang]

    return check


def plain(text: str) -> str:
    """Telegram HTML (the shared texts) as plain text for a Feishu text message."""
    return html.unescape(TAG.sub("", text))
