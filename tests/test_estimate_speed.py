"""Issue 23 item 7, the estimate stage's CPU (part S6-spde) without a different answer: the layout search
skips whole groups of layouts by a lower bound (:func:`estimator.search_bounds.group_out_of_reach`), keeps
each group's states and kept activations once per search, tries the least-memory layouts first, stops at
groups no smaller than the best count; a serving question's runtime remembers its workspace
(:class:`estimator.runtimes.memo.MemoRuntime`); the estimator's dataclasses are copied without
``__init__`` (:func:`estimator.copying.replace`). The byte-identical answers over the corpus are
checked by ``bench/compare.py`` (bench/RESULTS.md); here, the properties the shortcuts rely on, and
the work a real question makes through ``sizing-bot ask``."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json

import pytest

import estimator.inference as inference
import estimator.memory as memory
import estimator.runtimes.vllm as vllm
import estimator.search_bounds as search_bounds
from bot.cli import main
from estimator import catalog, model_states
from estimator.copying import replace
from estimator.inference import ServingSetup
from estimator.memory import SearchMemo, breakdown, breakdown_within, group_out_of_reach
from estimator.models import Algorithm, Method, Precision
from estimator.plan import (
    _SHELL_PLAN,
    HEADROOM,
    MAX_GPUS_SEARCHED,
    _layouts,
    forget_searches,
    min_gpus,
    search_floor,
)
from estimator.runtimes import LOCAL, SGLANG, TRANSFORMERS, VLLM, Load, Vllm
from estimator.runtimes.memo import MemoRuntime
from estimator.setup import TrainingSetup
from estimator.training_result import TrainingResult

SETUPS = [
    ("Llama-2-70B", "H100-SXM5-80GB", TrainingSetup(seq_len=4096)),
    ("Llama-2-7B", "A100-SXM4-40GB", TrainingSetup(seq_len=4096, offload=True)),
    ("Qwen2.5-72B", "A100-SXM4-80GB", TrainingSetup(method=Method.lora, seq_len=8192)),
    (
        "Qwen2.5-72B",
        "A100-SXM4-80GB",
        TrainingSetup(method=Method.lora, lora_dropout=0.1, master_weights=True),
    ),
    ("Llama-2-13B", "RTX-4090", TrainingSetup(method=Method.qlora, seq_len=2048)),
    ("Llama-2-13B", "A100-SXM4-40GB", TrainingSetup(method=Method.freeze, seq_len=2048)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(algorithm=Algorithm.ppo, seq_len=2048)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(algorithm=Algorithm.dpo, paged_optimizer=True)),
    ("Llama-2-7B", "A100-SXM4-80GB", TrainingSetup(optimizer_in_backward=True, master_weights=False)),
    ("Mixtral-8x7B", "H100-SXM5-80GB", TrainingSetup(micro_batch=2)),
    ("DeepSeek-V3", "H800-SXM5-80GB", TrainingSetup(seq_len=4096)),
]


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_a_group_out_of_reach_holds_no_layout_within_the_limit(model, gpu, setup) -> None:
    """At a limit equal to a layout's own total (the tightest it still meets), no group bound rules that
    layout out, and no early test of the layout itself does; a bound above some layout's total would
    drop a layout the search must keep."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    memo = SearchMemo()
    checked = out = 0
    for gpus in (1, 2, 8, 16, 64, 512):
        for plan in _layouts(spec, card, gpus, setup):
            full = breakdown(spec, spec.params_total, setup, plan)
            total = sum(full.values())
            assert not group_out_of_reach(spec, spec.params_total, setup, plan, total, memo), plan
            # nor do the early tests of one layout (states, activations, loss, gathered weights, churn)
            assert breakdown_within(spec, spec.params_total, setup, plan, total, memo) == full, plan
            below = total * (1 - 1e-12)  # above the limit: dropped, or sized and found above it
            assert breakdown_within(spec, spec.params_total, setup, plan, below, SearchMemo()) in (None, full)
            out += group_out_of_reach(spec, spec.params_total, setup, plan, card.addressable_bytes, memo)
            checked += 1
    assert checked > 0
    if model in ("Llama-2-70B", "DeepSeek-V3"):  # the bound does rule groups out on these
        assert out > 0


