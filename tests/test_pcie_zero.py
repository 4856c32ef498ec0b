"""Trial s12 C4: on PCIe cards (no NVLink) a stated micro-batch that needs TP across PCIe gets the ZeRO
layout with a smaller micro-batch named beside it.

The preference order itself is deliberate (docs/design.md §3.5, :func:`estimator.layouts.plan_preference`:
without NVLink, ZeRO and recompute come before TP); TP 8 appeared only because the user's micro-batch
8 does not fit a layout without it. The user's micro-batch stays the one sized (design §8); the
alternative is the largest smaller micro-batch at which TP 1 × PP 1 fits the same GPUs, its memory
within the card (Megatron-LM keeps TP inside an NVLink server: Narayanan et al. 2021 §3). Through
``sizing-bot ask`` in both languages and :func:`estimator.pcie_layout.with_pcie_zero`; the sentences
are written for these tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main
from estimator import catalog
from estimator.models import Memory, Plan
from estimator.pcie_layout import with_pcie_zero
from estimator.setup import TrainingSetup

GIB = 2**30


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


CASES = [
    (
        "DPO of Mistral-7B on 8x Tesla V100S 32GB: 20k preference pairs of 1,500 tokens, 2 epochs, "
        "selective activation recompute, per-device batch 8. How long?",
        ("V100S", 8, 4, 26.9),
        "without TP over PCIe, ZeRO-3 with micro-batch 4 and full recompute (one more forward pass) fits at "
        "≈ 26.9 GiB per GPU",
    ),
    (
        "在 8 张 Tesla V100S 32G 上对 Mistral-7B 做 DPO，2 万对偏好数据每条 1500 token，2 个 epoch，"
        "开选择性重计算，每卡 batch 8，要多久？",
        ("V100S", 8, 4, 26.9),
        "不走 PCIe 上的张量并行的做法：ZeRO-3、微批次 4 并开全量重计算（多一次前向），每卡约 26.9 GiB 放得下",
    ),
    (
        "在 8 张 L40S 上全参微调 Qwen2.5-7B，每卡 batch 4，序列 4096，2 亿 token，选择性重计算",
        ("L40S", 4, 1, 39.7),
        "不走 PCIe 上的张量并行的做法：ZeRO-3、微批次 1，每卡约 39.7 GiB 放得下",
    ),
]


@pytest.mark.parametrize(("text", "expected", "line"), CASES)
def test_zero_named_beside_tp_over_pcie(
    capsys: pytest.CaptureFixture[str], text: str, expected: tuple[str, int, int, float], line: str
) -> None:
    gpu, tp, micro, gib = expected
    data = ask(capsys, text)
    m = data["report"]["memory"]
    assert data["report"]["hardware"]["nvlink"] is False
    assert gpu in data["report"]["hardware"]["name"]
    assert m["plan"]["tp"] == tp and m["plan"]["micro_batch"] == data["request"]["batch_size"]  # theirs
    zero = m["pcie_zero_plan"]
    assert (zero["tp"], zero["pp"], zero["dp"], zero["zero_stage"], zero["micro_batch"]) == (
        1,
        1,
        8,
        3,
        micro,
    )
    assert m["pcie_zero_per_gpu_bytes"] / GIB == pytest.approx(gib, abs=0.05)
    assert m["pcie_zero_per_gpu_bytes"] <= m["usable_bytes"]  # it fits the card
    assert line in data["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune Qwen2.5-7B on 8x A100, per-device batch 16, seq len 4096, 200M tokens",
        "在 8 张 A100 上全参微调 Qwen2.5-7B，每卡 batch 16，序列 4096，2 亿 token",
    ],
)
def test_no_alternative_with_nvlink(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """With NVLink, TP inside the node is the design's choice: nothing named beside it."""
    data = ask(capsys, text)
    assert data["report"]["hardware"]["nvlink"] is True
    assert data["report"]["memory"]["pcie_zero_plan"] is None
    assert "without TP over PCIe" not in data["reply"] and "不走 PCIe" not in data["reply"]


def test_nothing_when_the_plan_has_no_tp() -> None:
    """A layout without TP (or a micro-batch of one) has no alternative to name."""
    gpu = catalog.gpu("L40S")
    assert not gpu.nvlink
    spec = catalog.model("Qwen2.5-7B")
    mem = Memory(
        per_gpu_bytes=30 * GIB, gpu_memory_bytes=48 * GIB, usable_bytes=45 * GIB, min_gpus=8, breakdown={},
        total_bytes=0.0, plan=Plan(tp=1, dp=8, zero_stage=3, micro_batch=4), plan_gpus=8,
    )  # fmt: skip
    assert with_pcie_zero(spec, 7.6e9, gpu, TrainingSetup(micro_batch=4), mem) is mem
    one = mem.model_copy(update={"plan": Plan(tp=8, micro_batch=1)})
    assert with_pcie_zero(spec, 7.6e9, gpu, TrainingSetup(micro_batch=1), one) is one
