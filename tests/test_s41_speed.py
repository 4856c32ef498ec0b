"""Session 41 (s41-speed, issue 23 item 7): work the answer path no longer does, with the same answers.

- :mod:`estimator.fit_change` copies a :class:`estimator.setup.TrainingSetup` (43 fields) with
  :func:`estimator.copying.replace` (no ``__init__``: ~2 µs a copy, ``dataclasses.replace`` ~34 µs on the
  shared dev box); the changes it proposes are those it proposed with ``dataclasses.replace``.
- :func:`bot.core.compare_currency.table_currency` answers a table priced in one currency (most answers: one
  report) without a ``Counter``; mixed currencies as before (the most frequent, ties: the first priced).
"""

from __future__ import annotations

import dataclasses

import pytest

import estimator.fit_change as fit_change
from bot.core.compare_currency import table_currency
from estimator import catalog
from estimator.copying import replace as fast_replace
from estimator.models import Method, Plan
from estimator.money_kinds import Currency
from estimator.setup import TrainingSetup

CASES = [
    # Llama-3-8B full fine-tuning at 16K on 2 x L20 48 GB: five toggles together (test_fit_change_memo.py)
    ("Llama-3-8B", "L20", 2, TrainingSetup(method=Method.full, seq_len=16384, micro_batch=4), 4, False),
    # the same job with the settings tried first (a job that does not fit at all)
    ("Llama-3-8B", "L20", 2, TrainingSetup(method=Method.full, seq_len=16384, micro_batch=4), 4, True),
    # LoRA of Llama-2-13B at 8K, micro-batch 8, on one 24 GB card
    ("Llama-2-13B", "RTX-4090", 1, TrainingSetup(method=Method.lora, seq_len=8192, micro_batch=8), 8, False),
]


def test_fit_change_copies_a_setup_without_its_init() -> None:
    assert fit_change.replace is fast_replace


@pytest.mark.parametrize(("model", "gpu", "gpus", "setup", "micro", "first"), CASES)
def test_the_changes_proposed_are_those_dataclasses_replace_gave(
    monkeypatch: pytest.MonkeyPatch,
    model: str,
    gpu: str,
    gpus: int,
    setup: TrainingSetup,
    micro: int,
    first: bool,
) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    plan = Plan(tp=1, pp=1, dp=gpus, zero_stage=0, recompute="selective", micro_batch=micro)
    fast = fit_change.what_to_change(spec, spec.params_total, card, gpus, setup, plan, settings_first=first)
    monkeypatch.setattr(fit_change, "replace", dataclasses.replace)
    slow = fit_change.what_to_change(spec, spec.params_total, card, gpus, setup, plan, settings_first=first)
    assert fast == slow
    if model == "Llama-3-8B" and not first:  # a case whose answer is known: not an empty list both ways
        assert [(c.setting, c.value) for c in fast][-1] == ("offload", True)


class _Priced:
    """A report's cost as :func:`bot.core.compare_currency.cost_currency` reads it (training: ``cost``)."""

    def __init__(self, currency: Currency | None) -> None:
        self.inference = None
        self.cost = None if currency is None else type("Cost", (), {"currency": currency})()


@pytest.mark.parametrize(
    ("currencies", "expected"),
    [
        ([Currency.USD], Currency.USD),
        ([Currency.CNY, None, Currency.CNY], Currency.CNY),  # one currency, an unpriced card between
        ([None, None], None),
        ([Currency.USD, Currency.CNY, Currency.CNY], Currency.CNY),  # the most frequent
        ([Currency.CNY, Currency.USD], Currency.CNY),  # a tie: the first priced one's
        ([None, Currency.USD, Currency.CNY], Currency.USD),
    ],
)
def test_one_currency_a_table_as_before(currencies: list, expected: Currency | None) -> None:
    assert table_currency([_Priced(c) for c in currencies]) == expected  # type: ignore[arg-type]


def test_a_setup_copied_fast_is_equal_and_hashes_alike() -> None:
    setup = TrainingSetup(method=Method.full, seq_len=16384, micro_batch=4)
    for changes in ({"micro_batch": 1}, {"zero_stage": 3, "tp": None, "pp": None}, {"offload": True}):
        fast, slow = fast_replace(setup, **changes), dataclasses.replace(setup, **changes)
        assert fast == slow and hash(fast) == hash(slow) and fast is not setup
