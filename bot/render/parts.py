"""A reply in parts, for front ends that lay them out themselves (a card on Feishu, WeCom or DingTalk,
a web page): the headline, the key figures and the details, each in the dialect's markup.

The reply is rendered once, as :func:`bot.render.renderer.render` does, with a details filter that
marks where the details begin instead of collapsing them; the three parts joined are the same words
as the one-text reply (the details without their collapsed form: no ``<blockquote>``, no heading).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from bot.render.dialect import Dialect, Format, dialect_for

if TYPE_CHECKING:
    from bot.core.answer import Answer

DETAILS_MARK = "\x00details\x00"
"""Where the details begin in a reply rendered for parts (NUL never survives the parser's cleaning)."""


@dataclass(frozen=True)
class ReplyParts:
    """One reply in parts: ``headline`` (line 1: the answer to what was asked), ``figures`` (the key
    figures, warnings and notes: one phone screen), ``details`` (figures, tables, advice, tools, the
    assumption ledger and the formulas; "" when there are none)."""

    headline: str
    figures: str
    details: str


def _mark_details(value: Any) -> Markup:
    body = str(value).strip("\n")
    return Markup(DETAILS_MARK + body) if body.strip() else Markup("")


@cache
def parts_dialect(dialect: Dialect) -> Dialect:
    """``dialect`` with a details filter that marks the details instead of collapsing them, no length
    limit (a card has its own), and its own template environment."""
    filters = {**dialect.filters, "details": _mark_details}
    localize = dialect.localize

    def localize_marking(env: Any, translations: Any) -> None:
        if localize is not None:
            localize(env, translations)
        env.filters["details"] = _mark_details  # over a localized details form (Markdown's heading)

    return replace(
        dialect,
        key=dialect.key + "+parts",
        filters=filters,
        limit=None,
        finish=None,
        localize=localize_marking,
    )


def split_parts(text: str, finish: Callable[[str], str] | None = None) -> ReplyParts:
    """A reply rendered in a :func:`parts_dialect` → its parts, each given the dialect's last pass."""
    visible, _, details = text.partition(DETAILS_MARK)
    headline, _, figures = visible.strip("\n").partition("\n")
    pieces = [headline.strip(), figures.strip("\n"), details.strip("\n")]
    if finish is not None:
        pieces = [finish(p) for p in pieces]
    return ReplyParts(*pieces)


def render_parts(answer: Answer, fmt: Format | Dialect = "markdown") -> ReplyParts:
    """The reply for ``answer`` in parts, in ``fmt``'s dialect (help and refusals have no details)."""
    from bot.render.renderer import render

    dialect = dialect_for(fmt)
    return split_parts(render(answer, parts_dialect(dialect)), dialect.finish)
