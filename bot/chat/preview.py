"""``sizing-bot preview PLATFORM MESSAGE…``: what the bot would send on Feishu/Lark, WeCom or DingTalk,
without an account or a network: each message is asked in one private chat through the seam the
running bot uses (:func:`bot.chat.wiring.card_seam`; a later message can be a follow-up such as
"那H100呢"), and the reply is printed as the JSON body that platform's API receives (Feishu's card
``content`` shown as an object: the API takes it JSON-encoded in a string):

* Feishu/Lark: ``im/v1/messages`` with ``msg_type: interactive`` and the card
  (:func:`bot.feishu.card.build_card`);
* WeCom: the ``template_card`` reply of the intelligent bot's long connection
  (:func:`bot.wecom.card.build_card`), after its streamed markdown (:func:`bot.wecom.card.stream_markdown`);
* DingTalk: the session webhook's ``actionCard`` (buttons link to the web page at
  ``SIZING_BOT_WEB_PUBLIC_URL``) or ``markdown`` without one (:func:`bot.dingtalk.card.message_of`);
* Telegram: the Bot API's ``sendMessage`` (HTML parse mode, the inline keyboard as ``reply_markup``),
  as :func:`bot.telegram.handlers.answer_text` sends it (trial s21 #25: no way to see it without a token).

Nothing is stored: the conversation lives in memory for the run.
"""

from __future__ import annotations

import json
from typing import Any

from bot.chat.adapter import Inbound, Outbound
from bot.core.conversation import Conversation

PLATFORMS = ("feishu", "wecom", "dingtalk", "telegram")
CHAT, USER = "preview-chat", "preview-user"


def preview(
    platform: str, messages: list[str], *, public_url: str = "", presales: Any = None
) -> list[dict[str, Any]]:
    """``{"message": text, "send": [body, …]}`` for each of ``messages``, asked in order in one private
    chat: the bodies the bot sends in reply (WeCom: a finished stream, then the card when it has buttons).

    Raises ValueError for a platform not in :data:`PLATFORMS`."""
    if platform not in PLATFORMS:
        raise ValueError(f"unknown platform {platform!r}: one of {', '.join(PLATFORMS)}")
    if platform == "telegram":
        return _telegram(messages, presales)
    from bot.chat.wiring import card_seam

    conversation = Conversation(presales=presales)
    seam = card_seam(conversation, presales)
    links = _links(public_url) if platform == "dingtalk" else None
    bodies = []
    for i, text in enumerate(messages):
        msg = Inbound(platform, f"{platform}:{CHAT}", f"{platform}:{USER}", text, message_id=f"m{i}")
        out = seam.answer(msg)
        if out is None:  # only a group message not addressed to the bot; never in a private chat
            continue
        if links is not None:
            turn = conversation.turn(out.turn_id) if out.turn_id else None
            if turn is not None:
                links.remember(out.turn_id, msg.chat_id, msg.user_id, text, turn.followup)
        bodies.append({"message": text, "send": _bodies(platform, out, links)})
    return bodies


def _telegram(messages: list[str], presales: Any) -> list[dict[str, Any]]:
    """Telegram's ``sendMessage`` bodies, built as the running bot's handler builds them: the turn's HTML
    (:func:`bot.telegram.reply.reply_html`, the offer's contact line) and its inline keyboard; an empty
    message gets the help, as in the bot."""
    from bot.chat.contact import contact_of
    from bot.render.renderer import render_help
    from bot.telegram.keyboards import answer_keyboard
    from bot.telegram.reply import reply_html

    conversation, contact, chat = Conversation(presales=presales), contact_of(presales), 1
    bodies = []
    for text in messages:
        body: dict[str, Any] = {"method": "sendMessage", "chat_id": chat, "parse_mode": "HTML"}
        if not text.strip():
            body["text"] = render_help("en", "html")
        else:
            turn = conversation.ask(chat, chat, text)
            body["text"] = reply_html(turn, contact=contact)
            markup = answer_keyboard(turn)
            if markup is not None:
                body["reply_markup"] = markup.to_dict()
        bodies.append({"message": text, "send": [body]})
    return bodies


def _links(public_url: str) -> Any:
    from bot.dingtalk.card import WebLinks

    return WebLinks(public_url)


def _bodies(platform: str, out: Outbound, links: Any) -> list[dict[str, Any]]:
    if platform == "feishu":  # the reply to the question (im/v1/messages/:message_id/reply)
        from bot.feishu.card import build_card

        return [{"msg_type": "interactive", "content": build_card(out)}]  # sent JSON-encoded as a string
    if platform == "wecom":  # aibot_respond_msg, twice (bot.wecom.adapter.WeComAdapter.reply)
        from bot.wecom.card import build_card as wecom_card
        from bot.wecom.card import buttons, new_task_id, stream_markdown

        sent = [{"msgtype": "stream", "stream": {"finish": True, "content": stream_markdown(out)}}]
        if buttons(out):
            card = wecom_card(out, new_task_id(out.turn_id))
            sent.append({"msgtype": "template_card", "template_card": card})
        return sent
    from bot.dingtalk.card import message_of

    return [message_of(out, links.buttons(out))]


def preview_command(platform: str, messages: list[str], public_url: str, presales: Any) -> str:
    """The JSON the command prints: one object per message, in order."""
    bodies = preview(platform, messages, public_url=public_url, presales=presales)
    return json.dumps(bodies, ensure_ascii=False, indent=2)
