"""LoRA adapters under ZeRO (session 21, fixa item 1): DeepSpeed shards a LoRA run's trained adapters
like any trained parameters — optimizer states at stage ≥ 1, gradients at ≥ 2, the 16-bit weights at 3
except the matrices at or below ``stage3_param_persistence_threshold`` (1e5 elements, DeepSpeed
``deepspeed/runtime/zero/config.py``; ``parameter_offload.py`` ``mark_persistent_parameters``). Before,
the adapters' 16 B/param stayed whole on every GPU, so a ZeRO-3 LoRA of a 405B model on 24 GB cards
answered "no number of these GPUs fits (up to 100,000)": the 37.2 GiB of adapter states alone."""

from __future__ import annotations

import json

import pytest

from estimator import catalog
from estimator.adapter_states import ZERO3_PARAM_PERSISTENCE_THRESHOLD, adapter_state_bytes, persistent_share
from estimator.lora import lora_params
from estimator.models import Method, Plan
from estimator.setup import TrainingSetup

GIB = 2**30


def _spec(model_id: str):
    return catalog.models()[model_id]


def test_persistence_threshold_is_deepspeeds_default():
    assert ZERO3_PARAM_PERSISTENCE_THRESHOLD == 100_000


def test_405b_rank_64_adapter_states_on_one_gpu_and_sharded_over_8():
    """Llama-3.1-405B (h 16,384, 126 layers, 8 KV heads × 128), rank 64 on all linear layers: 2.494 G
    adapter parameters; 16 B each = 37.2 GiB unsharded. ZeRO-3 on dp 8: fp32 master + Adam (12 B) / 8,
    bf16 gradient (2 B) / 8, bf16 weight (2 B) / 8 except the k/v B matrices (1,024 × 64 = 65,536
    elements ≤ 1e5, 0.66 % of the adapter parameters) kept whole: 2.012 B/param = 4.67 GiB."""
    spec = _spec("Llama-3.1-405B")
    n = lora_params(spec, 64, None)
    assert n == 2_493_775_872
    setup = TrainingSetup(method=Method.lora, lora_rank=64)
    whole = adapter_state_bytes(spec, n, 16.0, setup, Plan(dp=8, zero_stage=0))
    assert round(whole / GIB, 1) == 37.2
    assert persistent_share(spec, 64, None) == pytest.approx(1 / 151, rel=1e-9)  # k, v B of 151 widths
    z3 = adapter_state_bytes(spec, n, 16.0, setup, Plan(dp=8, zero_stage=3))
    assert z3 / n == pytest.approx(1.5 + 0.25 + 2 * (1 / 151 + (150 / 151) / 8), rel=1e-9)
    assert round(z3 / GIB, 2) == 4.67


def test_zero_1_and_2_shard_the_optimizer_then_the_gradients():
    spec = _spec("Llama-3.1-8B")
    n = lora_params(spec, 8, None)
    assert n == 20_971_520  # rank 8 × 32 layers × 81,920 widths
    setup = TrainingSetup(method=Method.lora, lora_rank=8)
    z1 = adapter_state_bytes(spec, n, 16.0, setup, Plan(dp=4, zero_stage=1))
    z2 = adapter_state_bytes(spec, n, 16.0, setup, Plan(dp=4, zero_stage=2))
    assert z1 / n == pytest.approx(2 + 2 + 12 / 4)
    assert z2 / n == pytest.approx(2 + 2 / 4 + 12 / 4)
    # rank 8 of h 4096: the 4,096- and 1,024-wide sides (32,768 / 8,192 elements) stay whole, the MLP's
    # 14,336-wide sides (114,688 elements) are partitioned: 38,912 of 81,920 widths whole
    assert persistent_share(spec, 8, None) == pytest.approx(0.475)
    assert adapter_state_bytes(spec, n, 16.0, setup, Plan(dp=1, zero_stage=3)) == 16.0 * n


@pytest.mark.parametrize(
    "q",
    [
        "LoRA fine-tune Llama-3.1-405B with DeepSpeed ZeRO-3, rank 64, on RTX 4090s, how many?",
        "用 DeepSpeed ZeRO-3 LoRA 微调 Llama-3.1-405B，rank 64，需要几张 4090？",
    ],
)
def test_zero3_lora_of_405b_on_4090s_has_a_count(capsys, q):
    """Before: min_gpus None ('no number of these GPUs fits, up to 100,000'). Now 80 × RTX 4090:
    the frozen bf16 base 754 GiB / 80 = 9.45 GiB and the adapters 2.494 G × (12 + 2 + 2 · 150/151) / 80
    + 2 · 1/151 B = 0.495 GiB per GPU.

    Session 22 (fixa): 96 × RTX 4090. ZeRO-3 all-gathers the frozen base too, up to
    ``stage3_max_live_parameters`` = 1e9 bf16 elements (2 GB = 1.863 GiB) live per rank
    (estimator.transients.gathered_weights): at 80 cards that puts the total above the 24 GiB card; at
    96 the base is 756/96 = 7.875 GiB and the adapters 0.495 × 80/96 = 0.418 GiB per GPU."""
    from bot.cli import main

    assert main(["ask", "--format", "json", q]) == 0
    m = json.loads(capsys.readouterr().out)["report"]["memory"]
    assert m["min_gpus"] == 96
    assert m["plan"]["zero_stage"] == 3 and m["plan"]["dp"] == 96
    assert round(m["breakdown"]["adapters"] / GIB, 3) == 0.418
    assert round(m["breakdown"]["weights"] / GIB, 3) == 7.875
    assert round(m["breakdown"]["gathered_weights"] / GIB, 3) == 1.863
