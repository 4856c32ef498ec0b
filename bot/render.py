"""SizingReport + locale → reply text (HTML for Telegram, plain text for the terminal). STUB."""

from __future__ import annotations

from typing import Literal

from bot.answer import Answer

Format = Literal["html", "text"]


def render(answer: Answer, fmt: Format = "html") -> str:
    if answer.report is None:
        return render_help(answer.lang, fmt)
    r = answer.report
    return f"GPU-hours: {r.gpu_hours.likely:,.0f}" if r.gpu_hours else "ok"


def render_help(lang: str, fmt: Format = "html") -> str:
    return "help"
