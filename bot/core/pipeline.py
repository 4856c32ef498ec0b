"""The one pipeline from a message to an answer: parse → (follow-up merge) → settings → estimate.

:func:`answer` takes the text, what the chat knows (:class:`Context`: the previous request, the
languages) and the chat's settings and pre-sales offer, and returns an :class:`Answer`. The CLI
calls it with an empty context, the Telegram bot with the chat's; buttons and inline cards call
:func:`answer_request`, its second half, with a request already in hand. No Telegram, no I/O.

Settings and pre-sales prices fill the request just before estimating (the remembered request
holds only what the user said): currency, price per GPU-hour for the request's GPU family, MFU,
deadline (as ``deadline_default_days``: only where the answer would assume a deadline, so a
default never turns a memory question into a deadline question). The user's own words win over
chat settings, which win over the pre-sales file, which wins over the language's currency
(zh → CNY, en → USD). Each value filled this way and used by the answer is an assumption in the
ledger, named by where it came from.
 With a pre-sales offer (:mod:`bot.core.offer`), a question that names no GPU is sized on the first offered
GPU that fits the job, a price missing in the customer's currency is converted through the
file's exchange rate, and a comparison continues with the cheapest offered GPU's details.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from bot.core.answer import Answer, with_rows
from bot.core.cheapest import names_a_gpu
from bot.core.compare_currency import not_compared, priced_cheapest, unsized_cards
from bot.core.compared_load import sized_options
from bot.core.cpu_machine import cpu_machine
from bot.core.embedding_job import embedding_job, figures_used, is_embedding_job
from bot.core.failed_counts import failed_carries, size_above_failed
from bot.core.filled import effective_request, with_source_assumptions
from bot.core.followup import MODEL_FIELDS, classify, followup_fields, lost_followup, merge, stage_switch
from bot.core.home_card import home_card_cost
from bot.core.pasted import split_pasted
from bot.core.priced_cards import with_priced_cards
from bot.core.release_window import release_window
from bot.core.script import reply_langs
from bot.later_names import asks_carried, prose_commented, scaled_followup, unshouted, with_typed_case
from bot.lazylog import lazy_logger
from bot.parse import ParseResult, parse
from bot.parse.configs import StackConfig, find_stack_config
from bot.parse.configs.merge import with_stack
from bot.parse.counts_tried import COUNTS_FAILED
from bot.parse.lang import Lang
from bot.parse.parse_error import PARSE_ERROR
from bot.parse.plain_forms import wide_ascii
from bot.settings.chat import ChatSettings
from bot.textclean import clean_text, strip_markup
from estimator import catalog, estimate
from estimator.architecture import size_label
from estimator.catalog import ModelSpec
from estimator.later import later
from estimator.models import SizingReport, SizingRequest, Stage
from estimator.reasons import Why

if TYPE_CHECKING:
    from bot.core.ceiling_cards import CeilingCards  # with a per-card ceiling and no model only
    from bot.core.configfile import ConfigInfo  # with a config.json only (start-up)
    from bot.core.offer import Offer  # the pre-sales models: imported only with an offer (start-up)
    from bot.settings.presales import PresalesConfig  # annotations only: read only with an offer

log = lazy_logger(__name__)

# imported on first call (s42-speed): a time to first token asked, a budget led, a pasted config, an offer
(ttft_bound,) = later("bot.core.ttft_bind", "ttft_bound")
(budget_led,) = later("bot.core.budget_lead", "budget_led")
(training_prose,) = later("bot.parse.configs.prose_stage", "training_prose")
offer_gpu, offer_terms_for, offered_instead = later(
    "bot.core.offer_sizing", "offer_gpu", "offer_terms_for", "offered_instead"
)

ESTIMATOR_ERROR = "estimator_error"
"""ParseResult note when the estimator failed on a request (a bug on our side: logged, not shown)."""
LOST_FOLLOWUP = "lost_followup"
"""ParseResult note: the message changes a previous question ("那H100呢") the chat no longer has (a
restart, or it expired): the reply says so instead of the generic help."""
NO_HISTORY = "no_history"
"""A follow-up in `sizing-bot ask`, which keeps no history (the CLI swaps it for :data:`LOST_FOLLOWUP`)."""
API_NO_HISTORY = "api_no_history"
"""A follow-up sent to the web API, which keeps no history either (:func:`bot.web.state.api_json`)."""
ABSURD_MODEL = "absurd_model"
"""A stated model size beyond :data:`estimator.request.MAX_PARAMS`: the help, with the size named."""
ASKED_CARD = "asked_card"
"""ParseResult note: of several cards named, the question asks about one (bot.parse.asked_model.asked_card):
it is sized first even when another named card is cheaper."""
OPTION_COUNTS = "option_counts"
"""ParseResult note: the cards compared each have their own count (bot.parse.option_counts): the first
written is sized first, at its count, and each other card at its own."""

MAX_INPUT_CHARS = 100_000
"""Hard cap on what reaches the parser (Telegram caps messages at 4,096; the CLI reads stdin).
The parser itself keeps the head and tail of long pastes, where the question usually is."""

MAX_COMPARISONS = 5
"""Other GPUs sized alongside the first when a question compares them (trial s18 #3: 2 dropped a 4th card
in silence); any further card is named as not compared (:data:`NOT_COMPARED`)."""


@dataclass(frozen=True)
class Context:
    """What a chat knows before a message: the request a follow-up would change and the languages.

    previous: the user's last answered request in this chat (or of the answer they replied to).
    previous_lang, previous_script: that answer's language and script. client_lang: the Telegram client's
    ``language_code``. fixed_lang, fixed_script: fixed for this answer (``--lang zh-Hant``, a 🌐 button),
    above the chat's settings (bot.core.script).
    """

    previous: SizingRequest | None = None
    previous_lang: Lang | None = None
    client_lang: str | None = None
    fixed_lang: Lang | None = None
    previous_script: str | None = None
    fixed_script: str | None = None
    previous_failed: bool = False
    """the previous answer's GPU counts ran out of memory (:mod:`bot.core.failed_counts`, session 18)"""


