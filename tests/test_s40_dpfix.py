"""s40-dpfix: the budget solver ('$5000, biggest model we can LoRA finetune on H100 for 1B tokens') sizes
the model at the plan's own time. With no tool named a LoRA is laid out DP-only (ZeRO-3; s39-dponly),
which on H100 recomputes the activations at every count: the time is × (k + 2)/k = 1.5 at k = 4
(estimator.training_plan.RECOMPUTE_EXTRA_FLOPS; Korthikanti et al. 2022 §5). The solver folds that in:
N = budget ÷ price × 3600 × peak × MFU ÷ (k × f × D), so the GPU-hours of the size offered are the ones
the budget buys at the middle price. A size that needs no recomputation keeps f = 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json

H100_PEAK = 989.4e12  # H100 SXM dense BF16 FLOP/s (NVIDIA H100 datasheet), estimator/data/gpus.toml
MIDDLE_PRICE = 2.5  # US$ per H100-hour: the middle of the catalog's $1.50–3.50 (estimator/data/prices.toml)
MFU_H100 = 0.28  # the likely calibrated MFU on H100 (estimator assumption 'mfu_h100')


def _assumed(d: dict[str, Any]) -> dict[str, Any]:
    return {a["field"]: a["value"] for a in d["assumptions"]}


@pytest.mark.parametrize(
    "text",
    [
        "$5000, biggest model we can LoRA finetune on H100 for 1B tokens",
        "预算5000美元，用H100做LoRA微调1B token，最大能训多大的模型",
    ],
)
def test_the_budget_size_pays_full_recompute(text: str) -> None:
    d = answer_json(text)
    r, rep = d["request"], d["report"]
    assert d["answered"] == "sized" and r["method"] == "lora" and r["largest_asked"] is True
    assert _assumed(d)["recompute_time"] == 1.5  # (4 + 2) / 4
    hours = 5000 / MIDDLE_PRICE  # 2,000 H100-hours
    # 2000 × 3600 × 989.4e12 × 0.28 ÷ (4 × 1.5 × 1e9) = 332.4384e9 (before: ÷ 4e9 = 498.7e9)
    assert r["params_total"] == pytest.approx(332.4384e9, rel=1e-6)
    assert r["mfu"] == pytest.approx(MFU_H100 / 1.5, rel=1e-9)
    assert rep["gpu_hours"]["likely"] == pytest.approx(hours, rel=1e-9)  # $5,000 at the middle price


def test_a_size_that_needs_no_recompute_keeps_the_calibrated_rate() -> None:
    d = answer_json("$50, biggest model we can LoRA finetune on H100 for 1B tokens")
    r = d["request"]
    assert "recompute_time" not in _assumed(d)
    # 20 × 3600 × 989.4e12 × 0.28 ÷ (4 × 1e9) = 4.9866e9
    assert r["params_total"] == pytest.approx(4.986576e9, rel=1e-6)
    assert r["mfu"] == pytest.approx(MFU_H100)
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(20.0)


def test_a_full_finetune_budget_is_unchanged() -> None:
    d = answer_json("$5000, biggest model we can full finetune on H100 for 1B tokens")
    # k = 6, no recompute at every count (the fewest count pays it only): 2000 × 3600 × 989.4e12 × 0.28 ÷ 6e9
    assert d["request"]["params_total"] == pytest.approx(332.4384e9, rel=1e-6)
    assert d["request"]["mfu"] == pytest.approx(MFU_H100)
