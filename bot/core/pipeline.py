"""The one pipeline from a message to an answer: parse → (follow-up merge) → settings → estimate.

:func:`answer` takes the text, what the chat knows (:class:`Context`: the previous request, the
languages) and the chat's settings and pre-sales offer, and returns an :class:`Answer`. The CLI
calls it with an empty context, the Telegram bot with the chat's; buttons and inline cards call
:func:`answer_request`, its second half, with a request already in hand. No Telegram, no I/O.

Settings and pre-sales prices fill the request just before estimating (the remembered request
holds only what the user said): currency, price per GPU-hour for the request's GPU family, MFU,
deadline. The user's own words win over chat settings, which win over the pre-sales file, which
wins over the language's currency (zh → CNY, en → USD). Each value filled this way is an
assumption in the ledger, named by where it came from.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from bot.core.configfile import ConfigInfo, read_config, split_pasted
from bot.core.followup import MODEL_FIELDS, classify, explicit_stage, merge
from bot.core.interpretation import Interpretation, interpret
from bot.core.lang import Lang, reply_lang
from bot.core.settings import ChatSettings
from bot.parse import ParseResult, parse
from bot.settings.presales import PresalesConfig
from estimator import catalog, defaults, estimate
from estimator.architecture import size_label
from estimator.catalog import ModelSpec
from estimator.models import Assumption, Currency, SizingReport, SizingRequest
from estimator.reasons import Why

log = logging.getLogger(__name__)

ESTIMATOR_ERROR = "estimator_error"
"""ParseResult note when the estimator failed on a request (a bug on our side: logged, not shown)."""

MAX_INPUT_CHARS = 100_000
"""Hard cap on what reaches the parser (Telegram caps messages at 4,096; the CLI reads stdin).
The parser itself keeps the head and tail of long pastes, where the question usually is."""

MAX_COMPARISONS = 2
"""Other GPUs sized alongside the first when a question compares them."""

SOURCE_REASONS = {
    "settings": Why.chat_settings,
    "presales": Why.presales_prices,
    "language": Why.language_currency,
}
"""Where a value filled before estimating came from (ledger reasons; worded by the renderer)."""


class Answer(BaseModel):
    """One question's outcome. ``report`` is None when the question could not be used."""

    parsed: ParseResult
    report: SizingReport | None
    lang: Lang
    comparisons: list[SizingReport] = Field(
        default_factory=list,
        description="the same question on the other GPUs the user named ('A100 vs H100'), at most two",
    )
    request: SizingRequest | None = Field(
        None,
        description="what the user said over the conversation, before settings and defaults "
        "(the merged request of a follow-up); None = the parsed request",
    )
    followup: bool = Field(False, description="True when this re-answered a previous request with a change")
    changed: list[str] = Field(default_factory=list, description="request fields the follow-up changed")
    sources: dict[str, str] = Field(
        default_factory=dict,
        description="fields filled before estimating and from where: 'settings', 'presales', 'language'",
    )
    config: ConfigInfo | None = Field(
        None, description="the config.json this message gave (a file or pasted JSON), read or refused"
    )

    @property
    def understood(self) -> bool:
        return self.report is not None

    @property
    def said(self) -> SizingRequest:
        """The request the user said (merged over the conversation)."""
        return self.request or self.parsed.request

    @property
    def interpretation(self) -> Interpretation:
        """What was not known, not used, or used in place of what was typed (docs/design.md §8)."""
        return interpret(self.parsed, self.said, self.report)


@dataclass(frozen=True)
class Context:
    """What a chat knows before a message: the request a follow-up would change and the languages.

    previous: the user's last answered request in this chat (or of the answer they replied to).
    previous_lang: that answer's language. client_lang: the Telegram client's ``language_code``.
    fixed_lang: a language fixed for this answer (``--lang``, a 🌐 button), above the chat's settings.
    """

    previous: SizingRequest | None = None
    previous_lang: Lang | None = None
    client_lang: str | None = None
    fixed_lang: Lang | None = None


