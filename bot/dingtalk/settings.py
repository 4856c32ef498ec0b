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

from typing import TYPE_CHECKING

from bot.chat.wording import NOT_ADMIN
from bot.feishu.settings import settings_argument
from bot.feishu.settings import settings_reply as feishu_settings_reply

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
    """The text answering ``/settings …`` in ``msg``'s chat (changing the settings when allowed):
    Feishu's :func:`bot.feishu.settings.settings_reply`, a group's changes by ``admins`` only."""

    async def listed_only(msg: Inbound, lang: str) -> str | None:
        return None if msg.user_id in admins else NOT_ADMIN[lang]

    return await feishu_settings_reply(msg, argument, conversation, None, refusal=listed_only)