def is_answerable(request: SizingRequest, asks_largest: bool = False) -> bool:
    """Enough to size something: a model (size, name or config.json), a token count, a budget (money or
    FLOPs), or
    GPUs × days; or, when the question asks which model fits (``asks_largest``), a serving question on
    named GPUs."""
    return (
        request.params_total is not None
        or request.model is not None
        or request.architecture is not None
        or request.hours is not None
        or request.tokens is not None
        or request.num_samples is not None
        or request.budget is not None
        or request.compute_budget_flops is not None  # '1e23 FLOPs': the compute-optimal N and D
        or (request.gpu_count is not None and request.deadline_days is not None)
        # "一张4090能跑多大的模型": serving on named GPUs without a model → the largest model that fits
        or (asks_largest and request.stage in _LARGEST_STAGES and (request.gpu or request.gpu_memory_gib))
    )


def _largest_carried(previous: SizingRequest, request: SizingRequest, parsed: ParseResult) -> bool:
    """A follow-up of a "which model fits" question still asks it (s21: '8张4090最大能全参微调多大的模型'
    → 'and with LoRA?' was answered with the help text): the previous request was answerable only as
    that question, and the merged one, still without a model, is too."""
    if parsed.asks_largest or is_answerable(request):
        return False
    return not is_answerable(previous) and is_answerable(previous, True) and is_answerable(request, True)


_LARGEST_STAGES = (Stage.inference, Stage.finetune)
"""Which model fits: serving (estimator.largest) and fine-tuning (estimator.largest_trained, trial s21 #9)."""


def sized_anything(report: SizingReport) -> bool:
    """Whether the report holds an answer: compute, time, memory, serving or what a budget buys."""
    for value in (  # a loop: no generator frame a value (s40-speed)
        report.flops, report.gpu_hours, report.memory, report.inference, report.budget_gpu_hours,
        report.max_params_for_budget, report.tokens_for_budget, report.largest_served, report.largest_trained,
    ):  # fmt: skip
        if value is not None:
            return True
    return False


