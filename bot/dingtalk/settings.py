"""``/settings`` on DingTalk: show a chat's settings; ``/settings price A100 18`` sets a price.

Who may change them: anyone in a 1:1 chat; in a group, only the staff ids listed in ``DINGTALK_ADMINS``.
What DingTalk tells a robot: the message callback carries ``isAdmin`` (whether the sender is an
administrator of the *organisation*, not of the group) and no group owner or group admin; a group's
owner is only known through the group-management API with extra permissions (``qyapi_chat_manage``),
which an app robot does not get by default. So group changes go to a configured list, the org-admin
flag is not trusted for a group's prices, and with no list nobody changes a group's settings (reading
them stays open). The texts and the price handling are Feishu's (:mod:`bot.feishu.settings`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.chat.commands import PRICE_PROBLEMS, parse_price_command, settings_text
from bot.chat.wording import NO_SETTINGS, NOT_ADMIN
from bot.feishu.settings import _lang, _price, plain, settings_argument

if TYPE_CHECKING:
    from bot.chat.adapter import Inbound
    from bot.core.conversation import Conversation

__all__ = ["admins_of", "settings_argument", "settings_reply"]


def admins_of(setting: str) -> frozenset[str]:
    """The scoped user ids (``dingtalk:<staffId>``) from ``DINGTALK_ADMINS`` ("a, b" or "a b")."""
    return frozenset(f"dingtalk:{s}" for s in setting.replace(",", " ").split())


async def settings_reply(
    msg: Inbound, argument: str, conversation: Conversation, admins: frozenset[str]
) -> str:
    """The text answering ``/settings …`` in ``msg``'s chat (changing the settings when allowed)."""
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
        if msg.is_group and msg.user_id not in admins:
            return NOT_ADMIN[lang]
        saved = await asyncio.to_thread(
            _price, store, msg.chat_id, current, change, lang, conversation.presales
        )
        current = conversation.settings(msg.chat_id)
    text = settings_text(current, lang, conversation.presales)
    return plain(f"{saved}\n\n{text}" if saved else text)