def test_fast_replace_gives_what_dataclasses_replace_gives() -> None:
    result = TrainingResult(params=7e9, days_table=[])
    setup = TrainingSetup(seq_len=4096, zero_stage=2)
    spec, card = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-80GB")
    serving = ServingSetup(spec, 7e9, None, card, Precision.bf16, 4096, 16)
    for obj, changes in (
        (result, {"params": 13e9, "tokens": 1e12}),
        (setup, {"zero_stage": 3, "recompute": "full"}),
        (setup, {"method": Method.lora}),
        (serving, {"concurrency": 32, "group": (2, 1)}),
    ):
        fast, slow = replace(obj, **changes), dataclasses.replace(obj, **changes)
        assert fast == slow and type(fast) is type(slow) and fast is not obj
        assert dataclasses.asdict(fast) == dataclasses.asdict(slow)
        assert list(vars(fast).items()) == list(vars(slow).items())  # the same fields in the same order
    assert hash(replace(setup, zero_stage=3)) == hash(dataclasses.replace(setup, zero_stage=3))
    assert setup.zero_stage == 2  # the original is untouched
    with pytest.raises(TypeError):
        replace(setup, zero=3)


@pytest.mark.parametrize("runtime", [VLLM, Vllm(engine_v0=True), SGLANG, TRANSFORMERS, LOCAL])
def test_a_remembering_runtime_answers_as_its_runtime(runtime) -> None:
    spec, card = catalog.model("Llama-2-70B"), catalog.gpu("H100-SXM5-80GB")
    memo = MemoRuntime(runtime, spec, card)
    other = catalog.model("Llama-2-7B")
    for _ in range(2):  # the second time from the memo
        assert memo.usable_bytes(card) == runtime.usable_bytes(card)
        for tp in (1, 2, 4, 8):
            for load in (Load(), Load(4096, 2048, 1), Load(32768, 1000, 8, Precision.fp8)):
                assert memo.workspace_bytes(spec, card, tp, load) == runtime.workspace_bytes(
                    spec, card, tp, load
                )
                assert memo.workspace_bytes(other, card, tp, load) == runtime.workspace_bytes(
                    other, card, tp, load
                )
    assert (memo.name, memo.splits_layers, memo.kv_block_tokens) == (
        runtime.name,
        runtime.splits_layers,
        runtime.kv_block_tokens,
    )
    for tp in (1, 2, 4, 8, 16):
        for _ in range(2):
            assert memo.kv_replication(spec, tp) == runtime.kv_replication(spec, tp)
            assert memo.kv_replication(other, tp) == runtime.kv_replication(other, tp)
    assert (memo.prefills_batch, memo.recipe) == (runtime.prefills_batch, runtime.recipe)


