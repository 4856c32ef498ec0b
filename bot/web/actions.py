"""The answer's actions (decided by :func:`bot.core.actions.answer_actions`) translated into the
page's links: a GPU, method or stage switch becomes a follow-up question ("那H100呢", "With LoRA?") the
parser reads as a change of the previous request, so the link stays stateless and shows in the box
what it asked; ⚙️ recipes a link, 📊 the chart an image and 🧾 the quote a PDF link.

Nothing is decided here: the GPUs are :func:`bot.core.suggest.suggested_gpus`'s, as on Telegram. The
details toggle and the 🌐 language action have the page's own controls (``<details>``, the lang links).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.actions import Action, ActionKind, answer_actions, gpu_label
from bot.web.page import followup_link, link
from bot.web.state import Asked
from bot.web.wording import answer_lang, word

if TYPE_CHECKING:
    from bot.core.pipeline import Answer
    from bot.settings.presales import PresalesConfig


def page_actions(result: Answer, presales: PresalesConfig | None) -> list[Action]:
    """The core's actions under ``result`` (rows flattened), with the core's GPU suggestions."""
    from bot.core.suggest import suggested_gpus
    from bot.quote import can_quote

    if not result.understood:
        return []
    families = presales.families() if presales is not None else []
    gpus = suggested_gpus(result.report, result.said, families)
    rows = answer_actions(result, gpus=gpus, quote=can_quote(result))
    return [a for row in rows for a in row]


def followup(action: Action, lang: str) -> tuple[str, str] | None:
    """(label, follow-up question) for a switch action (GPU, method, stage), else None."""
    if action.kind is ActionKind.GPU:
        return action.text, word(lang, "ask_gpu", gpu=gpu_label(action.arg))
    if action.kind in (ActionKind.METHOD, ActionKind.STAGE):
        q = word(lang, f"ask_{action.arg}")
        return q, q
    return None


def action_links(
    prefix: str, asked: Asked, result: Answer, presales: PresalesConfig | None
) -> list[tuple[str, str]]:
    """(label, escaped href) for every switch and the recipes under an understood answer."""
    out = []
    for action in page_actions(result, presales):
        asks = followup(action, answer_lang(result))
        if asks is not None:
            out.append((asks[0], followup_link(prefix, asked, asks[1])))
        elif action.kind is ActionKind.RECIPE:
            out.append((word(answer_lang(result), "recipes"), link(prefix, "/recipes", asked)))
    return out


def extras(prefix: str, asked: Asked, result: Answer, presales: PresalesConfig | None) -> str:
    """The 📊 chart action as an image and the 🧾 quote action as a link (HTML)."""
    parts, lang = [], answer_lang(result)
    for action in page_actions(result, presales):
        if action.kind is ActionKind.CHART:
            alt = word(lang, "chart")
            src = link(prefix, "/chart.png", asked)
            parts.append(
                f'<img class="chart" src="{src}" alt="{alt}" width="1000" height="700" loading="lazy">'
            )
        elif action.kind is ActionKind.QUOTE:
            parts.append(f'<p><a href="{link(prefix, "/quote.pdf", asked)}">{word(lang, "quote")}</a></p>')
    return "\n".join(parts)
