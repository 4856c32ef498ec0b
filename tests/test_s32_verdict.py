"""Session 32, verdicts against real runs: the memory terms behind "fits" for a long-sequence,
large-vocabulary fine-tune, pinned on a hand computation from the model's config, in both languages.

Meta-Llama-3-8B ``config.json`` (meta-llama/Meta-Llama-3-8B): ``vocab_size`` 128,256, ``hidden_size``
4,096. One micro-batch of 2 sequences of 8,192 tokens produces 2 × 8,192 × 128,256 = 2,101,346,304
logits. The loss upcasts them to fp32 (transformers ≥ 4.46 ``ForCausalLMLoss``: ``logits =
logits.float()``, transformers/loss/loss_utils.py; PyTorch autocast runs ``log_softmax`` in fp32):
the fp32 copy alone is 4 × 2,101,346,304 = 8,405,385,216 bytes (7.83 GiB), and the backward of the
log-softmax holds its saved output, the incoming and the outgoing gradient, 4 bytes each: 12 bytes a
logit, 25,216,155,648 bytes (23.48 GiB) likely; 10 (forward) to 16 (the allocator still holding the
shifted copy and accelerate's fp32 outputs) a logit for the band (estimator.transients
``FP32_LOSS_BYTES_PER_LOGIT``). Liger Kernel's fused linear cross-entropy never holds the whole
vocabulary's fp32 logits (linkedin/Liger-Kernel src/liger_kernel/ops/fused_linear_cross_entropy.py:
chunk by chunk): 2 + 4/8 bytes a logit (estimator.transients ``CHUNKED_LOSS_BYTES_PER_LOGIT``),
5,253,365,760 bytes. Without gradient checkpointing (``gradient_checkpointing False``, the Trainer's
default) every layer's saved tensors stay (estimator.eager_activations) and one H100 80GB no longer
holds the run.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.models import Algorithm, Plan
from estimator.setup import TrainingSetup
from estimator.transients import loss_bytes

GIB = 2**30
LOGITS = 2 * 8192 * 128_256
"""Logits of one micro-batch: 2 sequences × 8,192 tokens × Llama 3's 128,256-entry vocabulary."""
assert LOGITS == 2_101_346_304


def _ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, "--", question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def test_llama3_8b_loss_bytes_are_the_hand_computation():
    spec = catalog.model("Llama-3-8B")
    assert spec.vocab == 128_256
    span = loss_bytes(spec, TrainingSetup(seq_len=8192), Plan(micro_batch=2))
    assert 4 * LOGITS == 8_405_385_216  # the fp32 copy alone: 7.83 GiB
    assert span.likely == 12 * LOGITS == 25_216_155_648
    assert (span.low, span.high) == (10 * LOGITS, 16 * LOGITS)
    assert round(span.likely / GIB, 2) == 23.48


def test_a_chunked_loss_and_dpo_pairs_move_the_logits_by_their_factor():
    spec = catalog.model("Llama-3-8B")
    liger = loss_bytes(spec, TrainingSetup(seq_len=8192, chunked_loss=True), Plan(micro_batch=2))
    assert liger.likely == 2.5 * LOGITS == 5_253_365_760
    dpo = loss_bytes(spec, TrainingSetup(seq_len=8192, algorithm=Algorithm.dpo), Plan(micro_batch=1))
    assert dpo.likely == 12 * LOGITS  # chosen + rejected of one example: 2 sequences
    tp2 = loss_bytes(spec, TrainingSetup(seq_len=8192), Plan(micro_batch=2, tp=2))
    assert tp2.likely == 6 * LOGITS  # the vocabulary split over TP 2


ASKED = [
    "LoRA fine-tune Llama-3-8B on one H100 80GB, seq 8192, micro batch 2: does it fit?",
    "用一张 H100 80G 对 Llama-3-8B 做 LoRA 微调，序列长度 8192，batch 2，显存够吗？",
]


@pytest.mark.parametrize("question", ASKED)
def test_the_reply_carries_the_logits_and_calls_the_run_borderline(capsys, question):
    """Likely 46.3 GiB per GPU of 80 (full recompute), of which the loss's logits are 23.5 GiB: the
    band's high end (99.3 GiB, 16 bytes a logit) is above the card, so the verdict is "borderline",
    never "fits"."""
    answer = _ask(capsys, question)
    memory = answer["report"]["memory"]
    assert answer["request"]["seq_len"] == 8192 and answer["request"]["batch_size"] == 2
    assert memory["breakdown"]["logits"] == 12 * LOGITS
    assert answer["report"]["feasible"] == "borderline"
    assert memory["per_gpu_bytes_high"] > memory["usable_bytes"] > memory["per_gpu_bytes"]
    text = _ask(capsys, question, "text")
    label = "词表输出" if question.startswith("用") else "logits"
    assert any(label in line and "23.5 GiB" in line for line in text.splitlines())


NO_CHECKPOINTING = [
    "LoRA fine-tune Llama-3-8B on one H100 80GB, seq 8192, micro batch 2, gradient_checkpointing False: "
    "does it fit?",
    "用一张 H100 80G 对 Llama-3-8B 做 LoRA 微调，序列长度 8192，batch 2，不开梯度检查点，显存够吗？",
]


@pytest.mark.parametrize("question", NO_CHECKPOINTING)
def test_gradient_checkpointing_off_is_read_and_does_not_fit(capsys, question):
    """Checkpointing off keeps every layer's saved tensors for 16,384 tokens: the activations alone
    exceed the card, "does not fit" at the count asked (the plan keeps what was stated)."""
    answer = _ask(capsys, question)
    memory = answer["report"]["memory"]
    assert answer["request"]["recompute"] == "none"
    assert memory["plan"]["recompute"] == "none"
    assert memory["breakdown"]["logits"] == 12 * LOGITS
    assert memory["breakdown"]["activations"] > memory["usable_bytes"] == 80 * GIB
    assert answer["report"]["feasible"] == "no"


def test_liger_kernel_stated_is_read_and_fits(capsys):
    question = "LoRA fine-tune Llama-3-8B on one H100 80GB, seq 8192, micro batch 2, with Liger kernel"
    answer = _ask(capsys, question)
    memory = answer["report"]["memory"]
    assert answer["request"]["chunked_loss"] is True
    assert memory["breakdown"]["logits"] == 2.5 * LOGITS
    assert answer["report"]["feasible"] == "yes"
    assert memory["per_gpu_bytes_high"] < memory["usable_bytes"]
