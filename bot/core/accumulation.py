"""The gradient accumulation asked with no model named (session 32 fixb #1).

'batch size 256 on 4 A100, how much gradient accumulation?', '4 张 A100 全局 batch 256，梯度累积设多少': a
step's global batch is micro-batch × accumulation × data-parallel GPUs (Hugging Face ``TrainingArguments``:
total train batch size = per_device_train_batch_size × gradient_accumulation_steps × world size;
DeepSpeed ``_batch_assertion``), so accumulation = global batch ÷ (GPUs × micro-batch). Which micro-batch
fits depends on the model and the sequence length, so with no model the answer is the formula on their
figures at a few micro-batches, and the model is asked for. Before, the English question was read as a
GPU-hour price and the Chinese one got the help."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse import ParseResult

ACCUMULATION_ASKED = "accumulation_asked"
"""ParseResult note: the message asks for the gradient accumulation beside a global batch
(:data:`bot.parse.accum_asked.ACCUM_ASKED_RE`)."""
MICRO_BATCHES = (1, 2, 4, 8)
"""Micro-batches (sequences per GPU per forward pass) shown: 1 is the memory-minimal choice."""


@dataclass(frozen=True, slots=True)
class Accumulation:
    """``global_batch`` on ``gpus`` × ``gpu`` (None: no card named): (micro-batch, accumulation) pairs
    that reach it exactly."""

    global_batch: int
    gpus: int
    gpu: str | None
    rows: tuple[tuple[int, int], ...]


def accumulation(parsed: ParseResult) -> Accumulation | None:
    """The accumulation on the user's figures (module doc), or None: not asked, a model named, no GPU
    count or global batch, or no micro-batch of :data:`MICRO_BATCHES` divides the batch per GPU."""
    req = parsed.request
    if ACCUMULATION_ASKED not in parsed.notes or req.model or req.params_total or req.architecture:
        return None
    batch, gpus = req.global_batch, req.gpu_count
    if not batch or not gpus or batch % gpus:
        return None
    per_gpu = batch // gpus
    rows = tuple((m, per_gpu // m) for m in MICRO_BATCHES if per_gpu % m == 0)
    if not rows:
        return None
    gpu = None
    if req.gpu:
        from bot.core.actions import gpu_label  # 'A100 80G'

        gpu = gpu_label(req.gpu)
    return Accumulation(int(batch), int(gpus), gpu, rows)