def _ask_counting(monkeypatch, question: str) -> tuple[dict, dict[str, int]]:
    """``sizing-bot ask --format json`` in process, counting the search's states and transients and
    vLLM's profile formulas evaluated (the answer made once before, so catalogs are loaded)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["ask", "--format", "json", "--", question])
    counts = {"states": 0, "transients": 0, "vllm_profile": 0, "peaks": 0, "held": 0}

    def counting(name: str, fn):
        def wrapped(*args, **kwargs):
            counts[name] += 1
            return fn(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(memory, "state_parts", counting("states", model_states.state_parts))
    monkeypatch.setattr(memory, "_with_transients", counting("transients", memory._with_transients))
    monkeypatch.setattr(vllm, "vllm_profile_bytes", counting("vllm_profile", vllm.vllm_profile_bytes))
    monkeypatch.setattr(memory, "_step_peaks", counting("peaks", memory._step_peaks))
    monkeypatch.setattr(inference, "max_sequences", counting("held", inference.max_sequences))
    # s47-speedest: the serving runtime's workspaces are kept across answers (search_keep.kept_runtime), as
    # the training searches are since s33: dropped, so the counts are the question's first sizing's
    forget_searches()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["ask", "--format", "json", "--", question])
    return json.loads(out.getvalue()), counts


def test_deepseek_v3_pretraining_sizes_fewer_layouts_with_the_same_answer(monkeypatch) -> None:
    """The corpus's slowest answer (~1,150 layouts tried at c1cb89d: 609 states and 57 transients
    computed): the same figures, from 434 states and 29 transients."""
    answer, counts = _ask_counting(
        monkeypatch, "DeepSeek-V3 is 671B total with 37B active and saw 14.8T tokens. How should we size it"
    )
    mem = answer["report"]["memory"]
    assert (mem["min_gpus"], mem["plan_gpus"], mem["total_bytes"]) == (144, 14512, 10736000000000.0)
    assert mem["per_gpu_bytes"] == 71828113071.62672
    min_plan = {k: mem["min_plan"][k] for k in ("tp", "pp", "dp", "ep", "zero_stage", "recompute")}
    assert min_plan == {"tp": 2, "pp": 1, "dp": 72, "ep": 2, "zero_stage": 3, "recompute": "full"}
    assert counts["states"] <= 434 and counts["transients"] <= 29, counts


def test_a_serving_answer_asks_vllm_s_profile_once_per_tp_and_load(monkeypatch) -> None:
    """8 × H20 serving R1 in FP8 at 16K: 80 evaluations of vLLM's profile at c1cb89d, 28 then; 30 since
    s8 fix item 3 (asked for): the count at ≤ 32K is never below the chunked-prefill start-up's at 32,769
    tokens, whose profile is evaluated too (estimator.inference._most_held)."""
    # DP attention said: with no engine named the default is vLLM's plain TP (s25 trial #8)
    answer, counts = _ask_counting(
        monkeypatch, "8卡H20部署满血R1（FP8，DP attention），输入16k长度时最大能撑几个并发？"
    )
    inference = answer["report"]["inference"]
    assert inference["runtime"] == "vLLM" and inference["min_gpus"] >= 1
    assert 0 < counts["vllm_profile"] <= 30, counts


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS[:4] + SETUPS[9:])
def test_a_search_started_at_the_first_search_s_answer_finds_the_same(model, gpu, setup) -> None:
    """The comfortable search and the one without full recompute fit no layout the first search (whole
    card, full recompute allowed) does not: started at its answer, they answer the same — count, plan
    and parts."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    first = min_gpus(spec, spec.params_total, card, setup)
    floor = search_floor(first[0] if first else None)
    for budget, allow in ((HEADROOM, False), (HEADROOM, True), (1.0, False)):
        alone = min_gpus(spec, spec.params_total, card, setup, budget, allow)
        started = min_gpus(spec, spec.params_total, card, setup, budget, allow, SearchMemo(), floor)
        assert started == alone
        if alone is not None and first is not None:
            assert alone[0] >= first[0]
    assert search_floor(None) == MAX_GPUS_SEARCHED + 1


def test_a_serving_answer_asks_vllm_s_profile_once_per_tp_and_context(monkeypatch) -> None:
    """vLLM's profile reads only TP and the context of a load (:meth:`Vllm.workspace_key`): the serving
    bench case (bench/vs_llm_analysis.py) evaluated it 15 times at 5f53ad0 — the same TP and context
    under each weight format the answer compares — and 7 times since (s9 part est)."""
    answer, counts = _ask_counting(
        monkeypatch, "serve Llama-2-7B on 1 A100 80G, 16 concurrent users, 4096 context"
    )
    assert answer["report"]["inference"]["runtime"] == "vLLM"
    assert 0 < counts["vllm_profile"] <= 7, counts


