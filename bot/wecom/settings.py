"""``/settings`` on WeCom: who may change a group's settings.

WeCom tells a robot nothing about group roles: a callback carries ``chatid``, ``chattype`` and the
sender's ``from.userid`` only, and the smart robot's long connection has no call that names a group's
owner or administrators (checked against issue 28's protocol notes and the SDK: none). So in a group
only the userids listed in ``WECOM_ADMINS`` may change settings (none when it is unset: the group's
settings are then read-only, and the reply says so); anyone may change them in a single chat and
anyone may look. Everything else is Feishu's command (:func:`bot.feishu.settings.settings_reply`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.chat.wording import Phrase
from bot.feishu.settings import settings_reply
from bot.render.i18n import N_

if TYPE_CHECKING:
    from bot.chat.adapter import Inbound
    from bot.core.conversation import Conversation

NOT_WECOM_ADMIN = Phrase(
    N_(
        "In WeCom groups only the admins listed in WECOM_ADMINS can change settings "
        "(WeCom does not tell a robot who administers a group)."
    )
)


async def wecom_settings_reply(
    msg: Inbound, argument: str, conversation: Conversation, admins: frozenset[str]
) -> str:
    """The text answering ``/settings …``; a group change only by a userid in ``admins``."""

    async def refusal(message: Inbound, lang: str) -> str | None:
        user = message.user_id.partition(":")[2]
        return None if user in admins else NOT_WECOM_ADMIN[lang]

    return await settings_reply(msg, argument, conversation, None, refusal=refusal)
