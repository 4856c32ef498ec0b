"""The layout search's speed without changing an answer (issue 23 items 4, 5): a layout whose model
states alone exceed the card is dropped before its step transients are computed
(:func:`estimator.memory.breakdown_within`), the states of a (TP, PP, DP, ZeRO, offload, EP) point are
computed once per search and the per-setup values once (:class:`estimator.memory.SearchMemo`), in place
of the id()-keyed memo dicts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import estimator.memory as memory
from bot.cli import main
from estimator import catalog, model_states
from estimator.memory import SearchMemo, breakdown, breakdown_within
from estimator.models import Method
from estimator.plan import _layouts, min_gpus
from estimator.setup import TrainingSetup

ESTIMATOR = Path(__file__).resolve().parents[1] / "estimator"
DEEPSEEK_QUESTION = "DeepSeek-V3 says 180K H800 GPU-hours per trillion tokens. What MFU does that imply?"


def test_a_deepseek_v3_answer_computes_the_step_transients_of_few_layouts(capsys, monkeypatch) -> None:
    """Before: 1,261 full memory evaluations (states and transients) for this answer."""
    calls = {"states": 0, "transients": 0}
    state_parts, with_transients = model_states.state_parts, memory._with_transients

    def counted_states(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["states"] += 1
        return state_parts(*args, **kwargs)

    def counted_transients(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls["transients"] += 1
        return with_transients(*args, **kwargs)

    monkeypatch.setattr(memory, "state_parts", counted_states)
    monkeypatch.setattr(memory, "_with_transients", counted_transients)
    assert main(["ask", "--format", "json", DEEPSEEK_QUESTION]) == 0
    data = json.loads(capsys.readouterr().out)
    mem = data["report"]["memory"]
    assert mem["min_gpus"] is not None and mem["plan"]["ep"] > 1  # expert parallelism was searched
    assert calls["transients"] <= 300 and calls["states"] <= 800, calls


@pytest.mark.parametrize(
    ("model", "gpu", "setup"),
    [
        ("DeepSeek-V3", "H800-SXM5-80GB", TrainingSetup(seq_len=4096)),
        ("Llama-3.1-70B", "A100-SXM4-80GB", TrainingSetup(method=Method.qlora, seq_len=16384)),
        ("Mixtral-8x7B", "H100-SXM5-80GB", TrainingSetup()),
    ],
)
def test_breakdown_within_is_breakdown_or_certainly_above_the_limit(model, gpu, setup) -> None:
    spec, card = catalog.model(model), catalog.gpu(gpu)
    limit = card.addressable_bytes
    memo = SearchMemo()
    seen = dropped = 0
    for gpus in (8, 64, 256):
        for plan in _layouts(spec, card, gpus, setup):
            full = breakdown(spec, spec.params_total, setup, plan)
            within = breakdown_within(spec, spec.params_total, setup, plan, limit, memo)
            seen += 1
            if within is None:
                dropped += 1
                assert sum(full.values()) > limit
            else:
                assert within == full  # the same parts, in the same order, to the last bit
    assert seen > dropped > 0 or model != "DeepSeek-V3"


def test_min_gpus_is_the_same_with_a_shared_memo() -> None:
    spec, card = catalog.model("Mixtral-8x7B"), catalog.gpu("H100-SXM5-80GB")
    setup = TrainingSetup()
    memo = SearchMemo()
    alone = min_gpus(spec, spec.params_total, card, setup)
    shared = min_gpus(spec, spec.params_total, card, setup, memo=memo)
    again = min_gpus(spec, spec.params_total, card, setup, 0.9, memo=memo)
    assert alone == shared and memo.states
    assert again == min_gpus(spec, spec.params_total, card, setup, 0.9)


def test_no_id_keyed_memo_and_no_dead_transient_helpers() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in ESTIMATOR.rglob("*.py"))
    assert not re.search(r"\bid\(spec\)", source)
    assert "def larger(" not in source and "def adapter_input_elements(" not in source
    assert "memo_by_spec" not in source
