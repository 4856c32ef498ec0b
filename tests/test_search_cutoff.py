"""Issue 23 item 7 (the estimate stage's CPU): the layout search skips ZeRO stages 0–2 of a group whose
stage-2 model states alone exceed the limit (:func:`estimator.search_bounds.low_stages_out_of_reach`:
the states never fall as the stage falls, exactly in floats), with the same answer and fewer states
sized. Through ``sizing-bot ask`` and against a fresh breakdown of every layout it skips."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.memory import SearchMemo, breakdown, breakdown_within
from estimator.model_states import state_parts
from estimator.plan import HEADROOM, _layouts
from estimator.search_bounds import low_stages_out_of_reach
from tests.test_estimate_speed import SETUPS, _ask_counting


@pytest.mark.parametrize(("model", "gpu", "setup"), SETUPS)
def test_skipped_stages_are_above_the_limit_by_their_states(model, gpu, setup) -> None:
    """Wherever the cut applies, stages 0, 1 and 2 of the group each hold more states than the limit, and
    a fresh breakdown of each is above it (the search would have dropped them one by one)."""
    spec, card = catalog.model(model), catalog.gpu(gpu)
    params, memo, cut = spec.params_total, SearchMemo(), 0
    for limit in (card.addressable_bytes, card.addressable_bytes * HEADROOM):
        for gpus in (2, 8, 16, 64):
            for plan in _layouts(spec, card, gpus, setup):
                if plan.dp < 2 or not low_stages_out_of_reach(spec, params, setup, plan, limit, memo):
                    continue
                cut += 1
                for stage in (0, 1, 2):
                    lower = plan._replace(zero_stage=stage)
                    assert sum(state_parts(spec, params, setup, lower).values()) > limit, lower
                    assert breakdown_within(spec, params, setup, lower, limit, SearchMemo()) is None
                    assert sum(breakdown(spec, params, setup, lower).values()) > limit
    if model in ("Llama-2-70B", "Qwen2.5-72B", "DeepSeek-V3"):
        assert cut > 0  # the cut does apply on these


def test_ppo_is_cut_only_without_offload() -> None:
    """PPO's critic subtracts its offloaded optimizer states: the order of the sums is not proven there, so
    an offloaded PPO layout is never cut. Without offload it subtracts 0.0 and every state term only shrinks
    as the stage rises (s38-speed; tests/test_s38_speed.py checks the order over a grid, and
    test_skipped_stages_are_above_the_limit_by_their_states above the cut PPO layouts of SETUPS): cut."""
    setup = next(s for m, g, s in SETUPS if s.algorithm.value == "ppo")
    spec, card = catalog.model("Llama-2-7B"), catalog.gpu("A100-SXM4-80GB")
    plan = next(p for p in _layouts(spec, card, 8, setup) if p.dp > 1 and not p.offload)
    assert low_stages_out_of_reach(spec, spec.params_total, setup, plan, 1.0, SearchMemo())
    offloaded = plan._replace(offload=True)
    assert not low_stages_out_of_reach(spec, spec.params_total, setup, offloaded, 1.0, SearchMemo())


@pytest.mark.parametrize(
    ("question", "states", "figures"),
    [
        (
            "Pretrain Llama-2-70B on 2T tokens with 1024 H100s: how long?",
            37,  # 55 at 46c46d6
            (16, 1024, 55445963105.6, (2, 1, 512, 3, "selective")),
        ),
        (
            "DeepSeek-V3 is 671B total with 37B active and saw 14.8T tokens. How should we size it",
            252,  # 434 at 46c46d6
            (144, 14512, 71828113071.62672, (1, 2, 7256, 3, "selective")),
        ),
    ],
)
def test_a_training_answer_sizes_fewer_states_with_the_same_figures(monkeypatch, question, states, figures):
    answer, counts = _ask_counting(monkeypatch, question)
    mem = answer["report"]["memory"]
    plan = tuple(mem["plan"][k] for k in ("tp", "pp", "dp", "zero_stage", "recompute"))
    assert (mem["min_gpus"], mem["plan_gpus"], mem["per_gpu_bytes"], plan) == figures
    assert counts["states"] <= states and counts["transients"] <= 15, counts