def is_answerable(request: SizingRequest) -> bool:
    """Enough to size something: a model (size, name or config.json), a token count, a budget, or
    GPUs × days."""
    return (
        request.params_total is not None
        or request.model is not None
        or request.architecture is not None
        or request.hours is not None
        or request.tokens is not None
        or request.num_samples is not None
        or request.budget is not None
        or (request.gpu_count is not None and request.deadline_days is not None)
    )


def safe_estimate(request: SizingRequest) -> SizingReport | None:
    """The estimator's report, or None (logged with the request) if it fails: a reply never carries
    a traceback, whatever the bug."""
    try:
        return estimate(request)
    except Exception:
        log.exception("estimator failed on %r", request)
        return None


def on_gpu(request: SizingRequest, gpu: str) -> SizingRequest:
    """The same request on another GPU (a price quoted for the first GPU does not carry over)."""
    return request.model_copy(update={"gpu": gpu, "price_per_gpu_hour": None})


def parse_capped(text: str) -> ParseResult:
    """The parse of at most :data:`MAX_INPUT_CHARS` characters (``truncated`` when cut)."""
    text = text if isinstance(text, str) else ""
    parsed = parse(text[:MAX_INPUT_CHARS])
    if len(text) > MAX_INPUT_CHARS and not parsed.truncated:
        parsed = parsed.model_copy(update={"truncated": True})
    return parsed


def answer(
    text: str,
    context: Context | None = None,
    settings: ChatSettings | None = None,
    presales: PresalesConfig | None = None,
    config: ConfigInfo | None = None,
) -> Answer:
    """Answer one message in its chat's context. Never raises on user input.

    ``config``: a config.json that came with the message (``--config``, a Telegram document); else one
    pasted into ``text`` is looked for. Its architecture is the model of the question (the message's
    own model name or size is then not used, and said so); a config that cannot be read is answered
    with why, and nothing is sized."""
    context = context or Context()
    settings = settings or ChatSettings()
    text = text if isinstance(text, str) else ""
    if config is None:
        pasted, rest = split_pasted(text[:MAX_INPUT_CHARS])
        if pasted is not None:
            config, text = read_config(pasted, source="text"), rest
    parsed = parse_capped(text)
    if config is not None and not config.ok:
        lang = reply_lang(
            text, fixed=context.fixed_lang, chosen=settings.lang, previous=context.previous_lang,
            client=context.client_lang,
        )  # fmt: skip
        return Answer(parsed=parsed, report=None, lang=lang, config=config)
    if config is not None and config.spec is not None:
        parsed = with_architecture(parsed, config.spec)
    decision = classify(context.previous, parsed, text)
    changed: list[str] = []
    request = parsed.request
    if decision.followup and context.previous is not None:
        new = {f: getattr(parsed.request, f) for f in parsed.found if f != "stage"}
        request, changed = merge(context.previous, new, explicit_stage(text))
    lang = reply_lang(
        text,
        fixed=context.fixed_lang,
        chosen=settings.lang,
        previous=context.previous_lang,
        client=context.client_lang,
    )
    result = answer_request(
        request, parsed, lang, settings, presales, followup=decision.followup, changed=changed
    )
    return result.model_copy(update={"config": config}) if config is not None else result


def with_architecture(parsed: ParseResult, spec: ModelSpec) -> ParseResult:
    """The parse with the config's architecture as its model: a model name or size the message also
    had is not used (``unused_numbers``, reason 'config_model') and not reported as unknown."""
    req = parsed.request
    typed = parsed.model_typed or parsed.unknown_model
    if typed is None and req.params_total:
        typed = size_label(req.params_total)
    unused = [*parsed.unused_numbers, (typed, "config_model")] if typed else parsed.unused_numbers
    request = req.model_copy(
        update={"model": None, "params_total": None, "params_active": None, "architecture": spec}
    )
    found = [f for f in parsed.found if f not in MODEL_FIELDS] + ["architecture"]
    return parsed.model_copy(
        update={
            "request": request,
            "found": found,
            "unused_numbers": unused,
            "unknown_model": None,
            "model_typed": None,
            "model_substitution": None,
            "model_suggestions": [],
            "out_of_scope": False,
        }
    )


