"""The model and method axis (issue 24, s17): each kind of writing fixed, asserted on ``sizing-bot ask
--format json`` with sentences of our own in both languages (three or more per kind and language) — the
parsed request, what is named as not used, the substitutions, and the per-method times."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from tests.real_questions import key_understood


def answer(question: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask``."""
    return json.loads(ask(question, None, "json")[0])


def ignored(data: dict[str, Any]) -> dict[str, str]:
    """What the answer names as not used: {text: reason}."""
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


# 1. A LoRA rank in every form: DeepSpeed-Chat's --lora_dim, 'r 设 16', the value a change ends on.
@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("8 卡 L40 LoRA 微调 Yi-34B：deepspeed main.py --zero_stage 2 --lora_dim 128，OOM 了", 128),
        ("一个 7b 的模型用 lora 训，r 设 16，4090 单卡可以不", 16),
        ("qwen2.5-7b lora，rank 从 64 降到 8 还是 OOM，单卡 4090", 8),
        ("lora 微调 qwen2.5-14b，秩从 32 改成 16，两张 3090 够吗", 16),
        ("LoRA fine-tuning Llama 3.1 70B on 8 x 4090, LoRA rank lowered from 16 to 4, still OOM", 4),
        ("deepspeed main.py --lora_dim 64 --zero_stage 3 for a LoRA fine-tune of Llama-2-13B on 2 A100s", 64),
        ("LoRA on Mistral-7B with the rank reduced from 128 to 32 on a single 4090: does it fit?", 32),
    ],
)
def test_lora_rank_forms(text: str, rank: int) -> None:
    data = answer(text)
    assert data["request"]["lora_rank"] == rank
    assert data["request"]["method"] == "lora"


# 2. A preference algorithm named beside the umbrella word RLHF (ms-swift's 'swift rlhf'): the algorithm,
# sized as its family and named; never PPO.
@pytest.mark.parametrize(
    ("text", "named"),
    [
        (
            "swift rlhf --model_type qwen2_5 --rlhf_type kto --model Qwen2_5-14B-Instruct --train_type lora",
            "KTO",
        ),
        ("用 swift rlhf 跑 ORPO，模型 qwen2.5-7b，--model_type qwen2_5，两张 A100 够吗", "ORPO"),
        ("RLHF 阶段用 SimPO 训 Llama-3-8B，需要几张 A800", "SimPO"),
        ("做 RLHF，算法是 KTO，模型 Qwen2.5-14B，4 张 H800 要多久", "KTO"),
        ("RLHF with KTO on Qwen2.5-7B, 4 A100s: enough?", "KTO"),
        ("our RLHF stage uses ORPO on Mistral-7B — how many GPUs?", "ORPO"),
        (
            "swift rlhf --model_type llama3 --rlhf_type simpo --model meta-llama/Meta-Llama-3-8B-Instruct",
            "SimPO",
        ),
    ],
)
def test_variant_beside_rlhf_is_its_family(text: str, named: str) -> None:
    data = answer(text)
    assert data["request"]["algorithm"] == "dpo"
    assert ignored(data).get(f"algorithm: {named}") == "algorithm_family" or any(
        named.lower() in k.lower() and v == "algorithm_family" for k, v in ignored(data).items()
    )


# 3. Qwen versions written with an underscore (ms-swift model types, local folders): Qwen2.5 / Qwen1.5.
@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("全参微调 /data/Qwen2_5-7B-Instruct，两张 H800 行吗", "Qwen2.5-7B"),
        ("qwen1_5-72b-chat 用 vllm 部署要几张 A100", "Qwen1.5-72B"),
        (
            "swift sft --model_type qwen2_5 --model Qwen2_5-14B-Instruct --train_type lora，4090 够吗",
            "Qwen2.5-14B",
        ),
        ("full finetune /models/Qwen2_5-32B-Instruct on 8 H100s", "Qwen2.5-32B"),
        ("serve qwen1_5-14b-chat with vLLM on one A100", "Qwen1.5-14B"),
        ("swift sft --model_type qwen2_5 --model Qwen2_5-3B-Instruct on a 3090: enough?", "Qwen2.5-3B"),
    ],
)
def test_qwen_underscore_versions(text: str, model: str) -> None:
    data = answer(text)
    assert data["request"]["model"] == model
    assert not any(
        k.startswith("model: ") for k in ignored(data)
    )  # the model type is that model, not another


