"""Issue 23 item 7, the estimate's CPU (part s16-sp-est) without a different answer: what one answer's
searches share. :func:`estimator.plan.best_plan_for` keeps its answer per count in the search's memo (the
fewest GPUs, the user's count and the recommended size often ask the same count);
:func:`estimator.plan.least_memory_plan` skips the groups whose floor is above the best layout so far; the
alternatives' searches (:func:`estimator.plan._alternatives`) share the user's kept activations when
their setup differs in nothing those read (:data:`estimator.plan._KEPT_READS`). Here: each gives what
the plain computation gives."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from estimator import catalog
from estimator.copying import replace
from estimator.memory import SearchMemo, breakdown
from estimator.models import Method
from estimator.plan import (
    _alternatives,
    _kept_shared,
    _layouts,
    best_plan_for,
    least_memory_plan,
    min_gpus,
    search_floor,
)
from estimator.setup import TrainingSetup
from estimator.transients import activation_facts, kept_activations
from tests.test_estimate_speed import SETUPS

VARIANTS = {
    "zero3": {"zero_stage": 3},
    "full_recompute": {"recompute": "full"},
    "searched_layout": {"tp": None, "pp": None},
    "other_stack": {"data_parallel_only": False, "zero_stage": None},
    "micro_batch_1": {"micro_batch": 1},
    "adamw8bit": {"optimizer": "adamw8bit"},
    "cpu_offload": {"offload": True},
    "lora": {"method": Method.lora},
    "qlora": {"method": Method.qlora},
    "seq_len": {"seq_len": 1024},
    "dropout": {"lora_dropout": 0.05},
}


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_variant_sharing_the_kept_activations_keeps_the_same_ones(model, gpu, setup) -> None:
    """Where a variant's search shares the user's kept activations, every layout keeps the same bytes
    under either setup; a variant that changes the method, the length or the dropout gets its own."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    shared = 0
    for change, fields in VARIANTS.items():
        variant = replace(setup, **fields)
        memo = _kept_shared(SearchMemo(), setup, variant)
        if variant.method != setup.method or change in ("seq_len", "dropout"):
            assert memo is None, change
        if memo is None:
            continue
        shared += 1
        assert activation_facts(spec, variant) == activation_facts(spec, setup), change
        for gpus in (1, 8, 64):
            for plan in _layouts(spec, card, gpus, variant):
                assert kept_activations(spec, variant, plan) == kept_activations(spec, setup, plan), (
                    change,
                    plan,
                )
    assert shared >= 6


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_alternatives_with_the_shared_activations_are_those_without(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    memo = SearchMemo()
    found = min_gpus(spec, spec.params_total, card, setup, memo=memo)
    floor = search_floor(found[0] if found else None)
    shared = _alternatives(spec, spec.params_total, card, setup, memo, floor)
    alone = _alternatives(spec, spec.params_total, card, setup, None, floor)
    assert shared == alone
    assert len(shared) >= 1


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_remembered_plan_is_the_plan_and_its_parts_the_caller_s_own(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    memo = SearchMemo()
    for gpus in (1, 2, 8, 16, 64):
        for budget, full in ((1.0, True), (0.9, False)):
            first = best_plan_for(spec, spec.params_total, card, gpus, setup, budget, full, memo)
            plain = best_plan_for(spec, spec.params_total, card, gpus, setup, budget, full)
            assert first == plain
            if first is not None:
                first[1]["weights"] = -1.0  # a caller changing its parts changes nobody else's
            again = best_plan_for(spec, spec.params_total, card, gpus, setup, budget, full, memo)
            assert again == plain


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_least_memory_layout_is_the_least_of_all_layouts(model, gpu, setup) -> None:
    """The first layout (in preference order) of the least total, as sizing every layout finds it."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    for gpus in (1, 2, 8, 64):
        layouts = _layouts(spec, card, gpus, setup)
        if not layouts:
            continue
        totals = [sum(breakdown(spec, spec.params_total, setup, p).values()) for p in layouts]
        i = min(range(len(layouts)), key=lambda j: (totals[j], j))
        got = least_memory_plan(spec, spec.params_total, card, gpus, setup, SearchMemo())
        assert got is not None
        assert got[0] == layouts[i].to_plan()
        assert sum(got[1].values()) == totals[i]


def test_the_shared_search_keeps_a_setup_s_own_method() -> None:
    setup = TrainingSetup(seq_len=4096)
    assert _kept_shared(SearchMemo(), setup, replace(setup, optimizer="adamw8bit")) is not None
    assert _kept_shared(SearchMemo(), setup, replace(setup, method=Method.lora)) is None
    assert _kept_shared(None, setup, setup) is None


def test_a_corpus_estimate_makes_few_python_calls() -> None:
    """Over the corpus, a warm estimate makes ~1,065 Python calls (profile 'call' events; main 69c1324:
    ~1,577; s17-int ~1,302; s20-int ~1,271; s21-int ~1,110; s22-int ~1,070; s23-fixa ~1,096, as every
    LoRA/QLoRA plan on ZeRO-3 now sizes its gathered frozen base, estimator.transients.gathered_weights,
    and serving answers pick the KV type from the model's dtype; s24-fused ~1,106: with the fused AdamW
    step at ZeRO-0 the count floor no longer ends a 70B search at its tight ZeRO-3 layout, the search
    sizes on to TP × PP without ZeRO, 33 layouts where it sized 4, tests/test_count_floor.py; s24-merge
    ~1,113: a scaled-out row of the GPUs ↔ days table carries its own GPU-hours and cost, +50 calls on a
    pre-training table, estimator.training_rate.priced_rows; a catalog model's own context caps the
    default sequence, training_setup._native_context; ZeRO-1 tried where plain DDP is over, fit_change): the
    answers' searches share their plans and activations, the search builds its tuples without NamedTuple
    frames, a dense job's layouts and the fewest-GPUs search's rest floors are sized on plain numbers
    (estimator.layout_table), the report's request is checked in one loop (estimator.report_request),
    and a card's price range is kept per card (estimator.variant_prices). A budget, not a timing: the
    count is the same on every machine."""
    from bot.parse import parse
    from estimator import estimate
    from estimator.architecture import shape_for_size
    from estimator.plan import forget_searches

    corpus = Path(__file__).parent / "data" / "questions.json"
    requests = [parse(q["text"]).request for q in json.loads(corpus.read_text(encoding="utf-8"))]
    requests = [r for r in requests if r.params_total or r.tokens]
    for r in requests:
        estimate(r)  # warm: catalogs, compiled tables
    calls = 0

    def count(frame, event, arg) -> None:
        nonlocal calls
        calls += event == "call"

    for r in requests:  # each a job's first estimate (s33: searches and generic shapes kept across answers)
        forget_searches()
        shape_for_size.cache_clear()
        sys.setprofile(count)
        try:
            estimate(r)
        finally:
            sys.setprofile(None)
    assert len(requests) > 100
    # s25 acts2: 1,116.3 (s25-merge at b9d1a7d6, already at the bound) -> 1,123.4 (+7.1 an answer, the same
    # before the merge: 1,107.7 -> 1,114.8): one-GPU ZeRO-0 full-training layouts are sized past the
    # shortcuts that read states + kept activations (their gradients come late: estimator.late_gradients)
    # s26 est: 1,123.4 -> 1,128.1 (+4.7 an answer): the fit-change search offers fused AdamW and 8-bit AdamW
    # (estimator.fit_change, settings 0 and 4b); gated by what they can save (optimizer_reach), 6 candidates
    # are still sized over this corpus (4 × 8-bit, 2 × fused), none of them a fix here
    # s27 sppipe: 1,083.4 (s27-int 0854ba96, measured here) -> 1,059.8 (-23.6 an answer; DeepSeek-V3's
    # 5,867 -> 4,616): a plain full-training job's states on plain numbers (DenseTable.states) in the group
    # floors and SearchMemo.state_sum, expert parallelism and uneven pipelines included; bound 1,130 -> 1,071
    # s28 spest: 1,063.8 (s28-int a7cdd334, measured here) -> 963.2 (-9.5 %; q116 4,622 -> 3,454, q066
    # 4,449 -> 3,894): DenseTable.total/floor asked only where they cover a layout, group_out_of_reach's
    # test, state_key, stage_share, rows(), embedding_params and is_moe in place in the search's helpers;
    # bound 1,071 -> 973
    # s29 spest: 960.2 (s29-int 0ab84ffc, measured here) -> 922.2 (-4.0 %; q116 3,450 -> 2,935, q013 3,102 ->
    # 2,661, q066 3,890 -> 3,497): group floors share their ZeRO-3 states (SearchMemo.stage3), the memos'
    # first lookups (laid, kept) and group_out_of_reach, zero_buffers, loss_bytes, state_key in place at
    # their hot call sites (tests/test_search_s29_inline.py); bound 973 -> 932
    # s30 spest: 924.9 (s30-int 9d28b415, measured here) -> 823.3 (-11.0 %; q066 3,499 -> 3,108, q116 2,936 ->
    # 2,675, q013 2,662 -> 2,388): a catalog entry's derived widths and counts kept on it (estimator.derived;
    # tests/test_derived_kept.py), built's builders without _made's frame, and the memos' kept table
    # (memo.dense), laid states and activation layers read in place at the call sites; bound 932 -> 832
    # s34 spans: 824.2 (da31aba7, measured here) -> 812.8 (-1.4 %): the alternatives' LoRA and QLoRA rows
    # seeded with the least count of the rows before them (plan_alternatives._ADAPTERS, a guess: a seed
    # that does not fit is searched without, the same answer); bound 832 -> 814.4 (+0.2 %)
    # s34 merge: 814.5 with s34-stack (Unsloth's unsharded plans, FSDP's adapter offload), s34-left (fp32
    # activations, more cards compared) and s34-verdict merged; bound 814.4 -> 816.2; 817.1 with the fix
    # parts (fixc: a full-training job's global batch in its setup, so each batch its own search); -> 818.8
    # s35 sptail: 816.1 (555e62d8, measured here) -> 814.9: one memo a job on every card
    # (search_keep.job_memo), state_parts' reference and reward copies inline; bound 818.8 -> 816.5
    # s35 merge: 817.9 with every part (fixb: a method row's second least-memory search when its
    # least-memory layout fully recomputes; fixd: the alternatives timed on the user's count); -> 819.5
    # s36 sprender: 817.87 (3681b8c0, measured here) -> 812.17: StrEnum values by str() (no enum
    # descriptor frames: the RL k, the price's currency, serving's weight formats); bound -> 813.8
    # s37-speed: 812.81 (23ce7a0e) -> 795.26 (runtimes.memo room by (PP, TP, load), fewer frames);
    # s37 verdict2 +39: the recommended count's band high end and its climb (estimator.rec_high); s37 merge
    # 858.86: + s37-grpo's prefill beside decode for a rate target, TRL's generation for an unstated RL tool
    # s38-speed: 858.86 (89289854) -> 839.86: the RL trainer's generation bounds a layout before its step's
    # peaks (search_bounds.generation_floor), PPO without offload in low_stages_out_of_reach, surely_above
    # reads the memo's kept activations in place; bound -> 841.6
    # s38-verdict #1: 858.86 (89289854) -> 863.96: the recommended count's climb compares like with like
    # (+3.4 an answer: q034, q056, q177 size the doubled count whose ZeRO-3 layout holds the high end, which
    # the climb had skipped when the doubled count's preferred layout recomputed less: '16 GPUs hold the high
    # end' where the reply said up to 8x did not), what lowers a borderline recommendation on its own count
    # (estimator.rec_high.levers, +0.8; only with no count asked); bound 860.6 -> 865.7 (+0.2 %)
    # s38 merge (speed, verdict, fixs, rounds 34): 846.16; bound + 0.2 %
    # s39 merge: 848.20 (fixs's prefill all-reduces, fixz's ZeRO-3 traffic across nodes, and s39-fixt3 /
    # s39-bill, both reverted at the merge after CI preview B: the figure without them is lower);
    # bound + 0.2 %
    # s40-speed: main d3e69e2c 847.35 -> 828.37: pydantic's model_copy in one frame (estimator.copying), the
    # serving memo's workspace by (TP, load) as asked and its KV copies read in place, best_plan_for's _cutoff
    # asked only where it may answer anew (tests/test_s40_speed.py); bound + 0.2 %
    # s41-speed: s41-int 93604637 829.257 -> 827.363: fit_change copies a TrainingSetup without its __init__
    # (estimator.copying.replace; tests/test_s41_speed.py); bound + 0.2 %
    # s41 merge: 831.841 (+2.7: the serving steps of s41-fixserve, fixt2's adapter-DDP check): bound + 0.2 %
    # s42 merge: 835.35 (+3.2: the shown count's recompute time, eager attention's scores term,
    # the long-sequence global batch cap, the lmdeploy release check, verl's rollout share): bound + 0.2 %
    # s43 fixverdict: 845.30 (+~10 an answer): pre-training answers ask with_high_edge_plan too (a layout of
    # the user's count that fits at the band's high end), and where none of the plan's TP × PP does, the
    # count's other splits are sized (fit_change.with_high_edge_plan); bound 837.0 -> 847.0 (+ 0.2 %)
    # s46-speed: main 98ed60dc 846.83 -> 799.69 (-5.6 %): Peaks.forward_backward's one-stage peak and
    # Span.scaled in place, the LoRA widths kept for the last spec and targets (estimator.lora._LAST), each
    # card's search shape and card key kept on the job's SearchMemo (kept_shape); bound + 0.2 %
    # s47-speedest: main 11083ff0 800.425 -> 793.602: a serving runtime's memo kept across the estimate's
    # own serving setups on one card (estimator.search_keep.kept_runtime), its need read through the memo
    # (MemoRuntime.needed_workspace), a candidate group's kept room read in place (sequences_per_replica);
    # bound + 0.2 %
    # s49 merge: 795.292 (clean-clone CI preview A and this box; s49-leftovers alone 795.274: the serving
    # default context capped at the model's window, estimator.defaults.serve_context): bound 795.45
    assert calls / len(requests) < 795.45, calls / len(requests)
