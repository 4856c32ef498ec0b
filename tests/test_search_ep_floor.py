"""Issue 23 item 7 (session 27, part s27-sppipe): a group's floor on plain numbers for MoE jobs.

The searches bound each group of layouts (TP, PP, DP, EP, offload, recompute, micro-batch) by its ZeRO-3
states + kept activations + the CUDA context (:meth:`estimator.memory.SearchMemo.group_floor`); a
DeepSeek-V3 training answer asks ~220 of them and ~170 other layouts' states, each through
``state_parts``' dicts. For a plain full-training job (the jobs :func:`estimator.layout_table.dense_table`
covers) the states are now :meth:`estimator.layout_table.DenseTable.states`, expert parallelism and
uneven pipelines included. Here: they are ``state_parts``' floats — not approximately, in its order —
for every floor and every layout's states the corpus's searches ask, and for a grid of MoE and dense
layouts, ZeRO stages and setups; the searches answer as before (tests/test_search_*.py,
tests/test_layout_table.py and every pinned figure hold the rest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from estimator import catalog, estimate
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.layout_table import dense_table
from estimator.memory import SearchMemo
from estimator.model_states import state_parts
from estimator.setup import Layout, TrainingSetup

CORPUS = Path(__file__).parent / "data" / "questions.json"


def _slow_floor(memo: SearchMemo, spec: object, params: float, setup: TrainingSetup, plan: Layout) -> float:
    """The group floor through ``state_parts`` (the path before the table), on a fresh memo."""
    stage3 = Layout(plan.tp, plan.pp, plan.dp, 3, plan.recompute, plan.micro_batch, plan.offload, plan.ep)
    states = sum(state_parts(spec, params, setup, stage3).values())  # type: ignore[arg-type]
    fresh = SearchMemo()
    kept = max(0.0, fresh.kept(spec, setup, stage3).likely - 0.0)  # type: ignore[arg-type]
    return states + kept + CUDA_CONTEXT_BYTES.value


def test_every_corpus_group_floor_is_the_state_parts_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.parse import parse

    asked: list[tuple[SearchMemo, object, float, TrainingSetup, Layout, float]] = []
    floor = SearchMemo.group_floor

    def spy(self: SearchMemo, spec: object, params: float, setup: TrainingSetup, plan: Layout) -> float:
        out = floor(self, spec, params, setup, plan)  # type: ignore[arg-type]
        if self.dense and plan.dp > 1:
            asked.append((self, spec, params, setup, plan, out))
        return out

    summed: list[tuple[object, float, TrainingSetup, object, dict[str, float]]] = []
    state_sum = SearchMemo.state_sum

    def sum_spy(self: SearchMemo, spec: object, params: float, setup: TrainingSetup, plan: object) -> object:
        out = state_sum(self, spec, params, setup, plan)  # type: ignore[arg-type]
        if self.dense:
            summed.append((spec, params, setup, plan, out[1]))
            assert out[0] == sum(out[1].values())
        return out

    monkeypatch.setattr(SearchMemo, "group_floor", spy)
    monkeypatch.setattr(SearchMemo, "state_sum", sum_spy)
    for q in json.loads(CORPUS.read_text(encoding="utf-8")):
        r = parse(q["text"]).request
        if r.params_total or r.tokens:
            estimate(r)
    assert len(asked) > 300
    assert any(p.ep > 1 for *_, p, _ in asked)  # DeepSeek-V3, Qwen3-235B-A22B, Mixtral: expert parallel
    assert any(s.layers % p.pp for _, s, _, _, p, _ in asked)  # type: ignore[attr-defined]  # 61 layers
    for memo, spec, params, setup, plan, out in asked:
        assert out == _slow_floor(memo, spec, params, setup, plan), plan
    assert len(summed) > 300 and any(getattr(p, "ep", 1) > 1 and p.zero_stage < 3 for *_, p, _ in summed)  # type: ignore[attr-defined]
    for spec, params, setup, plan, parts in summed:
        assert list(parts.items()) == list(state_parts(spec, params, setup, plan).items()), plan  # type: ignore[arg-type]


_SETUPS = [
    TrainingSetup(seq_len=4096, micro_batch=1),
    TrainingSetup(seq_len=4096, micro_batch=1, offload=True),
    TrainingSetup(seq_len=2048, micro_batch=2, master_weights=False),
    TrainingSetup(seq_len=4096, micro_batch=1, optimizer="adamw8bit"),
    TrainingSetup(seq_len=1024, micro_batch=1, optimizer="sgd"),
]


@pytest.mark.parametrize("setup", _SETUPS)
@pytest.mark.parametrize("model", ["DeepSeek-V3", "Mixtral-8x7B", "Qwen3-235B-A22B", "Llama-2-70B"])
def test_zero3_states_are_state_parts_sum_on_a_grid(model: str, setup: TrainingSetup) -> None:
    spec = catalog.model(model)
    memo = SearchMemo()
    table = dense_table(spec, spec.params_total, setup, memo)
    assert table is not None
    routed = memo.routed_share(spec)
    assert (routed > 0.9) == (model != "Llama-2-70B")  # DeepSeek-V3 97.4 % routed (expert_parallel)
    asked = 0
    for tp in (1, 2, 4, 8):
        for pp in (1, 2, 3, 4, 5, 8, 16):
            for dp in (1, 2, 8, 64, 96, 256):
                for ep in (1, 2, 8, 64):
                    if dp % ep:
                        continue
                    for zero, offload in ((0, False), (1, False), (2, False), (3, False), (3, True)):
                        plan = Layout(tp, pp, dp, zero, "selective", 1, offload, ep)
                        want = state_parts(spec, spec.params_total, setup, plan)
                        got = table.states(tp, pp, dp, zero, ep, offload, routed)
                        assert dict(zip(("weights", "gradients", "optimizer"), got, strict=True)) == want
                        assert list(want) == ["weights", "gradients", "optimizer"]  # the same order
                        asked += 1
    assert asked == 5 * 476  # every (TP, PP, DP, EP dividing DP) of the grid at ZeRO-0 … 3, offloaded


def test_deepseek_v3_s_stage_one_holds_the_most_layers() -> None:
    """61 layers on PP 16: stage 1 holds ⌈61/16⌉ = 4 layers' share; EP 64 splits the routed experts
    (DeepSeek-V3 §3.2: PP 16 × EP 64). At ZeRO-3 the routed experts' states are over EP × DP / EP = DP
    ranks whatever EP divides DP: the same float at EP 8 and 64; more DP, fewer bytes."""
    spec = catalog.model("DeepSeek-V3")
    setup = TrainingSetup(seq_len=4096, micro_batch=1)
    memo = SearchMemo()
    table = dense_table(spec, spec.params_total, setup, memo)
    assert table is not None and spec.layers == 61
    routed = memo.routed_share(spec)
    at = sum(table.states(1, 16, 128, 3, 64, False, routed))
    per_stage = spec.params_total * 4 / 61
    experts = per_stage * routed
    k = table.k  # AdamW with fp32 master weights: 12 bytes a parameter (ZeRO paper)
    assert k == 12
    assert at == pytest.approx((4 + k) * ((per_stage - experts) / 128 + experts / 64 / 2), rel=1e-12)
    assert sum(table.states(1, 16, 128, 3, 8, False, routed)) == pytest.approx(at, rel=1e-12)
    assert sum(table.states(1, 16, 256, 3, 64, False, routed)) < at
