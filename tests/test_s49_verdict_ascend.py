"""s49-verdict: the Ascend 910B4 is a 32 GB card (vllm-project/vllm-ascend issue #129, a maintainer: "910b4
is supported. The only difference is that HBM of 910b4 is 32G"), sized on its own catalog entry
(estimator/data/gpus.toml 'Ascend-910B4'); every other 910B SKU (910B1–B3) and the 910B4-1 (a 64 GB part:
npu-smi 'HBM-Usage(MB) 3197 / 65536' in Project-HAMi/HAMi-WebUI issue #47) stays the 64 GB Ascend 910B.
Before, a 910B4 was sized on 64 GB, twice its memory, and an 80B served at TP 4 on four of them was said to
fit (the census of tests/test_verdict_outcomes.py: r20work zh20-002, an OOM). Sentences of our own, both
languages, through ``ask(text, None, "json")``."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from estimator.catalog import gpu

HBM_910B4_GIB = 32
"""vllm-ascend issue #129 (module docstring)."""
HBM_910B_GIB = 64
"""The 910B1–B3 and the 910B4-1 (HAMi-WebUI issue #47: 65536 MB)."""


def _answer(text: str) -> dict:
    out, _ = ask(text, None, "json")
    return json.loads(out)


def test_the_catalog_has_the_910b4_at_32_gb_beside_the_64_gb_910b() -> None:
    assert gpu("Ascend-910B4").memory_gib == HBM_910B4_GIB
    assert gpu("Ascend-910B").memory_gib == HBM_910B_GIB


READS_910B4 = [
    ("4 张 910B4 部署 Qwen2.5-72B-Instruct，显存够吗？", 4),
    ("昇腾910B4 八卡全参微调 Qwen2.5-7B 要多久？", 8),
    ("Can 4 Ascend 910B4 NPUs serve Qwen2.5-72B-Instruct?", 4),
    ("Full fine-tuning of Qwen2.5-7B on 8 ascend910b4 cards: does it fit?", 8),
    ("910B4 1 张能部署 Qwen2.5-7B-Instruct 吗？", 1),
    ("Serve Qwen2.5-7B-Instruct on 910B4 x 2", 2),
]


@pytest.mark.parametrize(("text", "count"), READS_910B4)
def test_a_910b4_is_sized_on_32_gb(text: str, count: int) -> None:
    data = _answer(text)
    request = data["request"]
    assert (request["gpu"], request["gpu_count"]) == ("Ascend-910B4", count)
    assert request["params_total"] < 1e11  # the model named, never '910B' parameters
    assert not [s for s in data["interpretation"].get("substitutions") or [] if "910" in s["typed"]]


def test_72b_in_16_bits_on_four_910b4_does_not_fit_where_four_910b_do() -> None:
    """145 GB of Qwen2.5-72B weights: 36 GB a card at TP 4, more than a 32 GB 910B4, within a 64 GB 910B."""
    four = _answer("vllm serve Qwen2.5-72B-Instruct --tensor-parallel-size 4 on 4 × 910B4")
    assert four["report"]["feasible"] == "no"
    assert _answer("vllm serve Qwen2.5-72B-Instruct --tensor-parallel-size 4 on 4 × 910B2")["report"][
        "feasible"
    ] in ("yes", "borderline")


NOT_910B4 = [
    ("4 张 910B4-1 部署 Qwen2.5-72B-Instruct，够吗？", "Ascend-910B", None),
    ("8 张 910B3（每张 32G）部署 Qwen2.5-72B", "Ascend-910B", 32),
    ("两台 910b2*8 做 Qwen2-72B 全参微调够不够？", "Ascend-910B", None),
    ("Can 4 Ascend 910B4-1 NPUs serve Qwen2.5-72B-Instruct?", "Ascend-910B", None),
    ("Serve Qwen2.5-72B on 8 Ascend 910B NPUs", "Ascend-910B", None),
    ("Serve Qwen2.5-72B on 8 Ascend 910B3 NPUs with 32GB each", "Ascend-910B", 32),
]


@pytest.mark.parametrize(("text", "card", "memory"), NOT_910B4)
def test_other_910b_skus_stay_the_910b(text: str, card: str, memory: int | None) -> None:
    """The 910B4-1 (64 GB), the other SKUs and a bare 910B: the 910B; a memory said beside a 910B3 is each
    card's, on the 910B named (never swapped for the 910B4 of that memory)."""
    request = _answer(text)["request"]
    assert request["gpu"] == card
    assert request.get("gpu_memory_gib") == memory
