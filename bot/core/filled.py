"""The request the estimator gets, filled before estimating: the user's words, then the chat's settings,
then the pre-sales file, then the language's currency; and each value so filled as an assumption in the
report's ledger (docs/design.md §3.6), named by where it came from. Moved out of :mod:`bot.core.pipeline`
(session 17, no behaviour change)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.parse.lang import Lang
from bot.settings.chat import ChatSettings
from estimator import catalog, defaults
from estimator.models import Assumption, Currency, SizingReport, SizingRequest, Stage
from estimator.reasons import Why

if TYPE_CHECKING:
    from bot.settings.presales import PresalesConfig  # annotations only: read only with an offer

SOURCE_REASONS = {
    "settings": Why.chat_settings,
    "presales": Why.presales_prices,
    "presales_month": Why.presales_monthly,
    "exchange": Why.presales_exchange,
    "language": Why.language_currency,
    "offer_gpu": Why.presales_gpu,
    "offer_none_fits": Why.presales_gpu_none_fits,
    "offer_instead": Why.presales_gpu_instead,
    "previous_answer": Why.previous_answer_load,  # bot.core.carried_load
    "budget_pick": Why.budget_pick,  # bot.core.budget_lead
    "compared_load": Why.compared_load,  # bot.core.compared_load
    "budget_finetune_data": Why.budget_finetune_data,  # bot.core.budget_finetune (s36)
}
"""Where a value filled before estimating came from (ledger reasons; worded by the renderer)."""
_WEIGHTS = ("previous_answer", "precision")  # the weights a context-only follow-up keeps (s35 fix c #3)


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
            elif (
                p is not None
                and request.stage == Stage.inference
                and not request.hours  # a service that runs all month, not a rental of so many hours
                and (monthly := p.monthly_rate(family, currency))
            ):  # the best price first (issue 22 item 5)
                upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = monthly, "presales_month"
            elif p is not None and (price := p.price(family, currency)) is not None:
                upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = price, "presales"
            elif p is not None and (converted := p.converted_price(family, currency)) is not None:
                upd["price_per_gpu_hour"], sources["price_per_gpu_hour"] = converted[0], "exchange"
    if request.mfu is None and s.mfu is not None:
        upd["mfu"], sources["mfu"] = s.mfu, "settings"
    if request.deadline_days is None and s.deadline_days is not None:
        # a default, not a stated deadline: the estimator assumes it only where it would assume one
        # (its ledger says so), so "1张A100够吗" stays a memory question (never "what fits in 30 days")
        upd["deadline_default_days"] = s.deadline_days
    upd.update(card_window(request))
    return request.model_copy(update=upd), sources


CONTEXT_FIELDS = ("seq_len", "max_model_len")
"""The request's context lengths a 'K' said by the user sets (every context reader's result)."""


def card_window(request: SizingRequest) -> dict[str, int]:
    """{field: the model's window} for each context length of ``request`` said as n K (n × 1,024 tokens)
    on a model whose config window is n × 1,000 tokens: its model card's 'nK' (Mistral NeMo: config.json
    max_position_embeddings 128000, 'a 128k context window'), so '128K' on it is that window, not 131,072
    tokens past it (s37-left). Where the config says 131,072 (Llama 3.1, Qwen2.5 with YaRN) 128K stays
    131,072; one rule for every field of :data:`CONTEXT_FIELDS`."""
    said = [(f, v) for f in CONTEXT_FIELDS if (v := getattr(request, f, None)) and v % 1024 == 0]
    if not said or request.model is None:
        return {}
    spec = catalog.models().get(request.model)
    window = spec.max_context if spec is not None else None
    if not window or window % 1000:
        return {}
    return {f: window for f, v in said if v // 1024 * 1000 == window}


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
            why=(
                Why.previous_answer_weights if (origin, field) == _WEIGHTS else SOURCE_REASONS[origin]
            ).value,
            params=_source_params(origin, effective, presales, provider),
        )
        for field, origin in sources.items()
        if used_by(field, report)
    ]
    return report.model_copy(update={"assumptions": [*added, *report.assumptions]})


def used_by(field: str, report: SizingReport) -> bool:
    """Whether the answer used a value filled before estimating: an MFU only where time was sized, a
    price (and its currency) only where money was; so a memory answer never lists the chat's MFU or
    price as if they mattered (docs/design.md §8: every setting is used or not shown as used)."""
    if field == "mfu":
        return report.mfu is not None
    if field in ("price_per_gpu_hour", "currency"):
        inf = report.inference
        return (
            report.cost is not None
            or report.budget_gpu_hours is not None
            or report.request.budget is not None
            or (inf is not None and (inf.cost_per_million_tokens or inf.cost_per_month) is not None)
        )
    return True


def _source_params(
    origin: str, effective: SizingRequest, presales: PresalesConfig | None, provider: str
) -> dict[str, Any]:
    if origin == "exchange" and presales is not None and presales.exchange_rate is not None:
        rate = presales.exchange_rate
        family = catalog.family_of(effective.gpu or defaults.DEFAULT_GPU) or ""
        converted = presales.converted_price(family, effective.currency or presales.currency)
        other = Currency.USD if effective.currency == Currency.CNY else Currency.CNY
        return {
            "provider": provider,
            "from_price": converted[1] if converted else None,
            "from_currency": other.value,
            "cny_per_usd": rate.cny_per_usd,
            "as_of": rate.as_of.isoformat(),
        }
    if origin == "presales_month" and presales is not None:
        currency = effective.currency or presales.currency
        month = presales.monthly_price(
            catalog.family_of(effective.gpu or defaults.DEFAULT_GPU) or "", currency
        )
        return {
            "provider": provider,
            "month": None if month is None else round(month, 2),
            "currency": currency.value,
        }
    own = (
        "settings",
        "language",
        "previous_answer",
        "budget_pick",
        "compared_load",
        "budget_finetune_data",
    )  # no provider named
    return {"provider": provider} if origin not in own else {}


def _ledger_value(value: Any) -> float | int | str | bool | None:
    return value.value if hasattr(value, "value") else value
