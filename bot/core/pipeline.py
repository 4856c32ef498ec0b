"""The pipeline for one message: parse → estimate → (render). No Telegram, no I/O."""

from __future__ import annotations

import logging

from pydantic import BaseModel

from bot.parse.parser import Lang, ParseResult, parse
from estimator import estimate
from estimator.models import Currency, SizingReport, SizingRequest

log = logging.getLogger(__name__)

ESTIMATOR_ERROR = "estimator_error"
"""ParseResult note when the estimator failed on a request (a bug on our side: logged, not shown)."""

MAX_INPUT_CHARS = 100_000
"""Hard cap on what reaches the parser (Telegram caps messages at 4,096; the CLI reads stdin).
The parser itself keeps the head and tail of long pastes, where the question usually is."""


class Answer(BaseModel):
    """One question's outcome. ``report`` is None when the question could not be used."""

    parsed: ParseResult
    report: SizingReport | None
    lang: Lang
    comparisons: list[SizingReport] = []
    """The same question on the other GPUs the user named ("A100 vs H100"), at most two."""

    @property
    def understood(self) -> bool:
        return self.report is not None


def is_answerable(request: SizingRequest) -> bool:
    """Enough to size something: a model size, a token count, a budget, or GPUs × days."""
    return (
        request.params_total is not None
        or request.model is not None
        or request.tokens is not None
        or request.num_samples is not None
        or request.budget is not None
        or (request.gpu_count is not None and request.deadline_days is not None)
    )


def with_language_defaults(request: SizingRequest, lang: Lang) -> SizingRequest:
    """Currency follows the conversation's language when the user named none (zh → CNY, en → USD)."""
    if request.currency is None:
        return request.model_copy(update={"currency": Currency.CNY if lang == "zh" else Currency.USD})
    return request


def safe_estimate(request: SizingRequest) -> SizingReport | None:
    """The estimator's report, or None (logged with the request) if it fails: a reply never carries
    a traceback, whatever the bug."""
    try:
        return estimate(request)
    except Exception:
        log.exception("estimator failed on %r", request)
        return None


MAX_COMPARISONS = 2
"""Other GPUs sized alongside the first when a question compares them."""


def on_gpu(request: SizingRequest, gpu: str) -> SizingRequest:
    """The same request on another GPU (a price quoted for the first GPU does not carry over)."""
    return request.model_copy(update={"gpu": gpu, "price_per_gpu_hour": None})


def compare(requests: list[SizingRequest]) -> list[SizingReport]:
    """Reports for the alternative requests that the estimator could size."""
    return [r for r in map(safe_estimate, requests) if r is not None]


def answer(text: str, lang: Lang | None = None) -> Answer:
    """Answer one question. Never raises on user input; ``lang`` overrides the detected language."""
    parsed = parse(text[:MAX_INPUT_CHARS])
    if len(text) > MAX_INPUT_CHARS and not parsed.truncated:
        parsed = parsed.model_copy(update={"truncated": True})
    reply_lang = lang or parsed.lang
    if parsed.out_of_scope or not is_answerable(parsed.request):
        return Answer(parsed=parsed, report=None, lang=reply_lang)
    request = with_language_defaults(parsed.request, reply_lang)
    report = safe_estimate(request)
    if report is None:
        parsed = parsed.model_copy(update={"notes": [*parsed.notes, ESTIMATOR_ERROR]})
        return Answer(parsed=parsed, report=None, lang=reply_lang)
    others = [on_gpu(request, gpu) for gpu in parsed.gpu_alternatives[:MAX_COMPARISONS]]
    return Answer(parsed=parsed, report=report, lang=reply_lang, comparisons=compare(others))
