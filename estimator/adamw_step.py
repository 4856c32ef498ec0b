"""The temporaries of AdamW's step without ZeRO, by implementation (one job: shared by
:func:`estimator.transients.step_bytes` and :class:`estimator.layout_table.DenseTable`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.setup import TrainingSetup


def zero0_step(setup: TrainingSetup, trained: float) -> tuple[float, float, float]:
    """(low, likely, high) bytes AdamW's step adds on top of the model states at ZeRO-0, for ``trained``
    parameters on this GPU.

    torch's foreach AdamW (``torch.optim.AdamW`` on CUDA without ``fused``: torch/optim/optimizer.py
    ``_default_to_fused_or_foreach``; HF ``optim="adamw_torch"``) computes ``exp_avg_sq_sqrt =
    torch._foreach_sqrt(device_exp_avg_sqs)`` (torch/optim/adam.py ``_multi_tensor_adam``): a copy of the
    second moments, 4 bytes per parameter with fp32 states, 2 in pure bf16. ``fused=True``
    (``adamw_torch_fused``, the Hugging Face Trainer's default on torch ≥ 2.8: transformers/
    training_args.py) updates in one kernel with no such copy. Measured on an H200 (bench/device/
    RESULTS.md): Qwen2.5-3B full fine-tuning 47.2 GiB allocated fused, 57.6 GiB foreach (+10.3 GiB for
    3.09B parameters). Stated foreach: the copy at every end; stated fused: none; unstated: fused likely,
    foreach high."""
    per = (4.0 if setup.master_weights else 2.0) * trained
    if setup.adamw_impl == "foreach":
        return (per, per, per)
    if setup.adamw_impl == "fused":
        return (0.0, 0.0, 0.0)
    return (0.0, 0.0, per)