@pytest.mark.parametrize("runtime", [VLLM, Vllm(engine_v0=True), SGLANG, TRANSFORMERS, LOCAL])
def test_loads_with_one_workspace_key_have_one_workspace(runtime) -> None:
    """What :class:`MemoRuntime` relies on: two loads with the same :meth:`workspace_key` (at one TP)
    give the same workspace on every card kind, and vLLM V0's key still tells contexts apart."""
    spec = catalog.model("Llama-2-70B")
    loads = [
        Load(c, p, b, q)
        for c in (None, 2048, 4096, 32769)
        for p in (None, 1000)
        for b in (1, 8)
        for q in (None, Precision.fp16, Precision.fp8, Precision.int4)
    ]
    for card in (catalog.gpu("H100-SXM5-80GB"), catalog.gpu("RTX-4090")):
        for tp in (1, 2, 4, 8):
            seen: dict[tuple, float] = {}
            for load in loads:
                value = runtime.workspace_bytes(spec, card, tp, load)
                assert seen.setdefault(runtime.workspace_key(tp, load), value) == value
    # V1 (the default, s26 trfix #3) profiles one chunk whatever the context: one key; V0 tells them apart
    assert len({VLLM.workspace_key(1, Load(c)) for c in (2048, 4096)}) == 1
    assert len({Vllm(engine_v0=True).workspace_key(1, Load(c)) for c in (2048, 4096)}) == 2


def test_the_memory_total_takes_the_shell_s_states_without_its_transients(monkeypatch) -> None:
    """``Memory.total_bytes`` is the states of one GPU's ZeRO-0 layout (estimator.plan._SHELL_PLAN):
    read from the search's states (s9 part est), its step's transients assembled only when no count
    fits. The 7B bench case assembled 5 layouts' transients at 5f53ad0, 4 since; the total is
    16 bytes × 6.74B parameters."""
    answer, counts = _ask_counting(monkeypatch, "pretrain Llama-2-7B on 1T tokens with 64 A100 80G")
    mem = answer["report"]["memory"]
    assert (mem["min_gpus"], mem["plan_gpus"], mem["total_bytes"]) == (2, 64, 107840000000.0)
    assert mem["per_gpu_bytes"] == 52710084832.64
    assert counts["transients"] <= 4, counts
    spec = catalog.model("Llama-2-7B")
    shell = model_states.state_parts(spec, spec.params_total, TrainingSetup(seq_len=4096), _SHELL_PLAN)
    assert sum(shell.values()) == mem["total_bytes"]  # s25 acts2: the breakdown's gradients are the peak's


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_layouts_with_one_state_key_have_the_same_states(model, gpu, setup) -> None:
    """What the search's states rely on (estimator.search_bounds.state_key, s9 part est): layouts with
    one key have the same state parts to the last bit; for a dense model, unless the optimizer runs in
    the backward pass, TP × PP groups of one count share them."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    seen: dict[tuple, dict[str, float]] = {}
    groups: dict[tuple, set[tuple[int, int]]] = {}
    for gpus in (1, 2, 8, 16, 64, 256):
        for plan in _layouts(spec, card, gpus, setup):
            parts = model_states.state_parts(spec, spec.params_total, setup, plan)
            key = memory.state_key(spec, setup, plan)
            assert seen.setdefault(key, parts) == parts, (plan, key)
            groups.setdefault(key, set()).add((plan.tp, plan.pp))
    shared = any(len(pairs) > 1 for pairs in groups.values())
    if setup.optimizer_in_backward:  # its gradients divide by TP alone
        assert not shared
    elif not spec.is_moe:  # (DeepSeek-V3's 61 layers split evenly over no PP but 1)
        assert shared


def test_a_fine_tune_computes_the_states_of_tp_x_pp_groups_once(monkeypatch) -> None:
    """The 70B fine-tune on A100s (seven searches: the fewest GPUs, four alternatives, without full
    recompute, the comfortable size) computed 93 layouts' states at 5f53ad0, 58 since (s9 part est);
    the same answer."""
    answer, counts = _ask_counting(monkeypatch, "请问llama3 70b做sft需要多少张a100s，full parameter的话")
    mem = answer["report"]["memory"]
    assert (mem["min_gpus"], mem["recommended_gpus"], mem["total_bytes"]) == (16, 24, 1129600000000.0)
    assert counts["states"] <= 58, counts


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_the_optimizer_step_bound_is_a_lower_bound(model, gpu, setup) -> None:
    """estimator.search_bounds.step_out_of_reach (s9 part est) never calls a layout out of reach of its
    own total, nor of any limit the full step bound (step_floor) keeps: it is that bound with the
    forward/backward peak taken as 0, shared by the layouts of one state_key."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    memo = SearchMemo()
    for gpus in (1, 8, 16, 64, 256):
        for plan in _layouts(spec, card, gpus, setup):
            total = sum(breakdown(spec, spec.params_total, setup, plan).values())
            states, _ = memo.state_sum(spec, spec.params_total, setup, plan)
            assert not search_bounds.step_out_of_reach(
                spec, spec.params_total, setup, plan, states, total, memo
            )
            p = memory._step_peaks(spec, spec.params_total, setup, plan, memo)
            full = search_bounds.step_floor(states + p.buffers, p) * search_bounds.ZERO3_BOUND_MARGIN
            assert not search_bounds.step_out_of_reach(
                spec, spec.params_total, setup, plan, states, full, memo
            )


