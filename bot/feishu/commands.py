"""``/quote`` on Feishu / Lark: the PDF quote of the card replied to, or of the user's last answer in
this chat, uploaded (``POST /open-apis/im/v1/files``, ``file_type=pdf``) and sent as a file message.

The wording is the Telegram adapter's (same msgids, so the same catalog entries).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bot.chat.adapter import Inbound, Press
from bot.chat.wording import EXPIRED, Phrase
from bot.core.actions import Action, ActionKind
from bot.render.i18n import N_

if TYPE_CHECKING:
    from bot.chat.seam import Seam
    from bot.feishu.adapter import FeishuAdapter

NO_OFFER = Phrase(N_("Quotes need the provider's offer: this bot has none configured (SIZING_BOT_PRESALES)."))
NO_ANSWER = Phrase(N_("Ask me a sizing question first; /quote then sends its quote as a PDF."))
QUOTE = re.compile(r"^/quote(?:@\S+)?\s*$")
CJK = re.compile(r"[\u4e00-\u9fff]")


def is_quote_command(text: str) -> bool:
    """``/quote`` (nothing after it)."""
    return QUOTE.match(text.strip()) is not None


async def quote_command(seam: Seam, adapter: FeishuAdapter, msg: Inbound) -> None:
    """Send the quote as a PDF file, or one line saying why not."""
    conversation = seam.conversation
    replied = seam.shown.get(msg.chat_id, msg.reply_to) if msg.reply_to else None
    turn_id = replied.turn_id if replied else conversation.last_turn_id(msg.chat_id, msg.user_id)
    turn = conversation.turn(turn_id) if turn_id else None
    lang = turn.answer.lang if turn is not None else conversation.settings(msg.chat_id).lang or "zh"
    if conversation.presales is None:
        await adapter.reply_text(msg, NO_OFFER[lang])
    elif turn_id and turn is None:
        await adapter.reply_text(msg, EXPIRED[lang])
    elif turn is None or not turn.answer.understood:
        await adapter.reply_text(msg, NO_ANSWER[lang])
    else:
        press = Press(
            msg.platform, msg.chat_id, msg.user_id, msg.message_id, turn.id, Action(ActionKind.QUOTE)
        )
        await seam._on_press(adapter, press)