def safe_estimate(request: SizingRequest) -> SizingReport | None:
    """The estimator's report, or None (logged with the request) if it fails: a reply never carries
    a traceback, whatever the bug."""
    try:
        return estimate(request)
    except Exception:
        log.exception("estimator failed on %r", request)
        return None


def on_gpu(
    request: SizingRequest,
    gpu: str,
    memory_gib: float | None = None,
    count: int | None = None,
    price: float | None = None,
) -> SizingRequest:
    """The same request on another GPU (a price quoted for the first GPU does not carry over, nor a
    memory stated beside the first card: 'A100 40G 对比 H100' compares an 80 GB H100), at the count
    stated for that card when the options each have one ('8x H100 or 16x A100': 16 A100s), at the price
    stated after that card ('H100 at $2.49 vs A100 at $1.19': $1.19 an A100-hour; None: the catalog's)."""
    update: dict[str, object] = {"gpu": gpu, "price_per_gpu_hour": price, "gpu_memory_gib": memory_gib}
    if count is not None:
        update["gpu_count"] = count
    elif (
        request.gpu_count is None and (request.concurrency or request.users) and request.stage == "inference"
    ):
        update["count_asked"] = True  # a stated load on each option: the count that holds it (trial s29 #1)
    return request.model_copy(update=update)


def parse_capped(text: str, typed: str | None = None) -> ParseResult:
    """The parse of at most :data:`MAX_INPUT_CHARS` characters (``truncated`` when cut); ``typed``: the
    message as typed when ``text`` is its shouting in lower case (its names echoed as typed: s32)."""
    text = text if isinstance(text, str) else ""
    capped = text[:MAX_INPUT_CHARS]
    parsed = parse(capped)  # asides and past runs: parse post-steps (bot.parse.parse)
    parsed = with_typed_case(parsed, typed) if typed else parsed
    if len(text) > MAX_INPUT_CHARS and not parsed.truncated:
        parsed = parsed.model_copy(update={"truncated": True})
    return parsed