# 4. An unknown model with its version typed apart: named as typed, with its version.
@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("LLaVA 1.5 fine-tuning with QLoRA runs out of memory on a single A100 40GB", "LLaVA 1.5"),
        ("MiniGPT 4.1 fine-tuning on 2 A100s: how long for 10k samples?", "MiniGPT 4.1"),
        ("FooVLM 2.5 model: how much memory to serve on an L40S?", "FooVLM 2.5"),
        ("LLaVA 1.5 的 lora 微调要多少显存", "LLaVA 1.5"),
        ("BarLM 3.1 的全参微调需要几张 A100", "BarLM 3.1"),
        ("FooVLM 2.5 模型用 vllm 部署，要几张 4090", "FooVLM 2.5"),
    ],
)
def test_unknown_model_with_version(text: str, typed: str) -> None:
    data = answer(text)
    assert data["interpretation"]["unknown_model"] == typed


# 5. 'Instruction tuning' is fine-tuning; ms-swift's own flags say the tool.
@pytest.mark.parametrize(
    ("text", "stage", "tool"),
    [
        ("Llava-1.5-13B instruction tuning (full) on 8x A100 40G — time?", "finetune", None),
        ("Instruction-tuning Llama-2-7B on 8 A100s for 3 epochs of 50k samples: how long?", "finetune", None),
        ("visual instruction tuning of a 7B model on 4 H100s", "finetune", None),
        (
            "--rlhf_type grpo --model Qwen/Qwen2.5-7B-Instruct --train_type lora, 2 A100s?",
            "finetune",
            "ms-swift",
        ),
        (
            "--rlhf_type grpo --model Qwen/Qwen2.5-VL-7B-Instruct --train_type lora，两张 A100 跑得动吗",
            "finetune",
            "ms-swift",
        ),
        (
            "--train_type full --model Qwen/Qwen2.5-7B-Instruct --max_length 2048，8 张 4090 行吗",
            "finetune",
            "ms-swift",
        ),
        (
            "--rlhf_type dpo --train_type lora --model Qwen/Qwen2.5-14B-Instruct，4 张 A100 要多久",
            "finetune",
            "ms-swift",
        ),
    ],
)
def test_instruction_tuning_and_swift_flags(text: str, stage: str, tool: str | None) -> None:
    data = answer(text)
    assert data["request"]["stage"] == stage
    if tool is not None:
        assert data["request"]["training_tool"] == tool


# 6. A model's size in words is its parameter count.
@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("a seven billion parameter model, full fine-tune, how many A100s?", 7e9),
        ("seventy billion parameters, serve with vllm on H100s", 70e9),
        ("a thirty billion parameter model: how much memory to serve in fp16?", 30e9),
        ("七十亿参数的模型全参微调要几张 A100？", 7e9),
        ("一个一百三十亿参数的模型推理需要多少显存", 13e9),
        ("三百亿参数的模型用 vllm 部署要几张 H100", 30e9),
    ],
)
def test_size_in_words(text: str, params: float) -> None:
    assert answer(text)["request"]["params_total"] == params


# 7. Parameter offload (ZeRO-3 offload_param) is named as not used; the optimizer offload stays used.
@pytest.mark.parametrize(
    "text",
    [
        "Full fine-tune of Llama-3.1-70B on 8x A100 80GB with ZeRO-3, optimizer and params offloaded to CPU",
        "zero3, offload_param device cpu, offload_optimizer device cpu, qwen2.5-32b full sft on 4 A100",
        "ZeRO-3 offload the optimizer and parameters for a full fine-tune of Mistral-7B on 2 4090s",
        "全参微调 qwen2.5-14b，zero3，优化器和参数都卸载到 CPU，4 张 4090 行吗",
        "H200 全量训练 DeepSeek-R1-Distill-Llama-70B，zero3+offload（优化器、参数），8 卡够吗",
        "qwen2.5-7b 全参微调，zero3，参数 offload 到 cpu，两张 3090",
    ],
)
def test_parameter_offload_is_named(text: str) -> None:
    data = answer(text)
    assert ignored(data).get("offload_param: CPU") == "param_offload"  # an upper bound, said (s26-trfix4)
    assert data["request"]["offload"] is True


def test_verl_param_offload_false_is_not_named() -> None:
    data = answer("verl param_offload=False optimizer_offload=True qwen2.5-7b grpo on 8 H100")
    assert "offload_param: CPU" not in ignored(data)


