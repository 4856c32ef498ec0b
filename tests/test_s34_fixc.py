"""s34 fixc: findings of a fresh-user trial of the merged tree.

#1 Gradients with gradient accumulation: one process at ZeRO-0 (the HF Trainer without DeepSpeed) zeroes the
gradients only after the optimizer step (transformers trainer.py
``_inner_training_loop``: ``optimizer.step()``
then ``model.zero_grad()`` under ``do_sync_step``), so while it accumulates every fp32 ``.grad`` is held at
the loss's peak: 4 B/param, not the late-gradient credit (estimator.late_gradients)."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask
from estimator.late_gradients import accumulated_gradients, accumulates, late_gradients
from estimator.setup import Layout, TrainingSetup

LLAMA_1B = 1.24e9  # meta-llama/Llama-3.2-1B, the catalog's parameter count (request.params_total)


def _report(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


@pytest.mark.parametrize(
    "text",
    ["full fine-tune Llama-3.2-1B on one RTX 4090", "全参微调 Llama-3.2-1B，一张 4090"],
)
def test_accumulating_on_one_gpu_holds_fp32_gradients(text: str) -> None:
    """The trial's question: 128 sequences a step at micro-batch 1 → 128 micro-batches; the fp32 gradients
    (4 B × 1.24B = 4.96e9 B = 4.6 GiB) are held: 18 B/param + activations + logits ≈ 25 GiB on a 24 GiB
    card, no longer 'fits ≈ 20.5 GiB'."""
    out = _report(text)
    mem = out["report"]["memory"]
    assert out["request"]["params_total"] == LLAMA_1B
    assert mem["plan"]["gradient_accumulation"] == 128 and mem["plan"]["dp"] == 1
    assert mem["breakdown"]["gradients"] == pytest.approx(4 * LLAMA_1B)
    assert out["report"]["feasible"] == "no"


@pytest.mark.parametrize(
    "text",
    [
        "full fine-tune Llama-3.2-1B on one RTX 4090, gradient accumulation 1",
        "全参微调 Llama-3.2-1B，一张 4090，梯度累积 1",
        "full fine-tune Llama-3.2-1B on one H100, global batch 4, micro batch 4",
    ],
)
def test_one_micro_batch_a_step_keeps_the_late_gradients(text: str) -> None:
    """One micro-batch a step (stated, or a global batch of one micro-batch): the gradients are made in the
    backward, none held at the loss's peak (the s25 credit, measured on one H200)."""
    mem = _report(text)["report"]["memory"]
    assert mem["plan"]["gradient_accumulation"] == 1
    assert mem["breakdown"]["gradients"] == 0.0


@pytest.mark.parametrize(
    "text",
    ["full fine-tune Llama-3.2-1B on one RTX 4090, pure bf16", "全参微调 Llama-3.2-1B，一张 4090，纯 bf16"],
)
def test_pure_bf16_accumulates_bf16_gradients(text: str) -> None:
    """Without master weights the parameters and their gradients are bf16: 2 B/param held."""
    mem = _report(text)["report"]["memory"]
    assert mem["plan"]["gradient_accumulation"] == 128
    assert mem["breakdown"]["gradients"] == pytest.approx(2 * LLAMA_1B)


def test_deepspeed_gradients_are_its_partitions_whatever_the_accumulation() -> None:
    """ZeRO-2 on 2 GPUs: the gradient partition 2 B × 1.24B / 2, allocated at start, accumulation or not."""
    mem = _report("full fine-tune Llama-3.2-1B on 2 RTX 4090, deepspeed zero2")["report"]["memory"]
    assert mem["plan"]["gradient_accumulation"] == 64 and mem["plan"]["zero_stage"] == 2
    assert mem["breakdown"]["gradients"] == pytest.approx(2 * LLAMA_1B / 2)


def test_accumulates_rounds_as_the_plan_does() -> None:
    """estimator.plan_batch.with_batch: accumulation = round(global / (micro × DP)), at least 1; a stated
    accumulation wins."""
    assert accumulates(TrainingSetup(step_sequences=128), 1)
    assert not accumulates(TrainingSetup(step_sequences=128), 128)
    assert accumulates(TrainingSetup(step_sequences=3), 2)  # round(1.5) = 2
    assert not accumulates(TrainingSetup(step_sequences=5), 4)  # round(1.25) = 1
    assert not accumulates(TrainingSetup(step_sequences=128, accumulation=1), 1)
    assert accumulates(TrainingSetup(step_sequences=0, accumulation=4), 8)
    assert not accumulates(TrainingSetup(), 1)  # no step known: nothing held


def test_the_credit_and_the_fp32_gradients_exclude_each_other() -> None:
    one = Layout(1, 1, 1, 0, "full", 1, False)
    acc, single = TrainingSetup(step_sequences=128), TrainingSetup(step_sequences=1)
    assert late_gradients(acc, one, 1e9) == 0.0 and accumulated_gradients(acc, one, 1e9) == 2e9
    assert late_gradients(single, one, 1e9) == 2e9 and accumulated_gradients(single, one, 1e9) == 0.0
    ddp = Layout(1, 1, 2, 0, "full", 1, False)  # DDP's buckets hold the gradients already: not this rule
    assert accumulated_gradients(acc, ddp, 1e9) == 0.0
    assert accumulated_gradients(TrainingSetup(step_sequences=128, master_weights=False), one, 1e9) == 0.0


# #2 A headline that contradicts itself: a LoRA run's CPU offload under a stated DeepSpeed ZeRO-1/2 is
# offload_optimizer only (DeepSpeed config docs: offload_param "available only with ZeRO stage 3"), so the
# frozen bf16 base stays on every GPU at every count — the minimum search no longer counts one GPU's base
# as offloaded (it said 'does not fit on 2 (needs at least 1)').
QWEN_32B = 32.5e9  # Qwen/Qwen2.5-32B: 32.5B parameters (model card), the catalog's params_total


@pytest.mark.parametrize(
    "text",
    [
        "deepspeed zero2 + offload 训 qwen2.5-32b lora, 2卡A800 40g 能行不",
        "LoRA fine-tune Qwen2.5-32B with DeepSpeed ZeRO-2 and CPU offload on 2 A800 40GB, will it work?",
    ],
)
def test_zero2_offload_keeps_the_lora_base_on_the_gpu_at_every_count(text: str) -> None:
    out = _report(text)
    mem = out["report"]["memory"]
    assert out["request"]["params_total"] == QWEN_32B
    assert mem["plan"]["zero_stage"] == 2 and mem["plan"]["offload"] is True
    assert mem["breakdown"]["weights"] == pytest.approx(2 * QWEN_32B)  # 65 GB of bf16 base > 40 GB
    assert mem["fits_requested"] is False and mem["min_gpus"] is None  # no count holds it at ZeRO-2
    zero3 = next(a for a in mem["alternatives"] if a["change"] == "zero3")
    assert zero3["min_gpus"] == 1  # FSDP / ZeRO-3 offload_param: the base in host RAM
    head = ask(text, None, "text")[0].splitlines()[0]
    assert "至少要 1 张" not in head and "at least 1" not in head


def test_fsdp_offload_of_a_lora_run_still_offloads_the_base() -> None:
    """FSDP CPUOffload(offload_params=True) (estimator.adapter_offload): the base in host RAM, one GPU."""
    mem = _report("LoRA fine-tune Qwen2.5-32B with CPU offload on 1 A800 40GB")["report"]["memory"]
    assert mem["breakdown"]["weights"] == 0.0 and mem["fits_requested"] is True
