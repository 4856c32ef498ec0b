"""s11 trial item 13 (first half): in an RL run (GRPO, RLOO, PPO) a vLLM named with the trainer (ms-swift
``--use_vllm true``, verl ``rollout.name=vllm``, "rollouts with vLLM") is the rollout engine, and the
rollouts are timed as vLLM decoding (:mod:`estimator.rollout`): it is used, never dismissed as "a serving
setting". Another engine (SGLang) is named as timed like vLLM. Outside RL (DPO, SFT) a serving engine
stays a serving setting. Through ``sizing-bot ask --format json``, both languages."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

VLLM_ROLLOUT = {
    "en": [
        "ms-swift GRPO: swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-32B-Instruct --num_generations 8 "
        "--max_completion_length 2048 --train_type lora --use_vllm true on 8 H800, 10k prompts: how long?",
        "GRPO on Qwen2.5-7B with vLLM for the rollouts, 8 generations per prompt, 20k prompts, "
        "8 x A100: how long?",
        "PPO Llama-3.1-8B on 8 H100 using vLLM as the generation engine, 50k prompts: how many hours?",
    ],
    "zh": [
        "用 ms-swift 做 GRPO：swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-32B-Instruct "
        "--num_generations 8 "
        "--max_completion_length 2048 --train_type lora --lora_rank 32 --use_vllm true，"
        "8卡H800，1万条prompt，要多久？",
        "GRPO 训练 Qwen2.5-7B，用 vLLM 做采样，每个 prompt 生成 8 条，2万条 prompt，8 张 A100，要多久？",
        "PPO 训练 Llama-3.1-8B，8 张 H100，用 vLLM 生成，5万条 prompt，要多少小时？",
    ],
}
SERVING_WORDS = {"en": "a serving setting", "zh": "这是推理设置"}


def ask(capsys, text: str) -> dict:
    assert main(["ask", "--format", "json", text]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("i", [0, 1, 2])
def test_vllm_in_rl_is_the_rollout_engine(capsys, lang, i):
    out = ask(capsys, VLLM_ROLLOUT[lang][i])
    assert out["request"]["algorithm"] in ("grpo", "ppo")
    assert out["report"]["rollout"] is not None  # the rollouts are timed as vLLM decoding
    ignored = [x for x in out["interpretation"]["ignored"] if x["text"].startswith("runtime")]
    assert ignored == []
    assert SERVING_WORDS[lang] not in out["reply"]


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        (
            "GRPO Qwen3-30B-A3B with verl on 8x H20, rollout.name=sglang, rollout.n=16, "
            "5k prompts: how long?",
            "en",
        ),
        (
            "verl 做 GRPO，Qwen3-30B-A3B，8 张 H20，rollout.name=sglang，rollout.n=16，"
            "5000 条 prompt，要多久？",
            "zh",
        ),
    ],
)
def test_another_rollout_engine_is_named_as_timed_like_vllm(capsys, text, lang):
    out = ask(capsys, text)
    reasons = {x["text"]: x["reason"] for x in out["interpretation"]["ignored"]}
    assert reasons.get("runtime: SGLang") == "rollout_as_vllm"
    assert SERVING_WORDS[lang] not in out["reply"]


@pytest.mark.parametrize(
    "text",
    [
        "DPO fine-tune Llama-3.1-8B on 8 A100 with vLLM, 20k pairs: how long?",
        "用 vLLM 做 DPO 微调 Llama-3.1-8B，8 张 A100，2万条数据，要多久？",
    ],
)
def test_outside_rl_vllm_stays_a_serving_setting(capsys, text):
    out = ask(capsys, text)
    reasons = {x["text"]: x["reason"] for x in out["interpretation"]["ignored"]}
    assert reasons.get("runtime: vLLM") == "serving_only"
