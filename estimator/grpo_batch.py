"""TRL's check of a GRPO step against ``num_generations`` (session 34, issue 24 item 3).

huggingface/trl ``trl/trainer/grpo_config.py`` ``GRPOConfig.__post_init__``::

    self.generation_batch_size = self.per_device_train_batch_size * num_processes * self.steps_per_generation
    ...
    if self.generation_batch_size % self.num_generations != 0:
        raise ValueError(f"generation_batch_size ({self.generation_batch_size}) must be divisible by "
                         f"num_generations ({self.num_generations}).")

``steps_per_generation`` defaults to ``gradient_accumulation_steps`` (the same file), so the batch checked
is the step's: per-device batch × GPUs × accumulation, the global batch. ms-swift's GRPO runs TRL's
``GRPOTrainer`` with the same config (swift/trainers/rlhf_trainer/grpo_trainer.py). Unsloth raises the
per-device batch itself (bot.parse.steps.unsloth_micro); verl and OpenRLHF count prompts, not completions.
Pure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from estimator.request import Algorithm

if TYPE_CHECKING:
    from estimator.ledger import Ledger
    from estimator.request import SizingRequest

TRL_CHECKED = frozenset({"TRL", "ms-swift"})
"""Tools whose GRPO step is TRL's ``GRPOConfig`` (or none named, with TRL's ``num_generations`` said)."""


def generation_batch(req: SizingRequest) -> int | None:
    """The completions one TRL GRPO step generates as stated: the global batch, else per-device batch ×
    GPUs × accumulation (1 unless stated); None when a factor is not stated."""
    if req.global_batch:
        return int(req.global_batch)
    if req.batch_size and req.gpu_count:
        return int(req.batch_size) * int(req.gpu_count) * int(req.gradient_accumulation or 1)
    return None


def check_generation_batch(req: SizingRequest, ledger: Ledger) -> None:
    """Note 'grpo_batch_not_divisible' when a TRL GRPO step is not a multiple of ``num_generations``: TRL
    raises before training (module docstring); the note gives the next step up that is a multiple of both
    ``num_generations`` and the GPU count (16 on 8 GPUs with 6 generations: 24)."""
    tool = req.training_tool
    if req.algorithm != Algorithm.grpo or not req.num_generations or (tool and tool not in TRL_CHECKED):
        return
    batch, per_prompt = generation_batch(req), int(req.num_generations)
    if batch is None or per_prompt < 1 or batch % per_prompt == 0:
        return
    unit = math.lcm(per_prompt, int(req.gpu_count or 1))  # a step is per-device × GPUs × accumulation
    fixed = -(-batch // unit) * unit
    ledger.note("grpo_batch_not_divisible", batch=batch, num_generations=per_prompt, next_batch=fixed)
