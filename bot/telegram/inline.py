"""Inline mode (pure): ``@bot 70B qlora 4090`` in any chat → up to three result cards.

No Telegram I/O here: :func:`inline_answers` interprets the query, :func:`inline_results` builds
the ``InlineQueryResultArticle`` objects the handler in :mod:`bot.telegram.app` answers with. A
card is short: the headline and the key figures (:func:`bot.telegram.reply.card_html`), never the
whole answer with its text bar chart.
"""

from __future__ import annotations

from telegram import InlineQueryResultArticle, InputTextMessageContent, LinkPreviewOptions
from telegram.constants import ParseMode

from bot.core.pipeline import Answer, answer_request, is_answerable, parse_capped
from bot.parse.lang import Lang, has_cjk, reply_lang
from bot.render.renderer import render_help
from bot.settings.chat import ChatSettings
from bot.settings.presales import Localized, PresalesConfig
from bot.telegram.reply import card, card_html
from estimator import catalog, defaults

INLINE_CACHE_S = 10
"""Inline answers are personal (settings, language) and cheap to recompute: cache briefly."""
INLINE_MAX_RESULTS = 3
INLINE_EXTRA_CARDS = 1
"""When the question names no GPU, inline mode also shows it on the default GPU's first related card
(A100 → H100: the common pair)."""


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def inline_lang(query: str, telegram_lang: str | None, chosen: str | None = None) -> Lang:
    """The user's chosen language (/settings in the private chat), else Chinese for a question
    written in Chinese, else the user's Telegram language: an inline card is posted into the user's
    own chats, so a few English words ("7B qlora") do not switch a Chinese user's card."""
    return reply_lang(chosen=chosen, previous="zh" if has_cjk(query) else None, client=telegram_lang)


INLINE_EXAMPLES = {
    "zh": ("估算大模型算力：输入一个问题", "例如：7B 1万亿token A100 · 70B qlora 4090 · 部署70B 100并发"),
    "en": (
        "Size an LLM job: type a question",
        "e.g. 7B 1T tokens A100 · 70B qlora 4090 · serve 70B 100 users",
    ),
}


def inline_answers(
    query: str,
    lang: Lang,
    chat_settings: ChatSettings | None = None,
    presales: PresalesConfig | None = None,
) -> list[Answer]:
    """The interpretations of an inline query: the question as parsed and, when it names no GPU,
    the same question on the default GPU's related cards (a pre-sales deployment: on its offered
    GPUs). Empty when nothing can be sized.

    Stateless (no follow-up memory: an inline query is not part of a chat); the user's own
    settings and a pre-sales deployment's prices apply as in a chat (:func:`answer_request`).
    """
    query = " ".join(query.split())
    parsed = parse_capped(query)
    if not query or parsed.out_of_scope or not is_answerable(parsed.request, parsed.asks_largest):
        return []
    requests = [parsed.request]
    if parsed.request.gpu is None:
        # a provider's bot shows its own GPUs (the first card already is the first one that fits)
        others = presales.families() if presales is not None and presales.families() else []
        others = others or catalog.gpu(defaults.DEFAULT_GPU).related[:INLINE_EXTRA_CARDS]
        for family in others[: INLINE_EXTRA_CARDS + 1]:
            spec = catalog.default_gpu_for_family(family)
            if spec is not None:
                requests.append(parsed.request.model_copy(update={"gpu": spec.id}))
    answers = [answer_request(r, parsed, lang, chat_settings, presales) for r in requests]
    return [a for a in answers if a.report is not None]


def inline_results(
    answers: list[Answer], lang: str, contact: str | Localized | None = None
) -> list[InlineQueryResultArticle]:
    """Up to three result cards (one per distinct GPU); one card with examples when none."""
    results: list[InlineQueryResultArticle] = []
    seen: set[str | None] = set()
    for a in answers:
        if a.report is None or a.report.request.gpu in seen:
            continue
        seen.add(a.report.request.gpu)
        title, figures = card(a)
        body = card_html(title, figures, contact, a.lang)  # headline + key figures: short, no bar chart
        results.append(
            InlineQueryResultArticle(
                id=f"r{len(results)}",
                title=_cap(title or "?", 100),
                description=_cap(" · ".join(figures[:2]), 200) or None,
                input_message_content=InputTextMessageContent(
                    body, parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
                ),
            )
        )
        if len(results) >= INLINE_MAX_RESULTS:
            break
    if not results:
        title, description = INLINE_EXAMPLES[lang if lang in INLINE_EXAMPLES else "en"]
        results.append(
            InlineQueryResultArticle(
                id="help",
                title=title,
                description=description,
                input_message_content=InputTextMessageContent(
                    render_help(lang, "html"),
                    parse_mode=ParseMode.HTML,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                ),
            )
        )
    return results