def answer_request(
    request: SizingRequest,
    parsed: ParseResult,
    lang: Lang,
    settings: ChatSettings | None = None,
    presales: PresalesConfig | None = None,
    *,
    followup: bool = False,
    changed: list[str] | None = None,
) -> Answer:
    """Size ``request`` (what the user said; ``parsed`` is the message behind it) for ``lang``, with
    the chat's settings and the pre-sales offer filled in, and the other GPUs the message named."""
    settings = settings or ChatSettings()
    parsed = parsed.model_copy(update={"request": request})
    sources: dict[str, str] = {}
    report = None
    comparisons: list[SizingReport] = []
    if is_answerable(request) and (followup or not parsed.out_of_scope):
        effective, sources = effective_request(request, lang, settings, presales)
        report = safe_estimate(effective)
        if report is None:
            parsed = parsed.model_copy(update={"notes": [*parsed.notes, ESTIMATOR_ERROR]})
        else:
            report = with_source_assumptions(report, effective, sources, presales)
            others = [
                effective_request(on_gpu(request, gpu), lang, settings, presales)[0]
                for gpu in parsed.gpu_alternatives[:MAX_COMPARISONS]
            ]
            comparisons = [r for r in map(safe_estimate, others) if r is not None]
    return Answer(
        parsed=parsed,
        report=report,
        lang=lang,
        comparisons=comparisons,
        request=request,
        followup=followup,
        changed=list(changed or []),
        sources=sources,
    )


def effective_request(
    request: SizingRequest,
    lang: Lang,
    settings: ChatSettings | None = None,
    presales: PresalesConfig | None = None,
) -> tuple[SizingRequest, dict[str, str]]:
    """The request the estimator gets: the user's words, then chat settings, then pre-sales, then the
    language's currency. Returns it and {field: 'settings' | 'presales' | 'language'}."""
    s = settings or ChatSettings()
    p = presales
    upd: dict[str, Any] = {}
    sources: dict[str, str] = {}
    currency = request.currency
    if currency is None:
        if s.currency is not None:
            currency, sources["currency"] = s.currency, "settings"
        elif p is not None:
            currency, sources["currency"] = p.currency, "presales"
        else:
            currency, sources["currency"] = (Currency.CNY if lang == "zh" else Currency.USD), "language"
        upd["currency"] = currency
    if request.price_per_gpu_hour is None:
        family = catalog.family_of(request.gpu or defaults.DEFAULT_GPU)
        if family is not None:
            price = s.price_for(family, currency)
            if price is not None:
                upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = price, "settings"
            elif p is not None and (price := p.price(family, currency)) is not None:
                upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = price, "presales"
    if request.mfu is None and s.mfu is not None:
        upd["mfu"], sources["mfu"] = s.mfu, "settings"
    if request.deadline_days is None and s.deadline_days is not None:
        upd["deadline_days"], sources["deadline_days"] = s.deadline_days, "settings"
    return request.model_copy(update=upd), sources


def with_source_assumptions(
    report: SizingReport,
    effective: SizingRequest,
    sources: dict[str, str],
    presales: PresalesConfig | None = None,
) -> SizingReport:
    """Values filled from chat settings, the pre-sales file or the language are assumptions too:
    add them to the ledger (docs/design.md §3.6) so a quote never shows them as the user's own words."""
    if not sources:
        return report
    provider = presales.provider if presales is not None else "pre-sales"
    added = [
        Assumption(
            field=field,
            value=_ledger_value(getattr(effective, field, None)),
            why=SOURCE_REASONS[origin].value,
            params={"provider": provider} if origin == "presales" else {},
        )
        for field, origin in sources.items()
    ]
    return report.model_copy(update={"assumptions": [*added, *report.assumptions]})


def _ledger_value(value: Any) -> float | int | str | bool | None:
    return value.value if hasattr(value, "value") else value
