"""One question's outcome (:class:`Answer`) and the facts derived from it once, in core: the chosen
training layout, the interpretation, the cheapest compared option. Render reads them; it does not
compute them again (issue 23: one pass, one direction)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

from bot.core.chosen import chosen_plan
from bot.core.compare_currency import priced_cheapest
from bot.core.configfile import ConfigInfo
from bot.core.derived_hours import DerivedHours, derived_hours
from bot.core.interpretation import Interpretation, interpret
from bot.core.offer import Offer
from bot.core.priced_cards import unpriced_cards
from bot.parse import ParseResult
from bot.parse.configs import StackConfig
from bot.parse.lang import Lang
from bot.parse.which_cards import CHEAPEST_ASKED
from estimator.factories import empty_list
from estimator.models import Plan, SizingReport, SizingRequest

DERIVED_FROM = frozenset({"report", "comparisons", "parsed", "request", "offer"})
"""The fields the derived facts depend on: a copy that changes one forgets them."""


class Answer(BaseModel, defer_build=True):  # schema built on first use: start-up
    """One question's outcome. ``report`` is None when the question could not be used."""

    parsed: ParseResult
    report: SizingReport | None
    lang: Lang
    comparisons: list[SizingReport] = Field(
        default_factory=empty_list,
        description="the same question on the other GPUs the user named ('A100 vs H100'), at most two",
    )
    request: SizingRequest | None = Field(
        None,
        description="what the user said over the conversation, before settings and defaults "
        "(the merged request of a follow-up); None = the parsed request",
    )
    followup: bool = Field(False, description="True when this re-answered a previous request with a change")
    changed: list[str] = Field(default_factory=empty_list, description="request fields the follow-up changed")
    kept: dict[str, Any] = Field(
        default_factory=dict,
        description="a stage switch (a follow-up or a button): the previous request's values kept "
        "(model, GPU, price)",
    )
    reset: dict[str, Any] = Field(
        default_factory=dict,
        description="a stage switch: the previous request's values not carried over (the old stage's "
        "data size, GPU count, context …), sized afresh",
    )
    sources: dict[str, str] = Field(
        default_factory=dict,
        description="fields filled before estimating and from where: 'settings', 'presales', 'exchange', "
        "'language', 'offer_gpu', 'offer_none_fits'",
    )
    config: ConfigInfo | None = Field(
        None, description="the config.json this message gave (a file or pasted JSON), read or refused"
    )
    offer: Offer | None = Field(None, description="the provider's terms behind the answer (pre-sales)")
    offered: SizingReport | None = Field(
        None,
        description="the GPU the customer named is not offered: the same request on the first offered GPU "
        "that fits, which a quote under the provider's name prices (None: none fits, or not needed)",
    )
    offered_terms: Offer | None = Field(None, description="the offer's terms for `offered`")
    stack: StackConfig | None = Field(
        None, description="a training/serving config or command line the message gave (bot.parse.configs)"
    )
    _derived: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def understood(self) -> bool:
        return self.report is not None

    @property
    def said(self) -> SizingRequest:
        """The request the user said (merged over the conversation)."""
        return self.request or self.parsed.request

    # -- derived facts: computed once per answer, on first use, by core; render only formats them

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Answer:
        """A copy (pydantic's); its derived facts are kept unless ``update`` changes what they derive
        from (the report, the comparisons, the message, the request or the offer)."""
        copy = super().model_copy(update=update, deep=deep)
        copy._derived = {} if update and DERIVED_FROM & set(update) else dict(self._derived)
        return copy

    def know(self, **facts: Any) -> Answer:
        """Record derived facts the pipeline already computed (e.g. ``cheapest_index``), so they are not
        computed again; returns the answer."""
        self.__pydantic_private__["_derived"].update(facts)  # type: ignore[index]  # as _once reads it
        return self

    def _once(self, key: str, make: Callable[[], Any]) -> Any:
        # the private attribute read from pydantic's own slot: ``self._derived`` goes through
        # ``BaseModel.__getattr__`` (two Python frames, ~1 µs; a reply reads ~3 facts: ~2 % of rendering)
        derived = self.__pydantic_private__["_derived"]  # type: ignore[index]
        if key not in derived:
            derived[key] = make()
        return derived[key]

    @property
    def interpretation(self) -> Interpretation:
        """What was not known, not used, or used in place of what was typed over the conversation
        (docs/design.md §8; the JSON's ``interpretation``)."""
        return self._once("interpretation", lambda: interpret(self.parsed, self.said, self.report))

    @property
    def reply_interpretation(self) -> Interpretation:
        """The interpretation the reply words: of this message's own request (a follow-up names what it
        newly said, not again what an earlier turn's reply named); :attr:`interpretation` when the
        message is the whole request."""
        if self.request is None or self.request is self.parsed.request:
            return self.interpretation
        return self._once(
            "reply_interpretation", lambda: interpret(self.parsed, self.parsed.request, self.report)
        )

    @property
    def chosen_plan(self) -> Plan | None:
        """The training layout the answer recommends (:func:`bot.core.chosen.chosen_plan`): the one the
        reply explains and the recipes launch; None without a training layout."""
        return self._once(
            "chosen_plan", lambda: chosen_plan(self.report) if self.report is not None else None
        )

    @property
    def derived_hours(self) -> DerivedHours:
        """The load cost's GPU-hours and the method rows' hours (:mod:`bot.core.derived_hours`): render
        formats them, never computes them."""
        return self._once("derived_hours", lambda: derived_hours(self.report))

    @property
    def compared(self) -> list[SizingReport]:
        """The reports a comparison weighs ("A100 vs H100"): the answer's first, then the others; empty
        when the question compared nothing."""
        return [self.report, *self.comparisons] if self.comparisons and self.report is not None else []

    @property
    def unpriced_cards(self) -> list[str]:
        """The cards a 'cheapest card' question did not compare for want of a price in the answer's
        currency (:func:`bot.core.priced_cards.unpriced_cards`, catalog ids; trial s27 #2); [] for any
        other question."""
        return self._once("unpriced_cards", self._unpriced)

    def _unpriced(self) -> list[str]:
        if CHEAPEST_ASKED not in self.parsed.notes or not self.comparisons or self.report is None:
            return []
        cards = [r.request.gpu for r in self.compared if r.request.gpu]
        return unpriced_cards(cards, self.report.request.currency)

    @property
    def cheapest_index(self) -> int | None:
        """Index into :attr:`compared` of the cheapest option (among the provider's offered families
        when there is an offer), None when nothing was compared or a cost is missing
        (:func:`bot.core.compare_currency.priced_cheapest`)."""
        families = self.offer.families if self.offer is not None else None
        return self._once(
            "cheapest_index", lambda: priced_cheapest(self.compared, families) if self.comparisons else None
        )
