"""Callback cards on DingTalk: the answer as an interactive card instance of a template made in
DingTalk's console (``DINGTALK_CARD_TEMPLATE_ID``), whose buttons call the robot back.

DingTalk card API (open.dingtalk.com/document, "创建并投放卡片" / "更新卡片"; the Stream SDK's
``card_callback.py`` / ``card_replier.py``; issue 28):

* create: ``POST {endpoint}/v1.0/card/instances/createAndDeliver`` (header
  ``x-acs-dingtalk-access-token``) with ``cardTemplateId``, ``outTrackId`` (ours, unique), ``cardData
  {cardParamMap}`` (every value a *string*), ``callbackType: "STREAM"``, ``openSpaceId``
  (``dtv1.card//IM_GROUP.<conversationId>`` or ``dtv1.card//IM_ROBOT.<staffId>``) and
  ``imGroupOpenDeliverModel {robotCode}`` / ``imRobotOpenDeliverModel {spaceType: "IM_ROBOT",
  robotCode}``;
* a click: a CALLBACK frame on :data:`CARD_TOPIC` whose ``data`` holds ``outTrackId``, ``userId`` and
  ``content``, a JSON *string* with ``cardPrivateData.params`` (the template's button sets
  ``{action: <key>}``);
* update: ``PUT {endpoint}/v1.0/card/instances`` with ``outTrackId`` and the new ``cardData`` (without
  ``cardUpdateOptions`` the whole map is replaced, DingTalk's default: every key is sent each time).

The template reads these card parameters (:func:`param_map`): ``headline``, ``figures``, ``details``
and ``contact`` (Markdown), ``lang``, and ``actions``: a JSON list of ``{key, label}``, one per button,
each ``key`` the WeCom card's button key (``1|turn|kind|arg``, :func:`bot.wecom.card.button_key`) that
the click sends back as ``params.action``. The buttons are the WeCom card's (at most six; the details
and the chart are not buttons: the card shows the details and the chart follows every answer).
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING, Any

from bot.wecom.card import button_key, buttons, parse_key, parts

if TYPE_CHECKING:
    from bot.chat.adapter import Outbound
    from bot.core.actions import Action

CARD_TOPIC = "/v1.0/card/instances/callback"
TRACK_MAX = 64
"""Characters of an ``outTrackId`` (DingTalk takes up to 64 of ``[A-Za-z0-9_-]``)."""


def new_track_id(turn_id: str) -> str:
    """A card instance's ``outTrackId``: ``sz-`` + the turn + 8 random hex digits (≤ 64 characters)."""
    safe = "".join(c for c in turn_id if c.isascii() and (c.isalnum() or c in "_-"))[:40] or "t"
    return f"sz-{safe}-{secrets.token_hex(4)}"[:TRACK_MAX]


def param_map(out: Outbound) -> dict[str, str]:
    """``cardData.cardParamMap`` for an answer: its parts and its actions (all values strings)."""
    p = parts(out.text)
    actions = [{"key": button_key(out.turn_id, a), "label": a.label(out.lang)} for a in buttons(out)]
    return {
        "headline": p["h"],
        "figures": p["f"],
        "details": p["d"],
        "contact": p["c"],
        "lang": out.lang,
        "actions": json.dumps(actions, ensure_ascii=False),
    }


def open_space(group: bool, conversation_id: str, staff_id: str, robot_code: str) -> dict[str, Any]:
    """Where a card goes: the group, or the robot's 1:1 chat with the user."""
    if group:
        return {
            "openSpaceId": f"dtv1.card//IM_GROUP.{conversation_id}",
            "imGroupOpenDeliverModel": {"robotCode": robot_code},
        }
    return {
        "openSpaceId": f"dtv1.card//IM_ROBOT.{staff_id}",
        "imRobotOpenDeliverModel": {"spaceType": "IM_ROBOT", "robotCode": robot_code},
    }


def create_body(template_id: str, track_id: str, out: Outbound, space: dict[str, Any]) -> dict[str, Any]:
    """The ``createAndDeliver`` request body."""
    return {
        "cardTemplateId": template_id,
        "outTrackId": track_id,
        "callbackType": "STREAM",
        "cardData": {"cardParamMap": param_map(out)},
        **space,
    }


def update_body(track_id: str, out: Outbound) -> dict[str, Any]:
    """The ``PUT /v1.0/card/instances`` request body: the card's new parameters."""
    return {"outTrackId": track_id, "cardData": {"cardParamMap": param_map(out)}}


def click_of(data: dict[str, Any]) -> tuple[str, str, str, Action] | None:
    """``(outTrackId, userId, turn_id, action)`` of a card callback; None when it is not our button."""
    track, user, content = data.get("outTrackId"), data.get("userId"), data.get("content")
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            return None
    private = content.get("cardPrivateData") if isinstance(content, dict) else None
    params = private.get("params") if isinstance(private, dict) else None
    parsed = parse_key(params.get("action")) if isinstance(params, dict) else None
    if parsed is None or not track or not user:
        return None
    return str(track), str(user), parsed[0], parsed[1]