# 8. Several methods asked 'how long each': every row has its time, scaled by k·N·D and QLoRA's step factor.
@pytest.mark.parametrize(
    ("text", "methods", "lang_word"),
    [
        (
            "Fine-tune Llama-3.1-8B on 50k samples of 1k tokens, with or without LoRA / QLoRA — "
            "how long each? "
            "8x A100",
            {"lora", "full", "qlora"},
            "GPU-hours",
        ),
        (
            "Qwen2.5-7B 用 LoRA 和全参各要多久？8 卡 A100，10 万条数据，每条 1000 token",
            {"lora", "full"},
            "卡·时",
        ),
        (
            "Full finetune vs QLoRA for Mistral-7B on 4x A100, 20k samples of 2k tokens: time for each?",
            {"full", "qlora"},
            "GPU-hours",
        ),
    ],
)
def test_each_method_gets_a_time(text: str, methods: set[str], lang_word: str) -> None:
    data = answer(text)
    rows = {r["method"]: r["gpu_hours"] for r in data["report"]["method_comparison"]}
    assert set(rows) == methods and all(h is not None and h > 0 for h in rows.values())
    if "lora" in rows and "full" in rows:  # 6ND against 4ND on the same data and rate
        assert rows["full"] / rows["lora"] == pytest.approx(1.5, rel=1e-6)
    if "qlora" in rows and "full" in rows:  # 4ND × 1.39 (LitGPT's measured QLoRA step) against 6ND
        assert rows["qlora"] / rows["full"] == pytest.approx(4 / 6 * 1.39, rel=1e-6)
    assert data["reply"].count(lang_word) >= len(methods)


# 9. Scorer: a catalog LLM called a vision-language model is that VL release, named as typed.
def test_scorer_reads_a_vl_release_named_as_called() -> None:
    data = answer("serve the Qwen-2.5-72B vision-language model with vLLM on 8x H200")
    subs = {s["typed"]: s["reason"] for s in data["interpretation"]["substitutions"]}
    assert subs.get("Qwen-2.5-72B") == "vision_language_llm"
    assert key_understood("model", "Qwen2.5-VL-72B", data)
    assert not key_understood("model", "Qwen2.5-VL-7B", data)
    plain = answer("serve Qwen2.5-72B with vLLM on 8x H200")
    assert not key_understood("model", "Qwen2.5-VL-72B", plain)


# 10. LoRA variants (DoRA, AdaLoRA, rsLoRA, LoRA+): sized as LoRA and named, never as full fine-tuning.
@pytest.mark.parametrize(
    ("text", "method", "named"),
    [
        ("DoRA fine-tune of Llama-3.1-8B on a single 4090", "lora", "method: DoRA"),
        ("use_rslora: true, lora_rank 128, qwen2.5-14b on 2 A100", "lora", "method: rsLoRA"),
        ("LoRA+ on llama-3-8b with 4 3090s: how long for 10k samples?", "lora", "method: LoRA+"),
        ("QLoRA with DoRA on Llama-2-70B, 2 A100s", "qlora", "method: DoRA"),
        ("adalora 微调 qwen2.5-7b，单卡 4090 够吗", "lora", "method: AdaLoRA"),
        ("用 DoRA 微调 glm-4-9b，两张 3090 要多久", "lora", "method: DoRA"),
        ("qwen2.5-14b 用 rslora 训练，rank 64，4 张 A100", "lora", "method: rsLoRA"),
    ],
)
def test_lora_variants_are_lora(text: str, method: str, named: str) -> None:
    data = answer(text)
    assert data["request"]["method"] == method
    assert ignored(data).get(named) == "lora_variant"


# 11. How people name THUDM's glm-4-9b-chat: GLM-4-9B.
@pytest.mark.parametrize(
    "text",
    [
        "ChatGLM4-9B 全参微调要几张 A100？",
        "chatglm4 用 vllm 部署，单卡 4090 够吗",
        "Serve ChatGLM-4-9B-Chat on one L4?",
    ],
)
def test_chatglm4_is_glm4(text: str) -> None:
    assert answer(text)["request"]["model"] == "GLM-4-9B"


# 13. Training a reward model is a fine-tuning of the model it starts from, never a pre-training.
@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("训练 qwen2.5-7b 的 reward model，8 卡 A100", "finetune"),
        ("奖励模型训练用 Llama-3-8B，4 张 A100 要多久", "finetune"),
        ("训练一个基于 Qwen2.5-14B 的 reward model 要几张 H100", "finetune"),
        ("training a reward model on Llama-3-8B with 4 A100s", "finetune"),
        ("reward model training for Mistral-7B on 8 A100s: how long for 100k pairs?", "finetune"),
        ("serve the reward model Skywork-Reward-Llama-3.1-8B with vLLM", "inference"),
    ],
)
def test_reward_model_training_is_finetuning(text: str, stage: str) -> None:
    assert answer(text)["request"]["stage"] == stage
