"""The toast a card click's acknowledgement carries (Feishu shows it at once, before the card changes).

A ``card.action.trigger`` is acked on the long connection within Feishu's 3 s, before it is answered
(:mod:`bot.feishu.client`); the ack's ``data`` is the callback response, and ``{"toast": {"type",
"content"}}`` in it shows a short notice to the person who clicked (open.feishu.cn/document/
feishu-cards/card-callback-communication: ``toast.type`` info | success | error | warning). Accepted
(the answer behind the button is still remembered): an ``info`` toast saying what comes ("Updating the
answer…", "Drawing the chart…", "Preparing the file…"), in the answer's language (a language button:
the language chosen). Refused (the answer expired, or the button is not one this version makes): a
``warning`` toast with the Telegram adapter's expiry text, in the deployment's language (Feishu:
Chinese, Lark: English), since the event does not say the user's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.chat.wording import EXPIRED, Phrase
from bot.core.actions import ActionKind
from bot.feishu.adapter import card_press
from bot.render.i18n import N_

UPDATING = Phrase(N_("Updating the answer…"))
DRAWING = Phrase(N_("Drawing the chart…"))
PREPARING = Phrase(N_("Preparing the file…"))
COMING: dict[ActionKind, Phrase] = {
    ActionKind.CHART: DRAWING,
    ActionKind.RECIPE: PREPARING,
    ActionKind.QUOTE: PREPARING,
}
"""What an accepted click announces; any other action updates the card."""


def toast(kind: str, content: str) -> dict[str, Any]:
    """A callback response holding one toast."""
    return {"toast": {"type": kind, "content": content}}


def click_ack(event: dict[str, Any], turn_lang: Callable[[str], str | None], fallback: str) -> dict[str, Any]:
    """The ack's data for a card click ``event`` (the whole event, header and body): ``turn_lang``
    gives a remembered turn's language or None once it expired; ``fallback`` is the language of a
    refusal whose answer is gone."""
    body = event.get("event")
    press = card_press(body) if isinstance(body, dict) else None
    lang = turn_lang(press.turn_id) if press is not None else None
    if press is None or lang is None:
        return toast("warning", EXPIRED[fallback])
    action = press.action
    if action.kind is ActionKind.LANG and action.arg in ("zh", "en"):
        lang = action.arg
    return toast("info", COMING.get(action.kind, UPDATING)[lang])
