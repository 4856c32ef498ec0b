"""The pipeline for one message: parse → estimate → (render). No Telegram, no I/O."""

from __future__ import annotations

from pydantic import BaseModel

from bot.parse import Lang, ParseResult, parse
from estimator import estimate
from estimator.models import SizingReport, SizingRequest

MAX_INPUT_CHARS = 4000
"""Messages longer than this are cut before parsing (Telegram's own cap is 4096)."""


class Answer(BaseModel):
    """One question's outcome. ``report`` is None when the question could not be used."""

    parsed: ParseResult
    report: SizingReport | None
    lang: Lang

    @property
    def understood(self) -> bool:
        return self.report is not None


def is_answerable(request: SizingRequest) -> bool:
    """Enough to size something: a model size, or a token count to train on."""
    return request.params_total is not None or request.model is not None or request.tokens is not None


def answer(text: str, lang: Lang | None = None) -> Answer:
    """Answer one question. Never raises on user input; ``lang`` overrides the detected language."""
    parsed = parse(text[:MAX_INPUT_CHARS])
    if len(text) > MAX_INPUT_CHARS:
        parsed = parsed.model_copy(update={"truncated": True})
    reply_lang = lang or parsed.lang
    if parsed.out_of_scope or not is_answerable(parsed.request):
        return Answer(parsed=parsed, report=None, lang=reply_lang)
    return Answer(parsed=parsed, report=estimate(parsed.request), lang=reply_lang)
