"""s35-left: plans and headlines that a trial and a review found wrong, each tested by its kind.

1. A full fine-tune with no tool named whose shown layout has TP (the fewest GPUs' 'TP 2, ZeRO-3') names the
   stack that runs it: Megatron-LM / NeMo (Megatron-FSDP: TP beside ZeRO-2/3), since LLaMA-Factory and the
   HF Trainer run data parallelism only and DeepSpeed's AutoTP trains at ZeRO 0–2 only
   (deepspeed.ai/tutorials/autotp-training) — ``megatron_tp`` of :func:`bot.render.advice.framework_keys`.
   Cards without NVLink plan no TP (ZeRO over data parallelism first: ``estimator.layouts.plan_preference``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _memory(text: str) -> dict[str, Any]:
    return answer_json(text)["report"]["memory"]


# 1. a TP layout names the stack that runs it -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "DeepSeek-R1-Distill-Qwen-14B 全参微调要几张 A800",
        "How many A800 for full fine-tuning of DeepSeek-R1-Distill-Qwen-14B",
    ],
)
def test_full_finetune_plan_is_one_a_stack_runs(text: str) -> None:
    """14.7B parameters × 16 bytes (AdamW mixed precision) = 235 GB of states; on 4 × 80 GiB with ZeRO-3
    each holds a quarter (6.8 + 6.8 + 41.1 GiB shown). s36 left #1: the fewest cards run ZeRO-3 over DP 4
    with gradient checkpointing — the layout DeepSpeed / LLaMA-Factory / the HF Trainer run — where this
    test pinned TP 2 × DP 2 with ZeRO-3, which only Megatron-LM (Megatron-FSDP) runs; no layout shown has
    TP, so no Megatron sentence."""
    out = answer_json(text)
    m = out["report"]["memory"]
    assert m["min_gpus"] == 4
    mp = m["min_plan"]
    assert (mp["tp"], mp["dp"], mp["zero_stage"], mp["recompute"]) == (1, 4, 3, "full")
    assert (m["recommended_plan"]["tp"], m["recommended_plan"]["zero_stage"]) == (1, 3)
    reply = out["reply"]
    assert "LLaMA-Factory" in reply and "--use-megatron-fsdp" not in reply


@pytest.mark.parametrize(
    "text",
    ["full fine-tune Qwen2.5-7B on L40S, how many cards", "Qwen2.5-7B 全参微调 L40S 要几张"],
)
def test_pcie_full_finetune_plans_no_tp(text: str) -> None:
    """L40S has no NVLink: ZeRO-3 over data parallelism (7.6B × 16 B = 122 GB of states over 4 × 48 GiB),
    no TP over PCIe, and no Megatron sentence (nothing shown needs it)."""
    out = answer_json(text)
    m = out["report"]["memory"]
    assert m["min_gpus"] == 4
    assert (m["min_plan"]["tp"], m["min_plan"]["pp"], m["min_plan"]["zero_stage"]) == (1, 1, 3)
    assert "AutoTP" not in out["reply"]


def test_lora_answer_names_no_megatron_tp() -> None:
    out = answer_json("LoRA fine-tune Qwen2.5-7B on one A100, enough?")
    assert "AutoTP" not in out["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "用 LLaMA-Factory 全参微调 DeepSeek-R1-Distill-Qwen-14B 要几张 A800",
        "Full fine-tuning DeepSeek-R1-Distill-Qwen-14B with LLaMA-Factory: how many A800?",
    ],
)
def test_a_named_data_parallel_tool_gets_a_layout_it_runs(text: str) -> None:
    """LLaMA-Factory named: data parallelism only (no TP), so no Megatron sentence for a TP layout."""
    out = answer_json(text)
    m = out["report"]["memory"]
    for key in ("plan", "min_plan", "recommended_plan"):
        if m[key]:
            assert (m[key]["tp"], m[key]["pp"]) == (1, 1), key
    assert "Megatron-FSDP" not in out["reply"]


# 2. a cost question prices the count the answer recommends ------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "用910B 训练llama3 8b sft，数据 1 万条，多少钱",
        "How much would it cost to fine-tune Llama 3 8B on 10k samples with 910B?",
        "llama3 8b 全参微调 1 万条数据，用 910B 成本多少",
    ],
)
def test_a_cost_question_prices_the_recommended_count(text: str) -> None:
    """Llama 3 8B full fine-tuning (8.03B × 16 B = 128 GB of states) on 910B (64 GiB): 2 cards hold it only
    at 62.7 GiB (97.9 %) with full recompute; the recommended 8 (one node) at 56.3 GiB. The cost is
    count-free (0.71 card-hours), so the answer quotes and lays out the 8 it recommends."""
    out = answer_json(text)
    assert out["request"]["cost_asked"] is True
    m = out["report"]["memory"]
    assert (m["min_gpus"], m["recommended_gpus"], m["plan_gpus"]) == (2, 8, 8)
    assert m["per_gpu_bytes"] <= 0.9 * m["usable_bytes"]
    head = out["reply"].splitlines()[0]
    assert "8 张" in head or "8 GPUs" in head


@pytest.mark.parametrize(
    "text",
    ["用910B 训练llama3 8b sft，数据 1 万条，要几张卡", "Fine-tune Llama 3 8B on 10k samples: how many 910B"],
)
def test_a_count_question_keeps_the_fewest(text: str) -> None:
    """No cost, deadline or budget asked: the fewest that fit stay the answer (s20-fxa)."""
    out = answer_json(text)
    assert not out["request"].get("cost_asked")
    assert out["report"]["memory"]["plan_gpus"] == 2


# 3. a memory question leads with the memory, then the cards (each GPU's share first: s37 fixh #1) ------


@pytest.mark.parametrize(
    ("text", "lead"),
    [
        # a stated context with no load (s38 fixm #1): one sequence first, 673 GB of fp8 weights + 68.6 KiB ×
        # 32,768 = 2.3 GB of KV + the 16 GPUs' runtime 34.8 GB = 710 GB; then the assumed 16 concurrent: KV
        # 68.6 KiB × 32,768 × 16 = 36.8 GB, 744 GB in all; in GiB, the card's unit (s38 fixs #5): 710 GB =
        # 661 GiB (÷ 16 = 41.3), 673 GB = 627 GiB, 34.8 GB = 32.4 GiB, 744 GB = 693 GiB (÷ 16 = 43.3)
        (
            "vram needed to run deepseek-v3 in fp8 w/ 32k ctx",
            "≈ 41.3 GiB of GPU memory per GPU on 16 GPUs, 661 GiB in all, for one sequence at 32K context "
            "(weights 627 GiB + KV cache 2.1 GiB + runtime 32.4 GiB); an assumed 16 concurrent "
            "(none stated): ≈ 43.3 GiB per GPU on 16 GPUs, 693 GiB in all",
        ),
        # 72.7B × 2 B = 145 GB + 320 KiB × 4,096 × 16 = 21.5 GB + 4 GPUs' runtime 9.3 GB = 176 GB = 164 GiB
        ("Qwen2.5-72B 推理需要多少显存", "每卡显存约 41.0 GiB（4 张卡），共 164 GiB（权重 135 GiB"),
        ("qwen2.5-72b 部署要多大显存", "每卡显存约 41.0 GiB（4 张卡），共 164 GiB（权重 135 GiB"),
        (
            "how much VRAM is needed to serve Qwen2.5-72B?",
            "≈ 41.0 GiB of GPU memory per GPU on 4 GPUs, 164 GiB in all (weights 135 GiB",
        ),
    ],
)
def test_a_memory_question_leads_with_the_memory(text: str, lead: str) -> None:
    out = answer_json(text)
    assert out["request"]["memory_asked"] is True
    head = out["reply"].splitlines()[0]
    assert head.startswith(lead), head
    inf = out["report"]["inference"]
    assert str(inf["recommended_gpus"]) in head  # then the cards


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-72B 推理要几张 A100",
        "how much memory bandwidth does an H100 have for serving llama 3 70b",
        "serve llama 3 70b, my gpu has 80gb vram, how many do I need",
        "显存 80g 的卡，部署 Qwen2.5-72B 要几张",
    ],
)
def test_a_count_question_is_not_a_memory_question(text: str) -> None:
    out = answer_json(text)
    assert not out["request"].get("memory_asked")
    assert "GPU memory (weights" not in out["reply"] and "显存约" not in out["reply"].splitlines()[0]


# 4. under one token per parameter: said on the headline's line --------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # 1e9 / 202e9 = 0.00495 tokens per parameter (Hoffmann et al. 2022 §3: ≈ 20)
        ("pretrain a 202B model on 1B tokens, how many H100", "1B tokens is 0.005 tokens per parameter"),
        ("用 1B token 预训练一个 202B 的模型要多少张 H100", "只有每参数 0.005 个 token"),
        # 20e9 / 70e9 = 0.286, on the user's count (the 'borderline' headline form)
        ("pretrain a 70B model on 20B tokens with 64 H100", "20B tokens is 0.29 tokens per parameter"),
        # 5e9 / 7e9 = 0.714
        ("从头预训练一个 7B 模型，50亿 token，用 A100 要几张", "只有每参数 0.71 个 token"),
    ],
)
def test_far_too_little_data_is_on_line_one(text: str, said: str) -> None:
    first = answer_json(text)["reply"].splitlines()[0]
    assert said in first, first


@pytest.mark.parametrize(
    "text",
    [
        "pretrain a 7B model on 1T tokens on 64 H100",  # 143 per parameter
        "pretrain a 7B model on 10B tokens, how many H100",  # 1.4 per parameter: under-trained, not absurd
        "full fine-tune a 70B model on 20B tokens with 64 H100",  # a fine-tune: no Chinchilla reference
    ],
)
def test_enough_data_or_a_finetune_says_nothing_on_line_one(text: str) -> None:
    first = answer_json(text)["reply"].splitlines()[0]
    assert "per parameter" not in first and "每参数" not in first, first
