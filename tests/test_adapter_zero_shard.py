"""s11 trial item 3: ZeRO partitions the LoRA/QLoRA adapters' states like any trained parameters (ZeRO
paper §5.1: stage 1 the optimizer states, 2 also the gradients, 3 also the parameters), so a large
adapter (rank 64 on every linear layer of an MoE: ≈ 0.9B parameters, 14.3 GiB of fp32 states) shrinks
with the data-parallel size and the recommendation stays near the minimum (it was 712 RTX 4090D, 1,424
sequences per step). Through ``sizing-bot ask --format json`` in both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.lora import adapter_shard

GIB = 2**30

QLORA_MIXTRAL = {
    "en": [
        "QLoRA Mixtral 8x7B on a single 4090D 24GB, lora_rank 64, lora_target all, cutoff_len 4096, "
        "per_device_train_batch_size 2, gradient_accumulation_steps 8 — does it fit?",
        "QLoRA Mixtral 8x7B on a single 4090D 24GB, lora_rank 64, lora_target all, cutoff_len 4096, "
        "per_device_train_batch_size 2 — does it fit?",
        "Can I QLoRA fine-tune Mixtral 8x7B with lora rank 64 on all linear layers, 4096-token sequences, "
        "micro-batch 2, on one RTX 4090D?",
    ],
    "zh": [
        "QLoRA 微调 Mixtral 8x7B，单卡 4090D 24G，lora_rank 64，lora_target all，cutoff_len 4096，"
        "per_device_train_batch_size 2，gradient_accumulation_steps 8，能跑吗？",
        "单张 4090D 24G 上 QLoRA 微调 Mixtral 8x7B，lora_rank 64，lora_target all，cutoff_len 4096，"
        "per_device_train_batch_size 2，放得下吗？",
        "单卡 4090D 做 Mixtral 8x7B 的 QLoRA 微调，lora_rank 64，所有线性层，序列长度 4096，"
        "batch size 2，够吗？",
    ],
}


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


def test_adapter_states_shard_by_zero_stage():
    """16 B per fp32 adapter parameter (weight 4, gradient 4, Adam m and v 8) over 4 ranks: stage 0
    keeps 16, stage 1 shards the 8 of the optimizer (4 + 4 + 2 = 10), stage 2 also the gradient
    (4 + 1 + 2 = 7), stage 3 everything (4). bf16 adapters with an 8-bit optimizer (2 + 2 + 2): 6 → 1.5
    at stage 3 over 4."""
    assert [adapter_shard(16.0, z, 4) for z in (0, 1, 2, 3)] == [16.0, 10.0, 7.0, 4.0]
    assert adapter_shard(16.0, 3, 1) == 16.0
    assert adapter_shard(6.0, 3, 4) == 1.5


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("i", [0, 1, 2])
def test_qlora_mixtral_on_4090d_is_a_few_cards(capsys, lang, i):
    """1 GPU: 22.8 GiB NF4 base + 14.3 GiB adapters + the step's ≈ 6.6 GiB does not fit 24 GiB. ZeRO-3
    over 4 shards both the base and the adapters (37.1 / 4 ≈ 9.3 GiB): 4 cards under HF Trainer's data
    parallelism (2 when no tool is named and other layouts may be searched), and the recommendation
    stays within a few cards, not hundreds for the unsharded adapters."""
    out = ask(capsys, QLORA_MIXTRAL[lang][i])
    m = out["report"]["memory"]
    assert out["request"]["model"] == "Mixtral-8x7B" and out["request"]["method"] == "qlora"
    assert m["fits_requested"] is False
    assert m["breakdown"]["adapters"] / GIB == pytest.approx(14.3, abs=0.05)  # on the user's 1 GPU
    assert m["min_gpus"] == (4 if i < 2 else 2)
    assert m["recommended_gpus"] is None or m["recommended_gpus"] <= 8
    assert m["min_plan"]["global_batch_sequences"] <= 128


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stated_accumulation_keeps_its_global_batch(capsys, lang):
    """micro-batch 2 × 8 accumulation on 1 GPU = 16 sequences per step; on the 4 GPUs that fit, the
    same 16: 2 × 2 accumulation × DP 4 (not 1,424 sequences with '1 accumulation')."""
    out = ask(capsys, QLORA_MIXTRAL[lang][0])
    plan = out["report"]["memory"]["min_plan"]
    assert out["request"]["global_batch"] == 16
    assert (plan["micro_batch"], plan["gradient_accumulation"], plan["dp"]) == (2, 2, 4)
    assert plan["global_batch_sequences"] == 16
