"""RL rollouts timed as decode (s8 fix item 1): GRPO's generated completions are decoded at the serving
estimator's memory-bound speed, as their own part of the GPU-hours; their 2·N·D_gen FLOPs stay in C
(10ND, counted once) and leave the MFU-timed part. Sources: TRL GRPOTrainer (``num_generations``,
``max_completion_length``), DeepSeekMath (Shao et al. 2024) §4.1; estimator/rollout.py."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.weights import kv_bytes_per_sequence, weight_bytes

QUESTIONS = {
    "en": "GRPO on Qwen2.5-7B with 8 H100, max_prompt_length 512, max_completion_length 1024, "
    "8 samples per prompt, 5k prompts, how long?",
    "zh": "GRPO 训练 Qwen2.5-7B，8 张 H100，max_prompt_length 512，max_completion_length 1024，"
    "每个 prompt 采样 8 个，5000条prompt，要多久",
}
LINE = {
    "en": "of which rollouts: 53 GPU-hours decoding 41M completion tokens",
    "zh": "其中采样生成：53 卡·时",
}


def _ask(capsys, question: str) -> dict:
    assert main(["ask", "--format", "json", question]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_grpo_rollouts_are_decode_time(capsys, lang: str) -> None:
    answer = _ask(capsys, QUESTIONS[lang])
    req, rep = answer["request"], answer["report"]
    assert req["num_generations"] == 8 and req["max_completion_length"] == 1024 and req["seq_len"] == 1536
    assert not [i for i in answer["interpretation"]["ignored"] if i["text"].startswith("num_generations")]
    # D = 5,000 prompts × G 8 × (512 + 1,024) tokens; two thirds of it are decoded completions
    assert req["tokens"] == 5000 * 8 * 1536
    ro = rep["rollout"]
    assert ro["generated_tokens"] == pytest.approx(5000 * 8 * 1024)
    assert (ro["prompt_tokens"], ro["completion_tokens"], ro["decode_tp"], ro["decode_batch"]) == (
        512,
        1024,
        1,
        8,
    )
    # TRL decodes one generation batch per optimizer step (generation_batch_size = per_device × processes ×
    # steps_per_generation, trl grpo_config.py @f2cd577): the step's sequences ÷ 8 GPUs (s24 trial #10).
    # s27-trgen: TRL's own step, per_device_train_batch_size 8 × 8 GPUs × accumulation 1 = 64 sequences, 8 a
    # GPU (was the SFT default 128, 16 a GPU). Decode step on one H100 (3,350 GB/s × 0.50 fitted bandwidth
    # share): the bf16 weights + 8 sequences' KV at the mean context 512 + 512 tokens, read once per token
    qwen, h100 = catalog.model("Qwen2.5-7B"), catalog.gpu("H100-SXM5-80GB")
    # s26-trfix4 (trial 2 #3): TRL's use_vllm defaults to False, so its own eager model.generate decodes
    # at a quarter of that share (transformers llm_optims.md: up to 4x from static cache + torch.compile;
    # estimator/trainer_decode.py): ≈ 214 tokens/s, 53 GPU-hours (s26: 415 and 27.4 at 16 sequences)
    step = (weight_bytes(qwen, 7.61e9, "bf16") + 8 * kv_bytes_per_sequence(qwen, 1024)) / (3350e9 * 0.5 / 4)
    assert ro["in_trainer"] is True
    assert ro["decode_tokens_per_s_per_gpu"] == pytest.approx(8 / step, rel=1e-6)
    assert 205 < ro["decode_tokens_per_s_per_gpu"] < 225  # ≈ 214 tokens/s, memory-bound
    assert ro["gpu_hours"] == pytest.approx(5000 * 8 * 1024 / (8 / step) / 3600, rel=1e-6)  # 53
    # C counts generation once; the training passes are timed on C − 2·N·D_gen at the MFU. s26 trial #6:
    # TRL's keys (max_prompt_length …) name TRL, whose GRPO beta defaults to 0.0: no reference forward, 8ND
    assert rep["flops_formula"] == "8ND" and rep["flops"] == pytest.approx(8 * 7.61e9 * 5000 * 8 * 1536)
    passes = (rep["flops"] - 2 * 7.61e9 * ro["generated_tokens"]) / (
        h100.peak_flops_16bit * rep["mfu"]["likely"] * 3600
    )
    assert ro["training_gpu_hours"]["likely"] == pytest.approx(passes, rel=1e-6)
    assert rep["gpu_hours"]["likely"] == pytest.approx(passes + ro["gpu_hours"], rel=1e-6)
    assert ro["gpu_hours"] > 1.5 * passes  # the rollouts dominate, as in real GRPO runs (53 vs 3.1)
    assert LINE[lang] in answer["reply"]


def test_trl_config_generation_settings_are_used(capsys) -> None:
    """A pasted GRPOConfig's num_generations and max_completion_length are request fields now."""
    answer = _ask(
        capsys,
        "GRPO Qwen2.5-7B on 8 H100, 5k prompts\nargs = GRPOConfig(output_dir='out', num_generations=16, "
        "max_completion_length=2048, per_device_train_batch_size=4, bf16=True)",
    )
    req, ro = answer["request"], answer["report"]["rollout"]
    assert req["num_generations"] == 16 and req["max_completion_length"] == 2048
    # s27-trgen: no vLLM (use_vllm defaults to False): each process's model.generate decodes its local
    # generation batch, per_device_train_batch_size 4 × steps_per_generation 1 (trl grpo_trainer.py
    # L1558–1560 @v1.9.0); TRL's RepeatSampler spreads a prompt's 16 completions over 4 ranks (s8-t3 item 2
    # kept 16 together, as a vLLM server does with n = 16: estimator.rollout._decode_batch still does)
    assert ro["completion_tokens"] == 2048 and ro["decode_batch"] == 4


def test_sft_has_no_rollouts(capsys) -> None:
    answer = _ask(capsys, "full fine-tune Qwen2.5-7B on 8 H100, 1B tokens")
    assert answer["report"]["rollout"] is None and answer["report"]["flops_formula"] == "6ND"