def answer(
    text: str,
    context: Context | None = None,
    settings: ChatSettings | None = None,
    presales: PresalesConfig | None = None,
    config: ConfigInfo | None = None,
    stack: StackConfig | None = None,
) -> Answer:
    """Answer one message in its chat's context. Never raises on user input.

    ``config``: a config.json that came with the message (``--config``, a Telegram document); else one
    pasted into ``text`` is looked for. Its architecture is the model of the question (the message's
    own model name or size is then not used, and said so); a config that cannot be read is answered
    with why, and nothing is sized."""
    context, settings = context or Context(), settings or ChatSettings()
    text = clean_text(text) if isinstance(text, str) else ""  # lone surrogates (bot.textclean)
    # full-width '８' plainly before a pasted config is read (s31; '**70B**' unwrapped in parse: plain_forms)
    text = wide_ascii(text)
    text, typed = unshouted(text) if text.isupper() else (text, None)  # 'HOW MANY …': lower case (s32)
    if config is None:
        pasted, rest = split_pasted(text[:MAX_INPUT_CHARS])
        if pasted is not None:
            from bot.core.configfile import read_config  # with a pasted config only (start-up)

            config, text = read_config(pasted, source="text"), rest
    if config is None and stack is None:
        stack, text = find_stack_config(text[:MAX_INPUT_CHARS])
    commented: list[tuple[str, str]] = []
    if stack is None and "#" in text:  # '# --quantization_bit 4' in prose: put aside, named (s28 tidy)
        text, commented = prose_commented(text)
    parsed = parse_capped(strip_markup(text), typed)  # "<b>how many</b>": the words, not the tags (s21 #20)
    if commented:
        parsed = parsed.model_copy(update={"unused_numbers": [*parsed.unused_numbers, *commented]})
    if stack is not None and (said := training_prose(stack, parsed, strip_markup(text))):  # trial2 #7 (s25)
        parsed = parse_capped(said)
    if PARSE_ERROR in parsed.notes:  # the reply quotes the message as received, tags and all (s21)
        parsed = parsed.model_copy(update={"normalized": text[:MAX_INPUT_CHARS]})
    if stack is not None:
        parsed = with_stack(parsed, stack, text)
    if parsed.unused_numbers:  # 'max_steps: 3000' and no GPU count (s19): a step count named as not used
        from bot.core.steps_plan import steps_on_plan  # imported when used: start-up (s26)

        parsed = steps_on_plan(parsed)
    lang, script = reply_langs(parsed, text, context, settings)  # s38: Simplified or Traditional
    if config is not None and not config.ok:
        return Answer(parsed=parsed, report=None, lang=lang, config=config, script=script)
    if config is not None and config.spec is not None:
        parsed = with_architecture(parsed, config.spec)
    decision = classify(context.previous, parsed)
    changed: list[str] = []
    request = parsed.request
    kept: dict[str, Any] = {}
    reset: dict[str, Any] = {}
    new: dict[str, Any] = {}
    if decision.followup and context.previous is not None:
        parsed, new = followup_fields(parsed, context.previous)  # '用4台' after '2台8卡': 4 × 8 (s15)
        request, changed = merge(context.previous, new, parsed.stage_word)
        request, parsed = scaled_followup(context.previous, request, changed, parsed)  # 'on H100s?' (s21)
        parsed = asks_carried(request, parsed)  # 'how many concurrent …' then 'at 32k?' (s24 #6)
        kept, reset = stage_switch(context.previous, request)
        if _largest_carried(context.previous, request, parsed):  # "一张4090能跑多大的模型" → "那3090呢"
            parsed = parsed.model_copy(update={"asks_largest": True})
        if context.previous_failed and COUNTS_FAILED not in parsed.notes and failed_carries(changed):
            parsed = parsed.model_copy(update={"notes": [*parsed.notes, COUNTS_FAILED]})  # still bounds it
    elif context.previous is None and lost_followup(parsed):
        parsed = parsed.model_copy(update={"notes": [*parsed.notes, LOST_FOLLOWUP]})
    result = answer_request(request, parsed, lang, settings, presales, followup=decision.followup,
                            changed=changed, switch=(kept, reset))  # fmt: skip
    if new and context.previous is not None:  # only the card changed: the load before stays (s29 fix b)
        from bot.core.carried_load import carried_load

        def size(q: SizingRequest) -> SizingReport | None:
            return (s := _size(q, lang, settings, presales)) and s[0]

        if carry := carried_load(context.previous, new, request, result.report, size):
            result = answer_request(request, parsed, lang, settings, presales, followup=True, changed=changed,
                                    switch=(kept, reset), carry=carry)  # fmt: skip
    result.script = script
    result = result.model_copy(update={"stack": stack}) if stack is not None else result
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
    switch: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    carry: dict[str, Any] | None = None,
) -> Answer:
    """Size ``request`` (what the user said; ``parsed`` the message) for ``lang``, with the chat's settings,
    the pre-sales offer and the other GPUs or models named. ``switch``: a stage switch's (kept, reset) values
    (:attr:`Answer.kept`, :attr:`Answer.reset`); ``carry``: the answer before's assumed values, as such."""
    settings = settings or ChatSettings()
    parsed = parsed.model_copy(update={"request": request})
    sources: dict[str, str] = {}
    report = offer = pick = None
    comparisons: list[SizingReport] = []
    models: list[SizingReport] = []
    best: int | None = None
    alternative: tuple[SizingReport, Offer] | None = None
    if beyond := ABSURD_MODEL in parsed.notes or is_embedding_job(parsed):  # "a 1000000B model"; an encoder
        parsed = figures_used(parsed)  # an encoder served: its QPS and tokens used, not 'not used' (s38)
    if is_answerable(request, parsed.asks_largest) and (followup or not parsed.out_of_scope) and not beyond:
        chosen: dict[str, str] = dict.fromkeys(carry or (), "previous_answer")
        first = request.model_copy(update=carry) if carry else request
        if presales is not None and not names_a_gpu(request) and parsed.unknown_gpu is None:
            first, chosen = offer_gpu(request, lang, settings, presales, safe_estimate)
        one = partial(_size, lang=lang, settings=settings, presales=presales, extra_sources=chosen)
        sized = size_above_failed(first, one) if COUNTS_FAILED in parsed.notes else None  # '4卡和8卡都OOM'
        sized = sized or one(first)  # s38: a first-token target that a copy's GPUs must meet sets the count
        sized, parsed = ttft_bound(first, parsed, sized, one) if parsed.asks_ttft else (sized, parsed)
        if sized is None:
            parsed = parsed.model_copy(update={"notes": [*parsed.notes, ESTIMATOR_ERROR]})
        elif not sized_anything(sized[0]):  # e.g. serving with GPUs and days but no model: nothing to say
            pass
        else:
            size = partial(_size, lang=lang, settings=settings, presales=presales)
            parsed, done, models = _options(parsed, request, first, sized, size, presales is None)
            said = "price_per_gpu_hour" in parsed.found or parsed.gpu_alternative_prices != {}  # s19, s37
            best = priced_cheapest([r for r, _ in done], presales.families() if presales else None, said)
            # two setups: the card asked about stays first; options each at its count: the first written
            asked = ASKED_CARD in parsed.notes or OPTION_COUNTS in parsed.notes  # 'A100 40/80GB': as written
            asked = asked or len({catalog.family_of(g) for g in [request.gpu, *parsed.gpu_alternatives]}) == 1
            if len(done) > 1 and best is not None and best > 0 and not asked:  # the cheapest's details
                done.insert(0, done.pop(best))
                best = 0
            if request.budget:  # the headline's budget pick leads the body (s30)
                done, pick = budget_led(done, first, size, ASKED_CARD not in parsed.notes)
            report, sources = done[0]
            report = cpu_machine(release_window(home_card_cost(report, parsed), parsed), parsed)
            report = report if request.gpu_count or not request.batch_size else _steps_table(report, parsed)
            comparisons = [r for r, _ in done[1:]]
            if presales is not None:
                offer = offer_terms_for(presales, report, sources)
                if not offer.offered:  # size: the same partial as above
                    alternative = offered_instead(request, presales, size)
    parsed = parsed if report is not None else unsized_cards(parsed)  # s42: the other cards named
    result = Answer(
        parsed=parsed if report is not None else _one_card(parsed),  # s31: one personal card, nothing sized
        report=report,
        **_unsized(report, parsed, request, partial(_size, lang=lang, settings=settings, presales=presales)),
        lang=lang,
        comparisons=comparisons,
        compared_models=models,
        request=request,
        followup=followup,
        changed=list(changed or []),
        kept=switch[0],
        reset=switch[1],
        sources=sources,
        offer=offer,
        offered=alternative[0] if alternative else None,
        offered_terms=alternative[1] if alternative else None,
    )
    # the cheapest option was moved first above (offer's families: presales.families()); the budget's pick
    return with_rows(result.know(cheapest_index=best if comparisons else None, budget_pick=pick))


