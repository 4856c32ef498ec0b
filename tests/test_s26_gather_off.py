"""s26-verd2: a stated ``ds3_gather_for_generation: false`` (TRL GRPOConfig / ms-swift, default True:
trl/trainer/grpo_config.py, swift/trainers/arguments.py) is read, drops the whole-policy gather of the RL
trainer's own generation (estimator.trainer_generation), and is the change the fit-change search offers
first when that gather is what does not fit (estimator.fit_change, setting 'gather_for_generation')."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.parse import parse
from estimator.catalog import model
from estimator.models import Algorithm, Method
from estimator.setup import Layout, TrainingSetup
from estimator.trainer_generation import generation_parts
from tests.real_questions import answer_json

QWEN32 = model("Qwen2.5-32B")
PARAMS = 32.76e9
KV_PER_TOKEN = 64 * 2 * 8 * 128 * 2  # layers × (K, V) × KV heads × head dim × 2 bytes = 262,144
EN = (
    "GRPO with LoRA on a 32B model with TRL on 8*H100, accelerate zero3, --use_vllm false, "
    "--num_generations 16{extra}. Does it fit?"
)
ZH = (
    "用 TRL 做 GRPO，LoRA 微调 32B 模型，8 张 H100，zero3，--use_vllm false，"
    "--num_generations 16{extra}。会不会 OOM？"
)
OFF = ", --ds3_gather_for_generation false"


def answer_text(text: str) -> str:
    from bot.cli import ask

    return ask(text, None, "text")[0]


ZERO3_LIVE_BYTES = 1e9 * 2  # DeepSpeed stage3_max_live_parameters default 1e9 elements × 2 bytes (bf16)


def test_gather_off_leaves_only_the_generation_kv_cache():
    setup = TrainingSetup(method=Method.lora, algorithm=Algorithm.grpo, seq_len=768, generation_sequences=8)
    layout = Layout(tp=1, pp=1, dp=8, zero_stage=3, recompute="selective", micro_batch=1, offload=False)
    kv = 8 * 768 * KV_PER_TOKEN  # 1.61e9 bytes
    assert generation_parts(QWEN32, PARAMS, setup, layout) == pytest.approx((2 * PARAMS, kv))
    off = replace(setup, gather_for_generation=False)
    assert generation_parts(QWEN32, PARAMS, off, layout) == pytest.approx((0.0, kv))


@pytest.mark.parametrize(
    "text, want",
    [
        (EN.format(extra=OFF), False),
        (EN.format(extra=", --ds3_gather_for_generation true"), True),
        (EN.format(extra=""), None),
        (ZH.format(extra=OFF), False),
        (
            "swift rlhf --rlhf_type grpo --model Qwen/Qwen2.5-32B-Instruct --train_type lora "
            "--deepspeed zero3 --use_vllm false --num_generations 8 "
            "--ds3_gather_for_generation false，8 张 A100 80G 够吗？",
            False,
        ),
    ],
)
def test_the_setting_is_read_from_trl_and_ms_swift_flags(text, want):
    assert parse(text).request.ds3_gather_for_generation is want


def test_en_gather_off_fits_8_h100_without_the_gathered_policy():
    report = answer_json(EN.format(extra=OFF))["report"]
    parts = report["memory"]["breakdown"]
    # only ZeRO-3's usual live-parameter window is gathered, not the 32B policy (64e9 bytes in bf16)
    assert parts["gathered_weights"] <= ZERO3_LIVE_BYTES * (1 + 1e-9)
    assert "kv_cache" not in parts and report["feasible"] == "yes"
    text = answer_text(EN.format(extra=OFF))
    assert "generation without the ZeRO-3 gather" in text.splitlines()[0]


def test_en_gathered_run_is_offered_gather_off_first():
    memory = answer_json(EN.format(extra=""))["report"]["memory"]
    assert memory["breakdown"]["gathered_weights"] == pytest.approx(64e9)  # 32e9 generic params × 2 bytes
    first = memory["fit_change"][0]
    assert first["setting"] == "gather_for_generation" and first["value"] is False
    assert first["per_gpu_bytes_high"] < 80 * 2**30
    assert "ds3_gather_for_generation: false" in answer_text(EN.format(extra=""))


def test_zh_gathered_run_is_offered_gather_off_and_the_stated_setting_echoed():
    text = answer_text(ZH.format(extra=""))
    assert "生成时不在 ZeRO-3 下聚合整个模型（ds3_gather_for_generation: false）" in text
    off = answer_text(ZH.format(extra=OFF))
    assert "生成时不做 ZeRO-3 权重聚合" in off.splitlines()[0] and "放得下" in off.splitlines()[0]
