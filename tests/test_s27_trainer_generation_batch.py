"""s27-trgen: the RL trainer's own generation sized as TRL and ms-swift run it — each rank's local generation
batch (``per_device_train_batch_size`` × ``steps_per_generation``) on the plan's data-parallel size, at the
tool's own prompt + completion lengths (estimator.trainer_generation), not the SFT defaults (2,048 tokens,
global batch 128 over the user's GPUs) it used before."""

from __future__ import annotations

import pytest

from estimator.catalog import model
from estimator.models import Algorithm, Method, SizingRequest
from estimator.rl_defaults import rl_lengths
from estimator.rollout import TRL_MAX_COMPLETION_LENGTH, TRL_MAX_PROMPT_LENGTH, rollout_lengths
from estimator.setup import Layout, TrainingSetup
from estimator.trainer_generation import (
    PER_DEVICE_DEFAULT,
    GenerationBatch,
    generation_batch,
    generation_parts,
    sequences_per_rank,
)
from tests.real_questions import answer_json

QWEN32 = model("Qwen2.5-32B")
PARAMS = 32.76e9
KV_PER_TOKEN = 64 * 2 * 8 * 128 * 2  # layers × (K, V) × KV heads × head dim × 2 bytes = 262,144


def _req(**kw) -> SizingRequest:
    return SizingRequest(algorithm=Algorithm.grpo, method=Method.lora, **kw)


def _layout(dp: int) -> Layout:
    return Layout(tp=1, pp=1, dp=dp, zero_stage=2, recompute="selective", micro_batch=1, offload=False)


def test_the_tools_own_defaults_are_the_sources():
    # TRL GRPOConfig keeps transformers' per_device_train_batch_size=8; ms-swift's own default is 1
    # (swift/trainers/arguments.py L129 @3602360); steps_per_generation = gradient_accumulation_steps = 1
    assert PER_DEVICE_DEFAULT == {"TRL": 8, "ms-swift": 1}
    # TRL GRPOConfig max_prompt_length 512 (to v0.25.0) and max_completion_length 256 (to v1.9.0)
    assert (TRL_MAX_PROMPT_LENGTH, TRL_MAX_COMPLETION_LENGTH) == (512, 256)
    assert (rl_lengths("TRL").prompt, rl_lengths("TRL").completion) == (512, 256)


def test_generation_batch_stated_first_then_the_tools_default():
    assert generation_batch(_req(training_tool="TRL")) == GenerationBatch(8.0, 0.0, True)
    assert generation_batch(_req(training_tool="ms-swift")) == GenerationBatch(1.0, 0.0, True)
    # stated accumulation × micro-batch (TRL's steps_per_generation defaults to the accumulation)
    assert generation_batch(_req(training_tool="TRL", batch_size=2, gradient_accumulation=4)).per_rank == 8
    assert generation_batch(_req(training_tool="TRL", gradient_accumulation=4)).per_rank == 32  # 8 × 4
    assert generation_batch(_req(training_tool="TRL", batch_size=4)) == GenerationBatch(4.0)
    assert generation_batch(_req(training_tool="TRL", global_batch=64)) == GenerationBatch(0.0, 64.0)


def test_a_stated_global_batch_is_shared_by_the_plans_data_parallel_ranks():
    setup = TrainingSetup(method=Method.lora, algorithm=Algorithm.grpo, seq_len=2048, generation_step=64)
    assert sequences_per_rank(setup, _layout(8)) == 8  # 64 / 8
    assert sequences_per_rank(setup, _layout(4)) == 16  # the plan's DP, not the user's GPU count
    _, kv = generation_parts(QWEN32, PARAMS, setup, _layout(4))
    assert kv == pytest.approx(16 * 2048 * KV_PER_TOKEN)  # no generation context: the sequence length


def test_the_kv_cache_is_at_the_rollouts_own_length():
    setup = TrainingSetup(
        method=Method.lora,
        algorithm=Algorithm.grpo,
        seq_len=2048,
        generation_sequences=8,
        generation_context=768,
    )
    assert generation_parts(QWEN32, PARAMS, setup, _layout(8))[1] == pytest.approx(8 * 768 * KV_PER_TOKEN)
    assert sum(rollout_lengths(_req(training_tool="TRL"))) == 768  # 512 + 256
    assert rollout_lengths(_req(training_tool="TRL", max_completion_length=1024, seq_len=1536)) == (512, 1024)


def test_en069_trl_defaults_make_the_kv_cache_8_sequences_of_768_tokens():
    """en-069 (working split): TRL GRPO, LoRA, generic 32B, ZeRO-3 on 8 × H100, '--use-vllm False', no batch
    nor length stated: 8 sequences (per_device_train_batch_size) × 768 tokens (512 + 256) per GPU, not 16
    (the SFT default global batch 128 ÷ 8 GPUs) × 2,048 tokens (s26's figure: 8.1 GiB)."""
    text = (
        "GRPO with LoRA on a 32B model still OOMs on 8*H100 with accelerate --config_file "
        "accelerate_configs/zero3_offload.yaml --num_processes=8, --use-vllm False, --num-generations 16, "
        "--vllm-gpu-memory-utilization 0.4, --num-train-epochs 1."
    )
    data = answer_json(text)
    shape = data["report"]["model_shape"]
    per_token = 2 * shape["layers"] * shape["kv_heads"] * shape["hidden"] // shape["heads"] * 2
    assert data["report"]["memory"]["breakdown"]["kv_cache"] == pytest.approx(8 * 768 * per_token)
    said = {a["field"]: (a["value"], a["why"]) for a in data["assumptions"]}
    assert said["rollout_completions_per_gpu"] == (8, "trainer_generation_batch")
    assert said["generation_context"] == (768, "trainer_generation_context")
    # a stated per-device batch and completion length are used as given, nothing assumed
    stated = answer_json(text + " --per_device_train_batch_size 4 --max_completion_length 1024")
    assert stated["report"]["memory"]["breakdown"]["kv_cache"] == pytest.approx(4 * (512 + 1024) * per_token)
    fields = {a["field"] for a in stated["assumptions"]}
    assert "rollout_completions_per_gpu" not in fields and "generation_context" not in fields
