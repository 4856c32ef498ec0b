"""The answer as a Feishu / Lark card (card JSON 2.0) and the callback values its buttons carry.

Card JSON 2.0 (open.feishu.cn/document/feishu-cards/card-json-v2-structure): ``schema: "2.0"``, a
``header`` (the headline as title), ``body.elements``: a ``markdown`` element (the key figures and
the contact line), a ``collapsible_panel`` (``expanded: false``) holding the details, and the actions
as ``button`` s in one ``column_set`` per row, each with ``behaviors: [{"type": "callback",
"value": {...}}]`` (the value comes back in ``card.action.trigger`` as ``event.action.value``).

The seam's :data:`bot.chat.seam.Renderer` returns the card's parts as a JSON string (this adapter's
"dialect"); :func:`card_footer` adds the contact line; :func:`build_card` makes the card.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from bot.core.actions import Action, ActionKind
from bot.feishu.lark_md import lark_markdown

if TYPE_CHECKING:
    from bot.chat.adapter import Outbound
    from bot.core.conversation import Turn

VALUE_VERSION = 1
"""``value.v`` of our buttons; a click carrying another version is ignored."""
MARKDOWN_MAX = 9000
"""Characters per markdown element kept (a card's JSON is limited to 30 KB by Feishu)."""


def card_text(turn: Turn, details: bool = True) -> str:
    """The seam renderer: the answer's parts (markdown dialect) as a JSON string."""
    from bot.render.parts import render_parts

    parts = render_parts(turn.answer, "markdown")
    return json.dumps({"h": parts.headline, "f": parts.figures, "d": parts.details}, ensure_ascii=False)


def card_footer(text: str, line: str) -> str:
    """The seam footer: the contact line goes under the key figures."""
    parts = _parts(text)
    parts["c"] = line
    return json.dumps(parts, ensure_ascii=False)


def _parts(text: str) -> dict[str, str]:
    try:
        parts = json.loads(text)
    except ValueError:
        parts = None
    if not isinstance(parts, dict):  # plain text (a refusal rendered elsewhere): all of it as figures
        return {"h": "", "f": text, "d": ""}
    return {k: str(v) for k, v in parts.items()}


def action_value(turn_id: str, action: Action) -> dict[str, Any]:
    """The callback value of one button: version, turn, action kind and argument."""
    return {"v": VALUE_VERSION, "t": turn_id, "a": action.kind.value, "g": action.arg}


def parse_value(value: object) -> tuple[str, Action] | None:
    """``(turn_id, action)`` from a clicked button's value; None when it is not one of ours."""
    if not isinstance(value, dict) or value.get("v") != VALUE_VERSION:
        return None
    turn, kind, arg = value.get("t"), value.get("a"), value.get("g", "")
    if not isinstance(turn, str) or not isinstance(arg, str) or not turn:
        return None
    try:
        return turn, Action(ActionKind(kind), arg)
    except ValueError:
        return None


def _button(turn_id: str, action: Action, lang: str) -> dict[str, Any]:
    return {
        "tag": "button",
        "text": {"tag": "plain_text", "content": action.label(lang)},
        "type": "default",
        "size": "small",
        "behaviors": [{"type": "callback", "value": action_value(turn_id, action)}],
    }


def _row(turn_id: str, row: list[Action], lang: str) -> dict[str, Any]:
    columns = [
        {"tag": "column", "width": "auto", "elements": [_button(turn_id, action, lang)]} for action in row
    ]
    return {"tag": "column_set", "flex_mode": "flow", "columns": columns}


def build_card(out: Outbound, image_key: str | None = None) -> dict[str, Any]:
    """The card for a reply: headline, key figures (+ contact line), the chart (``image_key``, once
    uploaded), collapsed details, buttons. The details toggle is the collapsible panel itself, so
    the details actions are not buttons."""
    parts = _parts(out.text)
    # CommonMark's hard breaks and backslash escapes as Feishu's card Markdown shows them (bot.feishu.lark_md)
    figures = lark_markdown("\n\n".join(p for p in (parts.get("f", ""), parts.get("c", "")) if p.strip()))
    elements: list[dict[str, Any]] = [{"tag": "markdown", "content": figures[:MARKDOWN_MAX] or " "}]
    if image_key:
        alt = {"tag": "plain_text", "content": "chart"}
        elements.append({"tag": "img", "img_key": image_key, "alt": alt, "scale_type": "fit_horizontal"})
    details = lark_markdown(parts.get("d", ""))
    if details.strip():
        title = "详细信息" if out.lang == "zh" else "Details"
        elements.append(
            {
                "tag": "collapsible_panel",
                "expanded": False,
                "header": {"title": {"tag": "plain_text", "content": title}},
                "elements": [{"tag": "markdown", "content": details[:MARKDOWN_MAX]}],
            }
        )
    for row in out.actions:
        kept = [a for a in row if a.kind is not ActionKind.DETAILS]
        if kept and out.turn_id:
            elements.append(_row(out.turn_id, kept, out.lang))
    card: dict[str, Any] = {
        "schema": "2.0",
        "config": {"update_multi": True},
        "body": {"elements": elements},
    }
    if parts.get("h"):
        title = re.sub(r"\\(.)|[*_`]", r"\1", parts["h"])  # markdown → plain text
        card["header"] = {"title": {"tag": "plain_text", "content": title[:200]}, "template": "blue"}
    return card
