"""Issue 23 item 7, the estimate stage (part s12-faste): a layout search capped at a count the caller
expects to fit (:func:`estimator.plan.min_gpus`'s ``at_most``; :func:`estimator.plan._alternatives` gives
each variant, and the row without full recompute, the setup's own fewest GPUs). The capped search must
answer exactly as the search without the cap — count, layout and breakdown — whether the count fits (then
nothing at or above it is tried), does not fit (the search runs again without it), is not a candidate
count, or is below the floor."""

from __future__ import annotations

import pytest

import estimator.plan as plan_module
from estimator import catalog
from estimator.memory import SearchMemo
from estimator.models import Algorithm, Method
from estimator.plan import HEADROOM, MAX_GPUS_SEARCHED, _alternatives, min_gpus, search_floor
from estimator.setup import TrainingSetup

SETUPS = [
    ("Llama-2-70B", "H100-SXM5-80GB", TrainingSetup(seq_len=4096)),
    ("Llama-2-7B", "A100-SXM4-40GB", TrainingSetup(seq_len=4096, offload=True)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(seq_len=2048, recompute="full")),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(seq_len=2048, zero_stage=2, recompute="selective")),
    ("Llama-2-13B", "A100-SXM4-40GB", TrainingSetup(seq_len=4096, micro_batch=4, tp=2)),
    ("Qwen2.5-72B", "A100-SXM4-80GB", TrainingSetup(method=Method.lora, seq_len=8192)),
    ("Llama-2-13B", "RTX-4090", TrainingSetup(method=Method.qlora, seq_len=2048)),
    ("Llama-2-13B", "A100-SXM4-40GB", TrainingSetup(method=Method.freeze, seq_len=2048)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(algorithm=Algorithm.ppo, seq_len=2048)),
    ("Llama-2-7B", "RTX-4090", TrainingSetup(seq_len=2048, data_parallel_only=True, zero_stage=1)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(algorithm=Algorithm.dpo, paged_optimizer=True)),
    ("Mixtral-8x7B", "H100-SXM5-80GB", TrainingSetup(micro_batch=2)),
    ("DeepSeek-V3", "H800-SXM5-80GB", TrainingSetup(seq_len=4096)),
    ("DeepSeek-V3", "H800-SXM5-80GB", TrainingSetup(method=Method.lora, seq_len=4096)),
]


def _variants(setup: TrainingSetup) -> list[TrainingSetup]:
    """The setups :func:`_alternatives` searches, and a few more."""
    from dataclasses import replace

    out = [
        setup,
        replace(setup, zero_stage=3),
        replace(setup, recompute="full"),
        replace(setup, tp=None, pp=None),
        replace(setup, micro_batch=1),
        replace(setup, data_parallel_only=False, zero_stage=None),
    ]
    if setup.method == Method.full:
        out += [
            replace(setup, optimizer="adamw8bit"),
            replace(setup, offload=True),
            replace(setup, method=Method.lora),
            replace(setup, method=Method.qlora),
        ]
    elif setup.method == Method.lora:
        out.append(replace(setup, method=Method.qlora))
    return out


def _counts(found: int | None) -> list[int | None]:
    """Caps to try around a search's answer: at it, candidate counts below and above it (some do not
    fit), non-candidate counts, none, beyond the search."""
    counts: list[int | None] = [None, 1, 2, 3, 4, 8, 12, 16, 24, 64, 100, 1024, MAX_GPUS_SEARCHED + 1]
    if found is not None:
        counts += [found, max(1, found // 2), found + 8, found * 2, found - 1]
    return counts


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_capped_search_answers_as_the_search_without_the_cap(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, capped = spec.params_total, 0
    for variant in _variants(setup):
        for fraction, full_ok in ((1.0, True), (1.0, False), (HEADROOM, False)):
            plain = min_gpus(spec, params, card, variant, fraction, full_ok)
            for cap in _counts(plain[0] if plain else None):
                got = min_gpus(spec, params, card, variant, fraction, full_ok, SearchMemo(), at_most=cap)
                assert got == plain, (variant, fraction, full_ok, cap)
                capped += cap is not None
    assert capped > 100


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_alternatives_are_those_of_the_uncapped_searches(model, gpu, setup, monkeypatch) -> None:
    """:func:`_alternatives` with each variant capped at the setup's own fewest GPUs gives the rows the
    former code gave (every variant searched without a cap)."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params = spec.params_total
    found = min_gpus(spec, params, card, setup)
    floor = search_floor(found[0] if found else None)
    capped = _alternatives(spec, params, card, setup, SearchMemo(), floor)
    searched: list[int | None] = []
    real = plan_module.min_gpus

    def uncapped(*args, at_most=None, **kwargs):
        searched.append(at_most)
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_module, "min_gpus", uncapped)
    assert _alternatives(spec, params, card, setup, SearchMemo(), floor) == capped
    # the setup's own answer (beyond the search when None), or none; s34-spans: the LoRA/QLoRA rows are
    # seeded with the least count of the rows before them (estimator.plan_alternatives), a guess searched
    # again without it when it does not fit: the rows above are the same either way
    assert set(searched) <= {None, floor} | {getattr(row, "min_gpus", None) for row in capped}
    if found is not None and setup.method == Method.full:
        assert found[0] in searched