def _one_card(parsed: ParseResult) -> ParseResult:
    """``parsed`` of an answer that sized nothing, its personal card counted one (bot.core.unsized_card)."""
    if parsed.request.gpu is None or parsed.request.gpu_count is not None:
        return parsed
    from bot.core.unsized_card import one_personal_card

    return parsed.model_copy(update={"request": one_personal_card(parsed.request)})


def _unsized(
    report: SizingReport | None, parsed: ParseResult, request: SizingRequest, size: Callable[..., Any]
) -> dict[str, Any]:
    """Nothing sized: their per-card ceiling scaled (s30), or a family's sizes on the card (s31)."""
    if report is not None:
        return {}
    if (job := embedding_job(parsed)) is not None:  # a corpus to encode: prefill-bound time (s32 fixk)
        return {"embedding": job}
    if parsed.model_family_only and request.gpu:  # 'Qwen3 在 3060 上能跑哪个'
        from bot.core.family_fits import family_fits  # imported when used: start-up

        return {"family_fits": family_fits(parsed, request, size)}
    if "accumulation_asked" in parsed.notes:  # 'how much gradient accumulation' with no model (s32 fixb)
        from bot.core.accumulation import accumulation  # imported when used: start-up

        return {"accumulation": accumulation(parsed)}
    return {"ceiling": _ceiling(parsed)}


