"""Launch recipes in a chat: code blocks (``<pre><code class="language-…">``), packed into as few messages
as fit Telegram's 4,096 characters, or a document file when one recipe is longer than a message."""

from __future__ import annotations

import html
from dataclasses import dataclass

from telegram import InputFile, ReplyParameters

from bot.recipes import Recipe
from bot.render.html import TELEGRAM_MAX_CHARS, visible_length
from bot.telegram.state import SizingContext


@dataclass(frozen=True)
class Document:
    """A recipe sent as a file: its name, bytes and caption (the title)."""

    filename: str
    data: bytes
    caption: str


def recipe_html(recipe: Recipe) -> str:
    """One recipe as Telegram HTML: the title in bold, the file name, the text in a code block."""
    return (
        f"<b>{html.escape(recipe.title, quote=False)}</b>\n"
        f"<code>{html.escape(recipe.filename, quote=False)}</code>\n"
        f'<pre><code class="language-{recipe.language}">{html.escape(recipe.text.rstrip(), quote=False)}'
        "</code></pre>"
    )


CAPTION_MAX_CHARS = 1024
"""Telegram's limit on a document caption."""


def outgoing(recipes: list[Recipe], limit: int = TELEGRAM_MAX_CHARS) -> list[str | Document]:
    """Messages to send: consecutive recipes packed into one HTML message while it stays within
    ``limit`` visible characters; a recipe longer than a message alone becomes a :class:`Document`."""
    out: list[str | Document] = []
    current = ""
    for recipe in recipes:
        block = recipe_html(recipe)
        if visible_length(block) > limit:
            if current:
                out.append(current)
                current = ""
            caption = html.escape(recipe.title[: CAPTION_MAX_CHARS - 64], quote=False)
            out.append(Document(recipe.filename, recipe.text.encode("utf-8"), caption))
            continue
        joined = f"{current}\n\n{block}" if current else block
        if visible_length(joined) > limit:
            out.append(current)
            current = block
        else:
            current = joined
    if current:
        out.append(current)
    return out


async def send_recipes(
    context: SizingContext, chat_id: int, recipes: list[Recipe], reply_to: int | None = None
) -> int:
    """Send ``recipes`` to a chat (quoting ``reply_to`` when given). Returns the messages sent."""
    quoted = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
    sent = 0
    for item in outgoing(recipes):
        if isinstance(item, Document):
            await context.bot.send_document(
                chat_id,
                document=InputFile(item.data, filename=item.filename),
                caption=item.caption,
                reply_parameters=quoted,
            )
        else:
            await context.bot.send_message(chat_id, item, reply_parameters=quoted)
        sent += 1
    return sent
