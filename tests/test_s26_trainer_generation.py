"""s26-verd: an RL trainer that generates its own rollouts under ZeRO-3 gathers the whole policy on every GPU
(TRL ``ds3_gather_for_generation``, default True; estimator.trainer_generation), and the readings that hid it
in a working thread (en-069: '--use-vllm False … --num-generations 16, --vllm-gpu-memory-utilization 0.4')."""

from __future__ import annotations

import pytest

from bot.parse import parse
from estimator.catalog import model
from estimator.models import Algorithm, Method
from estimator.setup import Layout, TrainingSetup
from estimator.trainer_generation import generation_bytes
from tests.real_questions import answer_json

QWEN32 = model("Qwen2.5-32B")
PARAMS = 32.76e9
KV_PER_TOKEN = 64 * 2 * 8 * 128 * 2  # layers × (K, V) × KV heads × head dim 5120/40 × 2 bytes = 262,144


def _setup(sequences: float, **kw) -> TrainingSetup:
    return TrainingSetup(
        method=Method.lora, algorithm=Algorithm.grpo, seq_len=768, generation_sequences=sequences, **kw
    )


def _layout(dp: int, zero: int) -> Layout:
    return Layout(tp=1, pp=1, dp=dp, zero_stage=zero, recompute="selective", micro_batch=1, offload=False)


def test_zero3_generation_holds_the_whole_16_bit_model_and_its_kv_cache():
    # 2 bytes × 32.76e9 = 65.52e9 gathered, + 8 sequences × 768 tokens × 262,144 B = 1.61e9 of KV cache
    got = generation_bytes(QWEN32, PARAMS, _setup(8), _layout(8, 3))
    assert got == pytest.approx(2 * PARAMS + 8 * 768 * KV_PER_TOKEN)
    assert got == pytest.approx(67.13e9, rel=1e-3)


def test_no_gather_below_zero3_or_on_one_rank_only_the_generation_kv_cache():
    kv = 8 * 768 * KV_PER_TOKEN  # the whole 16-bit model is in the states already
    assert generation_bytes(QWEN32, PARAMS, _setup(8), _layout(8, 2)) == pytest.approx(kv)
    assert generation_bytes(QWEN32, PARAMS, _setup(8), _layout(1, 3)) == pytest.approx(kv)  # no second copy
    assert generation_bytes(QWEN32, PARAMS, _setup(0), _layout(8, 3)) == 0.0  # a vLLM engine generates


def test_quantized_base_gathers_its_stored_bytes():
    got = generation_bytes(QWEN32, PARAMS, _setup(1, base_bits=4.0), _layout(4, 3))
    assert got == pytest.approx(PARAMS * 0.5 + 768 * KV_PER_TOKEN)


def test_a_count_flag_is_not_also_the_completion_length():
    req = parse("GRPO with LoRA on a 32B model on 8*H100 with --num-generations 16").request
    assert req.num_generations == 16 and req.max_completion_length is None
    req = parse("GRPO, 8 rollouts, up to 1024 tokens, 7B LoRA on 8 H100").request
    assert req.num_generations == 8 and req.max_completion_length == 1024


def test_a_turned_off_engines_own_keys_do_not_name_it():
    text = "GRPO LoRA 32B on 8*H100 with TRL, zero3, --use-vllm False, --vllm-gpu-memory-utilization 0.4"
    req = parse(text).request
    assert req.runtime is None and req.rollout_gpu_memory_utilization is None  # TRL ignores vllm_* then
    assert req.gpu_memory_utilization == 0.4  # named as not used (a serving setting), never the rollout's
    assert parse("GRPO LoRA 32B on 8*H100 with TRL, zero3, --use_vllm true").request.runtime == "vLLM"


def test_en069_trl_grpo_zero3_without_vllm_is_borderline_on_8_h100():
    """s27-trgen: the generation KV cache at TRL's own batch and lengths (8 sequences × 768 tokens a GPU,
    tests/test_s27_trainer_generation_batch.py) instead of 16 × 2,048: 75.7 GiB likely, 81.4 GiB at the high
    end of an 80 GiB card — "borderline" (s26: 82.9 GiB, "does not fit"); the gathered bf16 model stays."""
    text = (
        "GRPO with LoRA on a 32B model still OOMs on 8*H100 with accelerate --config_file "
        "accelerate_configs/zero3_offload.yaml --num_processes=8, --use-vllm False, --num-generations 16, "
        "--vllm-gpu-memory-utilization 0.4, --num-train-epochs 1. Is each GPU loading a whole copy of the "
        "model?"
    )
    report = answer_json(text)["report"]
    first = report["warnings"][0]
    # s34 (stack, fixe): TRL's accelerate_configs/zero3_offload.yaml sets offload_param_device cpu, so the
    # frozen base's ZeRO-3 shards (32e9 × 2 B ÷ 8 = 8 GB) now sit in host RAM, not on the GPU: 75.7 -> 67.9
    # GiB likely, 72.4 at the high end: the estimate fits where their run failed, said so (count_failed_fit)
    assert first["code"] == "count_failed_fit" and first["params"]["gpu_count"] == 8
    assert first["params"]["feasible"] == "borderline" and first["params"]["next_gpus"] == 16
    assert (
        first["params"]["per_gpu_gib"] == pytest.approx(67.95, abs=0.01) and first["params"]["high_gib"] < 80
    )
    # the peak is the generation: the whole 32B in bf16 (32e9 × 2 bytes) and its KV cache, no activations
    parts = report["memory"]["breakdown"]
    assert parts["gathered_weights"] == pytest.approx(64e9) and parts["kv_cache"] > 0
    assert parts.get("activations", 0.0) == 0.0
    assert sum(parts.values()) == pytest.approx(report["memory"]["per_gpu_bytes"])
    # with a vLLM engine generating instead, nothing is gathered for generation
    on = answer_json(text.replace("--use-vllm False", "--use-vllm True"))["report"]["memory"]["breakdown"]
    assert on["gathered_weights"] < 2.5 * 2**30
