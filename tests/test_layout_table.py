"""Issue 23 item 7 (part s20-sp-est): the layout search on plain numbers. A dense full-training job's
per-GPU total of a layout is arithmetic on a few floats (:class:`estimator.layout_table.DenseTable`);
the searches size the breakdown only for a layout within reach. Here: the table's total is the same
float as the breakdown's sum (not approximately) for every layout the corpus's answers ask and for a
grid of setups and layouts; its group floor is never above a total of the group; the jobs and layouts
it does not cover have no total; the band of an answer's plan (:func:`estimator.memory_band.per_gpu_band`)
is the table's, float for float; and the searches' answers are those of the breakdown path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from estimator import catalog, estimate
from estimator.layout_table import DenseTable, dense_table
from estimator.layouts import ordered_layouts
from estimator.memory import SearchMemo, breakdown
from estimator.memory_band import per_gpu_band
from estimator.models import Algorithm, Method
from estimator.plan import best_plan_for, min_gpus
from estimator.setup import Layout, TrainingSetup

CORPUS = Path(__file__).parent / "data" / "questions.json"


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[DenseTable, Layout, float | None]]:
    """Every (table, layout, total) the searches ask while the test runs."""
    seen: list[tuple[DenseTable, Layout, float | None]] = []
    total = DenseTable.total

    def spy(self: DenseTable, plan: Layout) -> float | None:
        out = total(self, plan)
        seen.append((self, plan, out))
        return out

    monkeypatch.setattr(DenseTable, "total", spy)
    return seen


def test_every_corpus_layout_s_total_is_the_breakdown_s_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.parse import parse

    seen = _asked(monkeypatch)
    requests = [parse(q["text"]).request for q in json.loads(CORPUS.read_text(encoding="utf-8"))]
    for r in requests:
        if r.params_total or r.tokens:
            estimate(r)
    covered = [(t, p, v) for t, p, v in seen if v is not None]
    assert len({(id(t), p) for t, p, _ in covered}) > 300  # layouts of the corpus's dense searches
    assert any(p.pp > 1 for _, p, _ in covered) and any(p.recompute == "full" for _, p, _ in covered)
    for table, plan, total in covered:
        parts = breakdown(table.spec, table.params, table.setup, plan)
        assert total == sum(parts.values()), plan
        assert list(table.parts(plan).items()) == list(parts.items()), plan  # same floats, same order
        assert table.band(plan, parts) == per_gpu_band(table.spec, table.setup, plan, parts, table.params)
        assert table.floor(plan) <= total
    for _, plan, total in seen:
        if total is None:
            assert plan.ep != 1 or plan.offload or plan.pp > 1, plan


SETUPS = [
    TrainingSetup(seq_len=4096, micro_batch=1),
    TrainingSetup(seq_len=2048, micro_batch=4, recompute="full"),
    TrainingSetup(seq_len=8192, micro_batch=2, recompute="none", master_weights=False),
    TrainingSetup(seq_len=4096, micro_batch=1, optimizer="sgd", chunked_loss=True),
    TrainingSetup(seq_len=1024, micro_batch=8, fp32_loss=False, optimizer="adamw8bit"),
    TrainingSetup(seq_len=4096, micro_batch=1, zero_stage=3, recompute="full", data_parallel_only=False),
    TrainingSetup(seq_len=2048, micro_batch=1, zero_stage=0, adamw_impl="foreach"),  # optim adamw_torch (s24)
    TrainingSetup(seq_len=2048, micro_batch=2, recompute="none", master_weights=False, adamw_impl="fused"),
    TrainingSetup(seq_len=4096, micro_batch=1, recompute="none", megatron_layers=True),  # Korthikanti at TP 1
]


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize(("model", "gpus"), [("Llama-2-7B", 8), ("Llama-2-70B", 64), ("Qwen2.5-72B", 32)])
def test_a_grid_of_layouts_totals_as_the_breakdown(model: str, gpus: int, setup: TrainingSetup) -> None:
    spec = catalog.model(model)
    card = catalog.gpu("H100-SXM5-80GB")
    memo = SearchMemo()
    table = dense_table(spec, spec.params_total, setup, memo)
    assert table is not None
    layouts = ordered_layouts(
        spec.layers, spec.heads, spec.kv_heads, card.gpus_per_node, card.nvlink, gpus, setup.micro_batch,
        setup.offload, setup.zero_stage, setup.recompute, 0, setup.tp, setup.pp, setup.data_parallel_only,
    )  # fmt: skip
    assert layouts
    for plan in layouts:
        total = table.total(plan)
        if plan.offload or spec.layers % plan.pp:
            assert total is None and table.floor(plan) is None
            continue
        parts = breakdown(spec, spec.params_total, setup, plan)
        assert total == sum(parts.values()), plan
        assert list(table.parts(plan).items()) == list(parts.items()), plan
        assert table.band(plan, parts) == per_gpu_band(spec, setup, plan, parts, spec.params_total), plan
        assert table.floor(plan) <= total


@pytest.mark.parametrize(
    "setup",
    [
        TrainingSetup(method=Method.lora),
        TrainingSetup(method=Method.qlora),
        TrainingSetup(method=Method.freeze),
        TrainingSetup(algorithm=Algorithm.dpo),
        TrainingSetup(paged_optimizer=True),
        TrainingSetup(optimizer_in_backward=True),
        TrainingSetup(offloaded_checkpoints=True),  # Unsloth: 2 layers' checkpoints on the GPU (review s20)
    ],
)
def test_a_job_without_the_closed_forms_has_no_table(setup: TrainingSetup) -> None:
    spec = catalog.model("Llama-2-7B")
    assert dense_table(spec, spec.params_total, setup, SearchMemo()) is None


@pytest.mark.parametrize(
    ("model", "card"), [("Llama-2-7B", "A100-SXM4-80GB"), ("Llama-2-70B", "H100-SXM5-80GB")]
)
def test_the_searches_answer_as_the_breakdown_path(model: str, card: str) -> None:
    """With a memo (the table) and without one (every layout's breakdown): the same plans and parts."""
    spec, gpu = catalog.model(model), catalog.gpu(card)
    setup = TrainingSetup(seq_len=4096, micro_batch=1)
    found = min_gpus(spec, spec.params_total, gpu, setup, memo=SearchMemo())
    assert found is not None
    plain = best_plan_for(spec, spec.params_total, gpu, found[0], setup)
    assert plain is not None and (found[1], found[2]) == plain
    for gpus in (found[0], 64, 1024):
        with_table = best_plan_for(spec, spec.params_total, gpu, gpus, setup, memo=SearchMemo())
        assert with_table == best_plan_for(spec, spec.params_total, gpu, gpus, setup)


def test_an_estimate_leaves_no_cycle_to_collect() -> None:
    """The table is kept on the search's memo and holds none of it: a reference cycle there left every
    search's dicts to the cyclic collector (a 40–50 ms gen-2 pass in `latency.py`'s CPU max)."""
    import gc

    from estimator.request import SizingRequest

    r = SizingRequest(stage="pretrain", model="Llama-2-7B", tokens=1e12, gpu="A100-SXM4-80GB", gpu_count=64)
    estimate(r)
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            estimate(r)
        assert gc.collect() == 0
    finally:
        gc.enable()


_MODES = [("selective", "full"), ("full",), ("selective",), ("none", "selective", "full"), ("none",)]


@pytest.mark.parametrize("setup", [*SETUPS, TrainingSetup(seq_len=4096, offload=True)])
@pytest.mark.parametrize("model", ["Llama-2-7B", "Llama-2-70B", "Qwen2.5-72B", "OPT-13B"])
def test_the_table_s_rest_floor_is_the_spans_one(model: str, setup: TrainingSetup) -> None:
    """:meth:`DenseTable.rest` (asked by search_bounds.count_out_of_reach) is rest_floor's float for every
    (TP, PP) whose pipeline the table covers, and None where it does not (uneven PP, offload, no mode)."""
    from estimator.search_bounds import rest_floor

    spec = catalog.model(model)
    table = dense_table(spec, spec.params_total, setup, SearchMemo())
    assert table is not None
    asked = 0
    for tp in (1, 2, 4, 8):
        for pp in (1, 2, 3, 4, 5, 8, 16):
            for modes in _MODES:
                rest = table.rest(tp, pp, modes)
                if spec.layers % pp or setup.offload:
                    assert rest is None
                    continue
                assert rest == rest_floor(spec, setup, modes, (tp, pp), SearchMemo()), (tp, pp, modes)
                asked += 1
            assert table.rest(tp, pp, ()) is None
    assert asked > 0 or setup.offload
