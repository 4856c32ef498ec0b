"""OpenRLHF's rollout batch, read in OpenRLHF's own units (s32 left item 1).

OpenRLHF's PPO/GRPO launcher (openrlhf/cli/train_ppo_ray.py @021d1b0, OpenRLHF/OpenRLHF) counts two
batches in two units:

* ``--rollout_batch_size`` (default 1024, "Batch size for make experience") counts **prompts**; each is
  sampled ``--n_samples_per_prompt`` times (default 1, "number of responses for each prompt in
  generation"), and its vLLM engines generate them together (``vllm_generate_batch_size`` defaults to
  ``rollout_batch_size``): rollout_batch_size × n_samples_per_prompt responses a rollout;
* ``--train_batch_size`` (default 128, "Global training batch size") counts **responses**: one optimizer
  step's sequences over all the actor's GPUs (the request's ``global_batch``, used as stated), so one
  rollout is trained in (rollout_batch_size × n) ÷ train_batch_size steps.

verl counts both in prompts (``data.train_batch_size`` × ``rollout.n``: :mod:`estimator.rollout`); the
reply says which unit each number was read in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from estimator.training_tools import tool_limits

if TYPE_CHECKING:
    from estimator.ledger import Ledger
    from estimator.models import SizingRequest


def rollout_sequences(req: SizingRequest, per_prompt: int) -> int | None:
    """Responses one rollout decodes at once: the stated ``rollout_batch`` prompts × ``per_prompt``
    samples (OpenRLHF, module doc); None when no rollout batch was stated."""
    return int(req.rollout_batch) * per_prompt if req.rollout_batch else None


def note_rollout_batch(req: SizingRequest, per_prompt: int, ledger: Ledger) -> None:
    """Say the units the rollout batch was read in (note ``rollout_batch_prompts``): prompts × samples =
    responses a rollout and, with a stated ``global_batch`` (responses a step; note ``rollout_batch_steps``),
    the training steps of one rollout, rounded up. Nothing when no rollout batch was stated, or where it is
    not used (a whole-step tool, verl, on a GPU count: its own batch is decoded, s32 fixf 1)."""
    sequences = rollout_sequences(req, per_prompt)
    tool = tool_limits(req.training_tool)
    if sequences is None or (tool is not None and tool.whole_step_rollout and req.gpu_count):
        return  # verl decodes its data.train_batch_size, not this (estimator.rollout._completions_per_gpu)
    prompts = int(req.rollout_batch or 0)
    if not req.global_batch:
        ledger.note("rollout_batch_prompts", prompts=prompts, responses=per_prompt, sequences=sequences)
        return
    train = int(req.global_batch)
    steps = -(-sequences // train)  # whole steps, the last one short
    ledger.note(
        "rollout_batch_steps",
        prompts=prompts,
        responses=per_prompt,
        sequences=sequences,
        train_batch=train,
        steps=steps,
    )