def _ceiling(parsed: ParseResult) -> CeilingCards | None:
    """No model: the count from the user's own per-card ceiling ('单卡扛 40，200 并发几张卡', s30 fixe)."""
    if not parsed.unused_numbers or not parsed.request.concurrency:
        return None
    from bot.core.ceiling_cards import ceiling_cards  # imported when used: start-up

    return ceiling_cards(parsed)


def _options(
    parsed: ParseResult,
    request: SizingRequest,
    first: SizingRequest,
    sized: tuple[SizingReport, dict[str, str]],
    size: Callable[[SizingRequest], tuple[SizingReport, dict[str, str]] | None],
    catalog_cards: bool = True,
) -> tuple[ParseResult, list[tuple[SizingReport, dict[str, str]]], list[SizingReport]]:
    """Every option compared ('A100 vs H100 vs …'): ``sized`` (``first``'s) and each other card named, up to
    :data:`MAX_COMPARISONS` (any further card named as not compared), in one currency
    (:mod:`bot.core.compare_currency`); and ``parsed`` with the cards not compared named. ``catalog_cards``
    (no pre-sales offer): 'the cheapest card' compares the catalog's priced cards (s27 trial #2). Third: the
    other models set beside the first, or a fine-tuning budget's picks (bot.core.compared_models)."""
    if (parsed.compared_models or first.largest_asked) and not parsed.gpu_alternatives:  # s36; when used
        from bot.core.compared_models import other_options

        if (other := other_options(parsed, first, sized, size)) is not None:
            return parsed, *other
    if catalog_cards:
        parsed = with_priced_cards(parsed, sized[0], MAX_COMPARISONS)
    stated, counts = parsed.gpu_alternative_memory, parsed.gpu_alternative_counts
    prices = parsed.gpu_alternative_prices
    asks = [
        on_gpu(request, gpu, stated.get(gpu), counts.get(gpu), prices.get(gpu))
        for gpu in parsed.gpu_alternatives
    ]
    done = sized_options([first, *asks[:MAX_COMPARISONS]], sized, size)  # one load, one currency (s35)
    return not_compared(parsed, parsed.gpu_alternatives[MAX_COMPARISONS:]), done, []


def _size(
    request: SizingRequest,
    lang: Lang,
    settings: ChatSettings,
    presales: PresalesConfig | None,
    extra_sources: dict[str, str] | None = None,
) -> tuple[SizingReport, dict[str, str]] | None:
    """One report for ``request`` with settings and the offer filled in, and where they came from."""
    effective, sources = effective_request(request, lang, settings, presales)
    sources = {**(extra_sources or {}), **sources}
    report = safe_estimate(effective)
    if report is None:
        return None
    report = with_source_assumptions(report, effective, sources, presales)
    if Why.chat_settings in [a.why for a in report.assumptions if a.field == "deadline_days"]:  # no generator
        sources["deadline_days"] = "settings"  # the estimator assumed the chat's default (its ledger has it)
    return report, sources


def without_history(result: Answer, note: str = NO_HISTORY) -> Answer:
    """A follow-up ("那H100呢") where nothing keeps history (``ask``, the API): no earlier question was
    lost, there never is one; ``note`` replaces :data:`LOST_FOLLOWUP` so the reply says so."""
    notes = result.parsed.notes
    if LOST_FOLLOWUP not in notes:
        return result
    swapped = [note if n == LOST_FOLLOWUP else n for n in notes]
    return result.model_copy(update={"parsed": result.parsed.model_copy(update={"notes": swapped})})


def _steps_table(report: SizingReport, parsed: ParseResult) -> SizingReport:
    """:func:`bot.core.steps_plan.table_on_steps` (imported when used: start-up)."""
    from bot.core.steps_plan import table_on_steps

    return table_on_steps(report, parsed)