def test_seventy_b_pretraining_skips_the_peaks_of_layouts_out_of_reach_by_their_step(monkeypatch) -> None:
    """The 70B bench case (2T tokens on 1,024 H100s): the fewest GPUs' layout is chosen among 14 TP × PP
    groups at 16 GPUs, whose ZeRO-3 states and optimizer step alone leave no 10 % headroom; 14 step
    peaks computed at 5f53ad0, 8 since (s9 part est), none since s20 (part s20-sp-est: a dense job's
    layouts are sized on plain numbers, estimator.layout_table, and their breakdown and band too); the
    same answer."""
    answer, counts = _ask_counting(monkeypatch, "pretrain Llama-2-70B on 2T tokens with 1024 H100")
    mem = answer["report"]["memory"]
    assert (mem["min_gpus"], mem["plan_gpus"], mem["per_gpu_bytes"]) == (16, 1024, 55445963105.6)
    plan = {k: mem["min_plan"][k] for k in ("tp", "pp", "dp", "zero_stage", "recompute")}
    # s24: the fused AdamW step at ZeRO-0 (−4 B/param likely) lets TP 8 × PP 2 without ZeRO, full recompute,
    # fit within the headroom at 16 (tests/test_count_floor.py); was TP 8 × DP 2 ZeRO-3 selective
    assert plan == {"tp": 8, "pp": 2, "dp": 1, "zero_stage": 0, "recompute": "full"}
    assert counts["peaks"] == 0 and counts["states"] <= 1, counts


def test_a_serving_answer_counts_the_longer_start_up_once(monkeypatch) -> None:
    """8 × H20 serving R1 in FP8 at 16K: every row of the concurrency table is at least what a server
    started for 32,769 tokens holds (estimator.inference._most_held); that count is the same for
    every row, kept once per answer since s9 part est — 26 evaluations of the sequences held at
    5f53ad0, 16 since, 20 since s22 (the fewest-cards clause says what that count holds at the user's
    load: inference.min_gpus_concurrency) — and vLLM's profile, once per TP and context, 22 times (30 at
    5f53ad0)."""
    # DP attention said: with no engine named the default is vLLM's plain TP (s25 trial #8)
    answer, counts = _ask_counting(
        monkeypatch, "8卡H20部署满血R1（FP8，DP attention），输入16k长度时最大能撑几个并发？"
    )
    table = answer["report"]["inference"]["concurrency_table"]
    # s44: vLLM's DP ranks keep every weight but the routed experts whole (estimator.dp_replicated), which 8
    # H20 do not hold: the table is TP 8 × PP 2's (before, [2048, 214] … [131072, 3] on the 8)
    assert table == [[2048, 4181], [4096, 2090], [8192, 1045], [16384, 522], [32768, 261], [131072, 65]]
    assert 0 < counts["held"] <= 20 and 0 < counts["vllm_profile"] <= 22, counts
