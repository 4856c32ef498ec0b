"""One question's outcome (:class:`Answer`) and the facts derived from it once, in core: the chosen
training layout, the interpretation, the cheapest compared option. Render reads them; it does not
compute them again (issue 23: one pass, one direction)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bot.core.chosen import chosen_plan
from bot.core.compare_currency import priced_cheapest
from bot.core.derived_hours import DerivedHours, derived_hours
from bot.core.interpretation import Interpretation, interpret
from bot.core.priced_cards import unpriced_cards
from bot.parse.which_cards import CHEAPEST_ASKED
from estimator.models import Plan, SizingReport, SizingRequest

if TYPE_CHECKING:  # annotations only: an answer is made by the pipeline, never validated from outside
    from bot.core.accumulation import Accumulation
    from bot.core.budget_pick import BudgetPick
    from bot.core.ceiling_cards import CeilingCards
    from bot.core.configfile import ConfigInfo
    from bot.core.embedding_job import EmbeddingJob
    from bot.core.embedding_serve import EmbeddingServe
    from bot.core.family_fits import FamilyFits
    from bot.core.offer import Offer
    from bot.core.per_value import PerValue
    from bot.parse import ParseResult
    from bot.parse.configs import StackConfig
    from bot.parse.lang import Lang

DERIVED_FROM = frozenset({"report", "comparisons", "parsed", "request", "offer"})
"""The fields the derived facts depend on: a copy that changes one forgets them."""


@dataclass(slots=True, kw_only=True, eq=False)
class Answer:
    """One question's outcome. ``report`` is None when the question could not be used.

    A plain slotted dataclass, not a pydantic model (it was one until session 27): the pipeline makes it
    from values that are already validated (the parse result, the reports, the offer), and nothing reads
    it from outside; the JSON contract is written field by field (:mod:`bot.contract`). As a model its
    class and validator cost ~5M instructions of a ~1,100M ``sizing-bot ask`` and its ``offer`` field
    made every start build the six pre-sales models (bench/RESULTS.md, session 27 part s27-spstart)."""

    parsed: ParseResult
    report: SizingReport | None
    lang: Lang
    script: str = "Hans"
    """the script of a Chinese reply: 'Hans' or 'Hant' (bot.core.script; the render converts, s38)"""
    comparisons: list[SizingReport] = field(default_factory=list)
    """the same question on the other GPUs the user named ('A100 vs H100'), at most two"""
    compared_models: list[SizingReport] = field(default_factory=list)
    """the same job with each other model the question set beside the first ('Qwen3-32B 还是 Llama-3.3-70B，
    哪个'; bot.core.compared_models, s36)"""
    request: SizingRequest | None = None
    """what the user said over the conversation, before settings and defaults (the merged request of a
    follow-up); None = the parsed request"""
    followup: bool = False
    """True when this re-answered a previous request with a change"""
    changed: list[str] = field(default_factory=list)
    """request fields the follow-up changed"""
    kept: dict[str, Any] = field(default_factory=dict)
    """a stage switch (a follow-up or a button): the previous request's values kept (model, GPU, price)"""
    reset: dict[str, Any] = field(default_factory=dict)
    """a stage switch: the previous request's values not carried over (the old stage's data size, GPU
    count, context …), sized afresh"""
    sources: dict[str, str] = field(default_factory=dict)
    """fields filled before estimating and from where: 'settings', 'presales', 'exchange', 'language',
    'offer_gpu', 'offer_none_fits'"""
    config: ConfigInfo | None = None
    """the config.json this message gave (a file or pasted JSON), read or refused"""
    offer: Offer | None = None
    """the provider's terms behind the answer (pre-sales)"""
    offered: SizingReport | None = None
    """the GPU the customer named is not offered: the same request on the first offered GPU that fits,
    which a quote under the provider's name prices (None: none fits, or not needed)"""
    offered_terms: Offer | None = None
    """the offer's terms for ``offered``"""
    stack: StackConfig | None = None
    """a training/serving config or command line the message gave (bot.parse.configs)"""
    ceiling: CeilingCards | None = None
    """no model named: the count from the user's own per-card ceiling (bot.core.ceiling_cards, s30)"""
    family_fits: FamilyFits | None = None
    accumulation: Accumulation | None = None
    """no model named: the gradient accumulation asked, as the formula on their figures (s32 fixb)"""
    embedding: EmbeddingJob | EmbeddingServe | None = None
    """a corpus encoded by an embedding model: its prefill-bound time (bot.core.embedding_job, s32 fixk); or
    an embedding/reranker model served: QPS a card, cards, memory (bot.core.embedding_serve, s38)"""
    """a family named without a size beside a card: which sizes fit on it (bot.core.family_fits, s31)"""
    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False)

    @property
    def understood(self) -> bool:
        return self.report is not None

    @property
    def said(self) -> SizingRequest:
        """The request the user said (merged over the conversation); an encoder served: with its catalog id,
        QPS and length, for a follow-up (bot.core.embedding_serve.served_request, s38 embfix)."""
        said = self.request or self.parsed.request
        if self.embedding is None:
            return said
        from bot.core.embedding_serve import served_request

        return served_request(said, self.embedding)

    # -- derived facts: computed once per answer, on first use, by core; render only formats them

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Answer:
        """A copy with ``update``'s fields replaced (the name and behaviour of pydantic's, which it was):
        its derived facts are kept unless ``update`` changes what they derive from (the report, the
        comparisons, the message, the request or the offer). ``deep``: the fields deep-copied first."""
        if deep:
            import copy as _copy

            base = _copy.deepcopy(self)
            copy = replace(base, **(update or {}))
        else:
            copy = replace(self, **(update or {}))
        copy._derived = {} if update and DERIVED_FROM & set(update) else dict(self._derived)
        return copy

    def know(self, **facts: Any) -> Answer:
        """Record derived facts the pipeline already computed (e.g. ``cheapest_index``), so they are not
        computed again; returns the answer."""
        self._derived.update(facts)
        return self

    @property
    def interpretation(self) -> Interpretation:
        """What was not known, not used, or used in place of what was typed over the conversation
        (docs/design.md §8; the JSON's ``interpretation``)."""
        derived = self._derived  # each fact made once, looked up in place (no helper or lambda frame)
        if "interpretation" not in derived:
            derived["interpretation"] = interpret(self.parsed, self.said, self.report)
            p, derived["per_value"] = self.parsed, ()
            # a list of one setting's values (s36-lists): no Python call unless the message may hold one
            if self.report is not None and (
                p.request.gpu_count_max
                or (p.unused_numbers and (p.request.gpu_memory_gib or _lists_numbers(p.normalized)))
                or (p.unused_numbers and ("'precision: " in (u := repr(p.unused_numbers)) or "'model: " in u))
            ):
                derived["per_value"] = rows = self._per_value()
                if rows:
                    from bot.core.per_value import rows_used

                    derived["interpretation"] = rows_used(derived["interpretation"], rows)
        return derived["interpretation"]

    @property
    def reply_interpretation(self) -> Interpretation:
        """The interpretation the reply words: of this message's own request (a follow-up names what it
        newly said, not again what an earlier turn's reply named); :attr:`interpretation` when the
        message is the whole request."""
        if self.request is None or self.request is self.parsed.request:
            return self.interpretation
        derived = self._derived
        if "reply_interpretation" not in derived:
            derived["reply_interpretation"] = interpret(self.parsed, self.parsed.request, self.report)
        return derived["reply_interpretation"]

    @property
    def chosen_plan(self) -> Plan | None:
        """The training layout the answer recommends (:func:`bot.core.chosen.chosen_plan`): the one the
        reply explains and the recipes launch; None without a training layout."""
        derived = self._derived
        if "chosen_plan" not in derived:
            derived["chosen_plan"] = chosen_plan(self.report) if self.report is not None else None
        return derived["chosen_plan"]

    @property
    def derived_hours(self) -> DerivedHours:
        """The load cost's GPU-hours and the method rows' hours (:mod:`bot.core.derived_hours`): render
        formats them, never computes them."""
        derived = self._derived
        if "derived_hours" not in derived:
            derived["derived_hours"] = derived_hours(self.report)
        return derived["derived_hours"]

    @property
    def compared(self) -> list[SizingReport]:
        """The reports a comparison weighs ("A100 vs H100"): the answer's first, then the others; empty
        when the question compared nothing."""
        return [self.report, *self.comparisons] if self.comparisons and self.report is not None else []

    @property
    def per_value(self) -> tuple[PerValue, ...]:
        """One row per value of a setting the message listed ('on 1, 2 or 4 A100', '并发 10、20、50'):
        :func:`bot.core.per_value.per_value` (s36-lists, issue 24); () for any other question. Worked out
        with :attr:`interpretation` (the listed values are used, never named as not used)."""
        if "per_value" not in self._derived:
            _ = self.interpretation
        return self._derived["per_value"]

    def _per_value(self) -> tuple[PerValue, ...]:
        from bot.core.per_value import per_value  # imported when used: start-up
        from bot.core.pipeline import safe_estimate

        assert self.report is not None
        return per_value(self.parsed, self.said, safe_estimate)

    @property
    def unpriced_cards(self) -> list[str]:
        """The cards a 'cheapest card' question did not compare for want of a price in the answer's
        currency (:func:`bot.core.priced_cards.unpriced_cards`, catalog ids; trial s27 #2); [] for any
        other question."""
        derived = self._derived
        if "unpriced_cards" not in derived:
            derived["unpriced_cards"] = self._unpriced()
        return derived["unpriced_cards"]

    def _unpriced(self) -> list[str]:
        if CHEAPEST_ASKED not in self.parsed.notes or not self.comparisons or self.report is None:
            return []
        cards = [r.request.gpu for r in self.compared if r.request.gpu]
        return unpriced_cards(cards, self.report.request.currency)

    @property
    def budget_pick(self) -> BudgetPick | None:
        """The compared serving option a budget per period picks (:func:`bot.core.budget_pick.budget_pick`,
        s29 fix b): the headline leads with it; None without a comparison or such a budget."""
        from bot.core.budget_pick import budget_pick  # imported when used: start-up

        derived = self._derived
        if "budget_pick" not in derived:
            derived["budget_pick"] = budget_pick(self.compared) if self.comparisons else None
        return derived["budget_pick"]

    @property
    def cheapest_index(self) -> int | None:
        """Index into :attr:`compared` of the cheapest option (among the provider's offered families
        when there is an offer), None when nothing was compared or a cost is missing
        (:func:`bot.core.compare_currency.priced_cheapest`)."""
        families = self.offer.families if self.offer is not None else None
        derived = self._derived
        if "cheapest_index" not in derived:
            derived["cheapest_index"] = priced_cheapest(self.compared, families) if self.comparisons else None
        return derived["cheapest_index"]


def _lists_numbers(text: str) -> bool:
    """Whether ``text`` writes two numbers as a list (bot.parse.value_list.lists_numbers: the parser reads
    the message, core runs no regex on it); imported only for a message with a number named as not used."""
    from bot.parse.value_list import lists_numbers

    return lists_numbers(text)


def with_rows(answer: Answer) -> Answer:
    """``answer`` with its rows per listed value (:attr:`Answer.per_value`, and the interpretation they
    change) worked out when its message may list values of one setting: at answer time, so a render
    only formats them (s36-lists); unchanged otherwise."""
    p = answer.parsed
    if answer.report is not None and (
        p.request.gpu_count_max
        or (p.unused_numbers and (p.request.gpu_memory_gib or _lists_numbers(p.normalized)))
        # s39: another format or model named ('precision: int8', 'model: 13B'): a list of them may have rows
        or (p.unused_numbers and ("'precision: " in (u := repr(p.unused_numbers)) or "'model: " in u))
    ):
        _ = answer.interpretation
    return answer
