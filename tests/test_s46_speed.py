"""Session 46 (s46-speed, issue 23 item 7): the estimate's repeated frames cut with the same floats.

- :meth:`estimator.transients.Peaks.forward_backward` computes a one-stage peak in place of three
  ``_stages`` calls, a comprehension and ``Span.__add__`` (the same additions in the same order);
- ``Span.scaled`` is written out where the kept activations, the loss and the optimizer step scale a span;
- :func:`estimator.lora.lora_params` keeps the adapted widths of the last spec and targets
  (:data:`estimator.lora._LAST`);
- a job's :class:`estimator.memory.SearchMemo` keeps each card's search shape and card key
  (:meth:`~estimator.memory.SearchMemo.kept_shape`), read by ``min_gpus`` and ``best_plan_for``.

Every answer is byte-identical (bench/answers_dump.py ``all`` at main 98ed60dc and this branch: 1,601 texts
× json/text/html/markdown, 0 differ); the call counts are pinned in tests/test_search_sharing.py (a job's
first estimate) and tests/test_s33_spre.py (asked again)."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator import lora as lora_module
from estimator.lora import _lora_params, lora_params
from estimator.memory import KEPT_SHAPES, SearchMemo
from estimator.models import Method
from estimator.plan import best_plan_for, min_gpus
from estimator.search_groups import card_key, search_shape
from estimator.setup import TrainingSetup
from estimator.transients import Peaks, Span, _span


def _reference(p: Peaks) -> Span:
    """forward_backward as main 98ed60dc wrote it (estimator/transients.py before s46)."""
    peak, gen = _span([max(p._stages(end)) for end in range(3)]) + p.gathered, sum(p.generation)
    return peak if peak.low >= gen else Span(*(max(x, gen) for x in peak))


@pytest.mark.parametrize("pp", [1, 4])
@pytest.mark.parametrize("generation", [(0.0, 0.0), (3.0e9, 2.5e9)])
def test_the_forward_backward_peak_is_the_same_float(pp: int, generation: tuple[float, float]) -> None:
    """Inexact binary fractions (0.1 GiB steps, a third) so that a change of order would show."""
    gib = 2**30
    p = Peaks(
        buffers=0.3 * gib,
        activations=Span(1.1 * gib, 1.7 * gib, 2.3 * gib),
        loss=Span(0.7 * gib, 1.9 * gib / 3, 2.9 * gib),
        workspace=Span(0.9 * gib, 0.1 * gib, 3.1 * gib),
        gathered=Span(0.2 * gib, 0.4 * gib, 0.6 * gib),
        step=Span(0.5 * gib, 0.8 * gib, 0.8 * gib),
        pp=pp,
        generation=generation,
    )
    assert p.forward_backward() == _reference(p)
    fb = p.forward_backward()
    if pp == 1 and generation == (0.0, 0.0):  # acts + max(loss, workspace) + gathered at each end
        assert fb.likely == 1.7 * gib + 1.9 * gib / 3 + 0.4 * gib
        assert fb.high == 2.3 * gib + 3.1 * gib + 0.6 * gib


def test_the_search_peaks_of_a_lora_job_are_those_of_the_reference() -> None:
    """Llama-2-7B LoRA on one A100 80GB: the layouts the search sized keep their peaks on the memo; each
    one-stage peak is the reference's float."""
    spec, gpu = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-80GB")
    setup, memo = TrainingSetup(method=Method.lora, seq_len=4096, micro_batch=4), SearchMemo()
    found = min_gpus(spec, spec.params_total, gpu, setup, memo=memo)
    assert found is not None and found[0] == 1
    assert memo.peaks
    for peaks in memo.peaks.values():
        assert peaks.forward_backward() == _reference(peaks)


def test_lora_params_keep_the_last_widths_with_the_same_integers() -> None:
    """Hu et al. 2021 §4: r·(d_in + d_out) per adapted matrix. Llama-2-7B (hidden 4096, MLP 11008, 32
    layers), rank 16, all linear: 16 × 32 × (4 × 8192 + 3 × (4096 + 11008)) = 39,976,960
    (tests/test_memory.py); q and v only: 16 × 32 × 2 × 8192 = 8,388,608; another spec between them is
    not answered from the kept one."""
    llama, mistral = catalog.model("Llama-2-7B"), catalog.model("Mistral-7B")
    assert lora_params(llama, 16) == 39_976_960
    assert lora_module._LAST[0] is llama and lora_module._LAST[2] == 39_976_960 // 16
    assert lora_params(llama, 8) == 39_976_960 // 2  # the kept widths, another rank
    assert lora_params(llama, 16, ["q_proj", "v_proj"]) == 8_388_608
    assert lora_params(mistral, 16) == _lora_params(mistral, 16, None) != 39_976_960
    assert lora_params(llama, 16, ("q_proj", "v_proj")) == 8_388_608  # a tuple and a list are one key
    assert lora_params(llama, 16, None) == 39_976_960


def test_a_memo_keeps_each_cards_search_shape_and_key() -> None:
    """min_gpus files (card, search_shape, card_key) once per card object; a copy with another memory is a
    card of its own (its key differs: another memory, s35 fixe #7); past KEPT_SHAPES cards the memo starts
    anew, so a kept job's memo stays bounded."""
    spec, a100 = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-80GB")
    setup, memo = TrainingSetup(method=Method.lora, seq_len=2048), SearchMemo()
    min_gpus(spec, spec.params_total, a100, setup, memo=memo)
    assert memo.shapes[id(a100)] == (a100, search_shape(spec, a100, setup), card_key(a100))
    small = a100.model_copy(update={"memory_gib": 40})
    assert min_gpus(spec, spec.params_total, small, setup, memo=memo) is not None
    assert memo.shapes[id(small)][2] == card_key(small) != card_key(a100)
    fit = best_plan_for(spec, spec.params_total, small, 1, setup, memo=memo)
    alone = best_plan_for(spec, spec.params_total, small, 1, setup)
    assert fit is not None and alone is not None and fit[0] == alone[0] and fit[1] == alone[1]
    copies = [a100.model_copy(update={"memory_gib": 80 - i}) for i in range(KEPT_SHAPES)]
    for card in copies:
        memo.kept_shape(spec, card, setup)
    assert len(memo.shapes) <= KEPT_SHAPES and memo.shapes[id(copies[-1])][0] is copies[-1]
