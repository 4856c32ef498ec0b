"""s38-speed (issue 23 item 7): the RL trainer's generation bounds a layout's total before its step's peaks
(estimator.search_bounds.generation_floor): a true lower bound, the layouts it rules out, and the answers
unchanged (the search's count for PPO on a 70B policy with no tool named)."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import pytest

from estimator.catalog import model
from estimator.defaults import CUDA_CONTEXT_BYTES, FRAGMENTATION
from estimator.memory import SearchMemo, breakdown, breakdown_within
from estimator.models import Algorithm, Method
from estimator.search_bounds import ZERO3_BOUND_MARGIN, generation_floor, surely_above
from estimator.setup import Layout, TrainingSetup

QWEN32 = model("Qwen2.5-32B")
PARAMS = 32.76e9
KV_PER_TOKEN = 64 * 2 * 8 * 128 * 2  # layers × (K, V) × KV heads × head dim 5120/40 × 2 bytes = 262,144
GIB = 1024**3


def _setup(sequences: float, method: Method = Method.full, **kw) -> TrainingSetup:
    return TrainingSetup(
        method=method, algorithm=Algorithm.ppo, seq_len=768, generation_sequences=sequences, **kw
    )


def _layout(tp: int, pp: int, dp: int, zero: int, recompute: str = "full") -> Layout:
    return Layout(tp=tp, pp=pp, dp=dp, zero_stage=zero, recompute=recompute, micro_batch=1, offload=False)


def test_the_generation_floor_worked_by_hand():
    # ZeRO-3 on 8 ranks gathers the whole 16-bit model: 2 B × 32.76e9 = 65.52e9, + 8 sequences × 768 tokens ×
    # 262,144 B of KV cache = 1.61e9; floor = held + G + the CUDA context + fragmentation × G
    gen = 2 * PARAMS + 8 * 768 * KV_PER_TOKEN
    want = 1e9 + gen + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * gen
    assert generation_floor(QWEN32, PARAMS, _setup(8), _layout(1, 1, 8, 3), 1e9, None) == pytest.approx(want)
    # TP 2 × PP 2 splits the gathered weights and TP the KV cache: 65.52e9 / 4 + 1.61e9 / 2
    gen = 2 * PARAMS / 4 + 8 * 768 * KV_PER_TOKEN / 2
    want = gen + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * gen
    assert generation_floor(QWEN32, PARAMS, _setup(8), _layout(2, 2, 2, 3), 0.0, None) == pytest.approx(want)


def test_the_memo_keeps_one_generation_a_tp_pp_dp_and_zero3():
    memo = SearchMemo()
    one = generation_floor(QWEN32, PARAMS, _setup(8), _layout(1, 1, 8, 3), 0.0, memo)
    gen = 2 * PARAMS + 8 * 768 * KV_PER_TOKEN
    assert memo.step_floors == {
        ("generation",): pytest.approx(768 * KV_PER_TOKEN),  # one sequence's KV cache, one a search
        ("generation", 1, 1, 8, True): pytest.approx(gen),
    }
    again = generation_floor(QWEN32, PARAMS, _setup(8), _layout(1, 1, 8, 3, "selective"), 0.0, memo)
    assert again == one and len(memo.step_floors) == 2  # the recompute mode does not change the generation
    other = generation_floor(QWEN32, PARAMS, _setup(8), _layout(2, 1, 4, 3), 0.0, memo)
    gen = 2 * PARAMS / 2 + 8 * 768 * KV_PER_TOKEN / 2
    assert other == pytest.approx(gen + CUDA_CONTEXT_BYTES.value + FRAGMENTATION.value * gen)
    assert len(memo.step_floors) == 3


@pytest.mark.parametrize("method", [Method.full, Method.lora])
@pytest.mark.parametrize("sequences", [1, 8, 64])
def test_the_generation_floor_never_exceeds_the_total(method: Method, sequences: int):
    """Every layout of a grid (TP, PP, DP, ZeRO stage, recompute): the floor (with the search's slack) is at
    most the breakdown's total, so a layout it rules out would not have fitted."""
    setup = _setup(sequences, method)
    for tp, pp, dp, zero, mode in itertools.product(
        (1, 2, 8), (1, 2, 4), (1, 2, 8), (0, 1, 2, 3), ("full", "none")
    ):
        plan = _layout(tp, pp, dp, zero, mode)
        parts = breakdown(QWEN32, PARAMS, setup, plan)
        held = sum(v for k, v in parts.items() if k not in _RUNTIME)  # the states and DeepSpeed's buckets
        floor = generation_floor(QWEN32, PARAMS, setup, plan, held, None)
        assert floor * ZERO3_BOUND_MARGIN <= sum(parts.values()), (tp, pp, dp, zero, mode)


_RUNTIME = (
    "activations",
    "logits",
    "layer_workspace",
    "gathered_weights",
    "kv_cache",
    "optimizer_step",
    "overhead",
)


def test_a_layout_whose_generation_cannot_fit_is_ruled_out_before_its_peaks():
    """PPO with LoRA on Qwen2.5-32B at ZeRO-3 over 8 ranks, TP = PP = 1: its frozen base is 65.5 GB / 8
    on a GPU, but generating gathers the whole 65.5 GB policy beside it with 128 sequences' KV cache
    (128 × 768 × 262,144 B = 25.8 GB): out of an 80 GiB card, so surely_above says so and
    breakdown_within skips the layout before its step's peaks."""
    setup, plan, limit = _setup(128, Method.lora), _layout(1, 1, 8, 3), 80 * GIB
    total = sum(breakdown(QWEN32, PARAMS, setup, plan).values())
    assert total > limit
    memo = SearchMemo()
    assert breakdown_within(QWEN32, PARAMS, setup, plan, limit, memo) is None
    assert plan not in memo.peaks  # the step's peaks were never made
    states = sum(v for k, v in breakdown(QWEN32, PARAMS, setup, plan).items() if k not in _RUNTIME)
    assert states < limit  # not the states alone
    # without a generation in the trainer (a vLLM engine) the same layout is not ruled out by it
    assert not surely_above(QWEN32, _setup(0, Method.lora), plan, states - 2**20, limit, SearchMemo(), PARAMS)


def test_q063_sizes_fewer_layouts_with_the_same_answer():
    """q063 ('every memory-saving trick … fewest GPUs … PPO on a 70B policy'): 6,019 first-estimate calls at
    main 89289854 (tests/test_slowest_estimates.py); the generation floor skips the step's peaks of the
    layouts whose generation does not fit (5,227 calls), low_stages_out_of_reach answers for PPO without
    offload (4,679), one sequence's KV cache a search (4,472), surely_above's kept activations read in
    place (4,369); answers byte-identical (bench/answers_dump.py ``same``). Bound: 4,369 + 0.2 %."""
    sys.path.insert(0, str(Path(__file__).parent))
    from tests.test_slowest_estimates import _first_estimate_calls

    corpus = Path(__file__).parent / "data" / "questions.json"
    text = {q["id"]: q["text"] for q in json.loads(corpus.read_text(encoding="utf-8"))}["q063"]
    assert 4000 < _first_estimate_calls(text) < 4_378


@pytest.mark.parametrize("method", [Method.full, Method.lora])
@pytest.mark.parametrize("extra", [{}, {"paged_optimizer": True}, {"optimizer_in_backward": True}])
def test_ppo_without_offload_holds_no_fewer_states_at_lower_zero_stages(method: Method, extra: dict):
    """low_stages_out_of_reach now answers for PPO without offload: its state sums (policy, critic, reward)
    at ZeRO-0 and ZeRO-1 are never below ZeRO-2's, in floats, over a grid of TP, PP and DP."""
    from estimator.model_states import state_parts

    if method == Method.lora and extra:
        return
    setup = _setup(8, method, **extra)
    for tp, pp, dp in itertools.product((1, 2, 8), (1, 2, 4), (1, 2, 4, 8)):
        sums = [sum(state_parts(QWEN32, PARAMS, setup, _layout(tp, pp, dp, z)).values()) for z in (0, 1, 2)]
        assert sums[0] >= sums[1] >= sums[2], (tp, pp, dp, sums)


def test_ppo_low_stages_ruled_out_by_the_stage2_states_unless_offloaded():
    """Full PPO on Qwen2.5-32B, TP = PP = 1, DP = 8: at ZeRO-2 the policy's 16-bit weights (2 B × 32.76e9 =
    65.52 GB, unsharded below ZeRO-3), its reference and reward copies (65.52 GB each), gradients 8.19 and
    optimizer 49.14 GB (÷ 8) and the critic's states 122.85 GB: 376.7 GB, above 80 GiB, so ZeRO-0/1/2 are
    all out of reach, asked once; with the optimizer offloaded PPO is still not asked (False: not known)."""
    from estimator.search_bounds import low_stages_out_of_reach

    plan, limit = _layout(1, 1, 8, 0), 80 * GIB
    assert low_stages_out_of_reach(QWEN32, PARAMS, _setup(8), plan, limit, SearchMemo())
    assert not low_stages_out_of_reach(QWEN32, PARAMS, _setup(8), plan, 1e15, SearchMemo())
    offloaded = Layout(tp=1, pp=1, dp=8, zero_stage=0, recompute="full", micro_batch=1, offload=True)
    assert not low_stages_out_of_reach(
        QWEN32, PARAMS, _setup(8, offload=True), offloaded, limit, SearchMemo()
    )
