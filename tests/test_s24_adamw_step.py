"""Session 24: fused AdamW is the likely optimizer step at ZeRO-0, foreach the high end, and a stated
implementation (HF ``optim: adamw_torch`` / ``adamw_torch_fused``, in a config or in prose, English and
Chinese) sizes its own step at every end (estimator.adamw_step; transformers/training_args.py
``OptimizerNames``; torch/optim/adam.py ``_multi_tensor_adam``'s ``_foreach_sqrt`` copy of the second
moments). Device evidence: bench/device/RESULTS.md, tests/test_device_memory.py."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from bot.parse import parse
from estimator.adamw_step import zero0_step
from estimator.setup import TrainingSetup

GIB = 2**30
SEVEN_B = 7.61e9  # Qwen2.5-7B (config.json; model card 7.61B)


@pytest.mark.parametrize(
    ("impl", "bf16", "expected"),
    [
        (None, False, (0.0, 0.0, 4 * SEVEN_B)),  # unstated: fused likely, foreach's fp32 copy high
        ("foreach", False, (4 * SEVEN_B,) * 3),  # fp32 second moments copied: 4 B/param
        ("fused", False, (0.0, 0.0, 0.0)),
        ("foreach", True, (2 * SEVEN_B,) * 3),  # pure bf16 states: the copy is bf16, 2 B/param
    ],
)
def test_the_step_s_temporaries_by_implementation(impl, bf16, expected) -> None:
    setup = TrainingSetup(adamw_impl=impl, master_weights=not bf16)
    assert zero0_step(setup, SEVEN_B) == expected


@pytest.mark.parametrize(
    ("text", "impl"),
    [
        ("full fine-tune Qwen2.5-7B on 1 H200, optim adamw_torch, seq 2048", "foreach"),
        ("full fine-tune Qwen2.5-7B on 1 H200 with optim=adamw_torch_fused, seq 2048", "fused"),
        ("Qwen2.5-7B 全参微调，1 张 H200，用 adamw_torch 优化器，seq 2048，显存够吗", "foreach"),
        ("Qwen2.5-7B 全参微调，1 张 H200，优化器 adamw_torch_fused，显存够吗", "fused"),
        ("full fine-tune Qwen2.5-7B on 1 H200 with AdamW, seq 2048", None),  # AdamW: which one not said
    ],
)
def test_a_named_implementation_is_read_from_prose(text: str, impl: str | None) -> None:
    request = parse(text).request
    assert request.optimizer == "adamw"
    assert request.optimizer_impl == impl


def test_a_llama_factory_config_s_optim_names_the_step() -> None:
    text = (
        "Will this fit on one H200?\n"
        "model_name_or_path: Qwen/Qwen2.5-7B\nstage: sft\nfinetuning_type: full\n"
        "per_device_train_batch_size: 1\ncutoff_len: 2048\noptim: adamw_torch\nbf16: true\n"
    )
    request = parse(text).request
    assert (request.optimizer, request.optimizer_impl) == ("adamw", "foreach")


def _memory(question: str) -> tuple[str, float, float, float]:
    report = json.loads(ask(question, "en", "json")[0])["report"]
    mem = report["memory"]
    return (
        report["feasible"],
        *(mem[k] / GIB for k in ("per_gpu_bytes_low", "per_gpu_bytes", "per_gpu_bytes_high")),
    )


def test_foreach_stated_is_told_no_where_it_ran_out_of_memory() -> None:
    """Qwen2.5-7B full fine-tuning, seq 512, on one H200: foreach AdamW ran out of 139.8 GiB (bench/device
    h200_full_foreach.json); stated, its likely and low keep the copy: 7.61B × (16 + 4) B = 141.7 GiB."""
    base = (
        "full fine-tune Qwen2.5-7B on 1 H200, seq 512, micro batch 1, gradient checkpointing on, "
        "no deepspeed, gradient accumulation 1"
    )
    verdict, low, likely, _ = _memory(base + ", optim adamw_torch")
    assert verdict == "no"
    assert 7.61e9 * 20 / GIB <= low <= likely
    verdict, low, likely, high = _memory(base + ", optim adamw_torch_fused")  # ran at 120.3 GiB reserved
    assert verdict in ("yes", "borderline") and low <= 120.3 <= high
    assert likely < 7.61e9 * 20 / GIB
