"""FP8 only where a card has it (s7 fix item 4; design §3.1: never FP8 on a GPU without FP8 tensor
cores unless asked). The catalog's FP8 peaks of every non-NVIDIA and pre-Hopper card match their sources;
a card without FP8 asked for FP8 is timed in bf16 and the reply says so; a released-FP8 model on a card
that cannot load FP8 weights is sized as bf16, stated. Through ``sizing-bot ask``, both languages."""

from __future__ import annotations

import pytest

from estimator import catalog
from estimator.models import Precision
from estimator.serving_speed import compute_peak
from tests.cli_run import ask_json, ask_text

FP8_OUTSIDE_NVIDIA_HOPPER_ON = {
    "MI300X": 2614.9,  # AMD CDNA3 datasheet: FP8 5,229.8 TFLOPS with sparsity -> dense half
    "MI325X": 2614.9,  # AMD MI325X datasheet, same CDNA3 compute
    "MI350X": 4613.7,  # AMD MI350X datasheet: FP8 4.6 PF dense (256 CUs x 8,192 FLOP/clk x 2.2 GHz)
    "MI355X": 5033.2,  # AMD MI355X datasheet: FP8 5.0 PF dense (256 CUs x 8,192 FLOP/clk x 2.4 GHz)
    "Gaudi2": 865.0,  # Intel Gaudi 2 whitepaper: FP8 865 TFLOPS
    "Gaudi3": 1835.0,  # Intel Gaudi 3 whitepaper: FP8 and BF16 1,835 TFLOPS (MME)
    "TPUv5p": 459.0,  # Google TPU v5p page lists FP8 at the BF16 rate (no FP8 speed-up)
    "Radeon-RX-9070-XT": 389.3,  # AMD RX 9070 XT page: FP8 matrix 779 TOPS with sparsity -> dense half (s25)
}
"""Non-NVIDIA cards with an FP8 peak in the catalog; every other non-NVIDIA card (Ascend 910/910B/910C,
MI200, TPU v4/v5e, Apple) and every NVIDIA card before Ada/Hopper (Pascal, Volta, Turing, Ampere) has none
(their datasheets list FP16/BF16 and INT8 only)."""


def test_fp8_fields_of_non_nvidia_and_pre_hopper_cards():
    pre = {"Pascal", "Volta", "Turing", "Ampere"}
    for g in catalog.gpus().values():
        if g.vendor == "NVIDIA" and g.generation in pre:
            assert g.peak_tflops_fp8 is None, g.id
        elif g.vendor != "NVIDIA":
            assert g.peak_tflops_fp8 == FP8_OUTSIDE_NVIDIA_HOPPER_ON.get(g.id), g.id
    ascend = catalog.gpu("Ascend-910B")
    assert not ascend.has_fp8 and compute_peak(ascend, Precision.fp8) == 320e12  # its FP16 peak


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "DeepSeek V3 推理 910B 要几张",
            "官方发布为 FP8，但 Huawei Ascend 910B 不支持 FP8、无法加载 FP8 权重：按 bf16 估算",
        ),
        ("how many 910B to serve DeepSeek V3", "released in FP8, but Huawei Ascend 910B has no FP8"),
    ],
)
def test_released_fp8_on_ascend_is_sized_as_bf16_and_said(question, said):
    """DeepSeek-V3 ships FP8 weights; Ascend 910B cannot load them (vLLM-Ascend / MindIE convert to BF16):
    671B × 2 B = 1,342 GB of weights, not 673 GB."""
    d = ask_json(question)
    assert d["request"]["precision"] == "bf16"
    assert d["report"]["inference"]["weights_bytes"] == pytest.approx(1.342e12, rel=1e-3)
    assert [a["why"] for a in d["assumptions"] if a["field"] == "precision"] == ["release_fp8_as_bf16"]
    assert said in ask_text(question)


def test_released_fp8_on_a100_runs_weight_only_and_says_so():
    """A100 (Ampere) runs FP8 checkpoints weight-only (vLLM FP8 Marlin, W8A16): 1 byte per weight, timed
    at the 312 TFLOPS BF16 peak, said."""
    d = ask_json("deepseek v3 inference on A100 how many")
    assert d["request"]["precision"] == "fp8"
    assert {"code": "fp8_serving_16bit", "params": {"gpu": "NVIDIA A100 SXM4 80GB"}} in d["report"][
        "warnings"
    ]
    assert compute_peak(catalog.gpu("A100-SXM4-80GB"), Precision.fp8) == 312e12


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("serve llama 3 70B in fp8 on 4 910B", "FP8 does not run on Huawei Ascend 910B"),
        ("4张910B部署Llama 3 70B，fp8", "Huawei Ascend 910B 跑不了 FP8"),
    ],
)
def test_fp8_asked_on_ascend_serving_is_said_not_to_run_and_sized_in_bf16(question, said):
    """The 910B has no FP8 tensor cores and no FP8 weight-only kernel (vLLM's runs on Ampere's Marlin;
    vLLM-Ascend serves BF16 or INT8 W8A8): the user's FP8 is named as not run, and the weights are sized
    in bf16, 2 B per weight (changed 2026-12-02 after a review: FP8 was sized at 1 B and only timed
    at bf16, a setting the card cannot run)."""
    d = ask_json(question)
    assert d["request"]["precision"] == "bf16"  # what is sized; the user's fp8 is named below
    assert d["report"]["inference"]["bytes_per_param"] == pytest.approx(2.0, abs=0.01)
    assert "fp8_weights_unsupported" in {w["code"] for w in d["report"]["warnings"]}
    assert {"text": "precision: fp8", "reason": "no_fp8_weights"} in d["interpretation"]["ignored"]
    assert said in ask_text(question)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("pretrain 7B on 1T tokens in fp8 on 256 Ascend 910B", "“precision: fp8” (this card has no FP8"),
        ("用256张910B做7B模型FP8预训练1万亿token", "“精度：fp8”"),
    ],
)
def test_fp8_training_on_ascend_is_timed_in_bf16(question, said):
    """Training: FP8 asked on 910B is timed as bf16 — the same GPU-hours as without FP8 — and named."""
    fp8 = ask_json(question)["report"]["gpu_hours"]["likely"]
    plain = ask_json(question.replace(" in fp8", "").replace("FP8", ""))["report"]["gpu_hours"]["likely"]
    assert fp8 == pytest.approx(plain)
    assert said in ask_text(question)
