"""Session 35, s35-sptail (issue 23 item 7, the p99): the tail of the corpus's end-to-end time was the
'cheapest' training answer (q057: one LoRA job sized on six priced cards, s34-left #2). Pure caching, the
same answer: one job's searches on several cards share the memo's card-free parts
(:func:`estimator.search_keep.job_memo`), the priced cards' list is read once per catalog
(:func:`bot.core.priced_cards._price_cards`). Here: each gives what the plain computation gives."""

from __future__ import annotations

import pytest

import estimator.search_keep as search_keep
from bot.core import priced_cards
from estimator import catalog
from estimator.plan import forget_searches, training_memory
from estimator.setup import TrainingSetup
from tests.test_estimate_speed import SETUPS

CARDS = ("RTX-4090", "V100-SXM2-32GB", "L40S", "A100-SXM4-40GB", "A100-SXM4-80GB", "H200-SXM-141GB")
"""The cards 'the cheapest way to LoRA an 8B' compares (q057), of six memory sizes."""


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_job_sized_on_several_cards_is_sized_as_on_each_alone(model, gpu, setup) -> None:
    """Every card after the first finds the job's memo (its states, breakdowns, peaks, floors and kept
    activations) and gives the Memory a search of its own gives, at no count and at the user's count."""
    spec = catalog.model(model)
    cards = [catalog.gpu(g) for g in (gpu, *CARDS)]
    forget_searches()
    n = spec.params_total
    shared = [(training_memory(spec, n, c, setup), training_memory(spec, n, c, setup, 8)) for c in cards]
    for card, got in zip(cards, shared, strict=True):
        forget_searches()  # a first search of this job: nothing kept from another card
        alone = training_memory(spec, spec.params_total, card, setup)
        forget_searches()
        assert got == (alone, training_memory(spec, spec.params_total, card, setup, 8)), card.id
    forget_searches()


def test_one_job_has_one_memo_on_every_card() -> None:
    spec = catalog.model("Llama-2-7B")
    setup = TrainingSetup(seq_len=2048)
    forget_searches()
    first = search_keep.job_memo(spec, spec.params_total, setup)
    assert search_keep.job_memo(spec, spec.params_total, setup) is first
    assert (
        search_keep.job_memo(spec, spec.params_total, TrainingSetup(seq_len=4096)) is not first
    )  # another job
    assert search_keep.job_memo(catalog.model("Llama-2-13B"), spec.params_total, setup) is not first
    forget_searches()
    assert search_keep.job_memo(spec, spec.params_total, setup) is not first
    forget_searches()


def test_a_card_s_answers_are_filed_under_what_the_search_reads_of_the_card() -> None:
    """The memo's card-dependent answers (the plans by count, the fewest GPUs, the unfit groups) are keyed
    by the card (card_key) or its limit and search shape: two cards of one job never read each other's."""
    spec = catalog.model("Llama-2-7B")
    setup = TrainingSetup(seq_len=2048)
    forget_searches()
    for gpu in ("RTX-4090", "A100-SXM4-80GB"):
        training_memory(spec, spec.params_total, catalog.gpu(gpu), setup, 4)
    memo = search_keep.job_memo(spec, spec.params_total, setup)
    assert {key[-1][0] for key in memo.plans} == {"RTX-4090", "A100-SXM4-80GB"}
    assert {key[-1][0] for key in memo.fewest} == {"RTX-4090", "A100-SXM4-80GB"}
    limits = {catalog.gpu(g).addressable_bytes for g in ("RTX-4090", "A100-SXM4-80GB")}
    assert {key[0] for key in memo.unfit} == {lim * f for lim in limits for f in (1.0, 0.9)}  # budgets
    assert {key[2][4] for key in memo.unfit} == {False, True}  # the shape's NVLink: RTX 4090, A100
    forget_searches()


def test_no_job_memo_is_kept_when_no_job_is(monkeypatch) -> None:
    """KEPT_JOBS 0 (tests/test_turn_memory.py): a new memo every time, nothing kept."""
    monkeypatch.setattr(search_keep, "KEPT_JOBS", 0)
    spec = catalog.model("Llama-2-7B")
    setup = TrainingSetup(seq_len=2048)
    forget_searches()
    first = search_keep.job_memo(spec, spec.params_total, setup)
    assert search_keep.job_memo(spec, spec.params_total, setup).states is not first.states
    assert not search_keep._JOBS


def test_the_job_memos_are_bounded(monkeypatch) -> None:
    monkeypatch.setattr(search_keep, "KEPT_JOBS", 2)
    spec = catalog.model("Llama-2-7B")
    forget_searches()
    for seq in (512, 1024, 2048, 4096):
        search_keep.job_memo(spec, spec.params_total, TrainingSetup(seq_len=seq))
    assert len(search_keep._JOBS) == 2
    forget_searches()


def _plain_price_cards() -> list:
    """prices.toml's cards as s34 listed them: each entry's first card, else its family's usual one, once."""
    cards: list = []
    for entry in catalog.price_entries():
        family = catalog.default_gpu_for_family(entry.family)
        spec = catalog.gpus().get(entry.gpus[0]) if entry.gpus else family
        if spec is not None and spec not in cards:
            cards.append(spec)
    return cards


def test_the_priced_cards_are_read_once_per_catalog() -> None:
    got = priced_cards._price_cards()
    assert list(got) == _plain_price_cards()
    assert len({c.id for c in got}) == len(got) > 5
    assert priced_cards._price_cards() is got  # the same catalog objects: the same list


def test_the_cheapest_card_lists_are_those_of_s34() -> None:
    """tests/test_s27_left.py's figures, through the kept list."""
    from estimator.money_kinds import Currency

    cny = priced_cards.priced_cards("A100-SXM4-80GB", Currency.CNY, 5, 29.4e9)
    assert cny[:3] == ["V100-SXM2-32GB", "A10", "L40S"]
    usd = priced_cards.priced_cards("A100-SXM4-80GB", Currency.USD, 5)
    assert priced_cards.unpriced_cards(["A100-SXM4-80GB", *usd], Currency.USD) == ["H20-96GB"]


def test_a_card_s_short_name_counts_its_family_s_cards() -> None:
    from bot.render.unpriced_cards import card_name

    assert card_name("A100-SXM4-40GB") == "A100 40G"  # two A100 cards in the catalog
    assert card_name("H200-SXM-141GB") == "H200 141G"
    assert card_name("L40S") == "L40S"
