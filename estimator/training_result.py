"""What the training branch returns (:class:`TrainingResult`): the report fields it computed and the
request fields it filled. Split from :mod:`estimator.training` (which re-exports it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from estimator.catalog import ModelSpec
from estimator.models import (
    Band,
    Checkpoint,
    Cost,
    Currency,
    DaysRow,
    Memory,
    Method,
    MethodRow,
    PredictionInterval,
    Rollout,
)


@dataclass
class TrainingResult:
    """What the training branch adds to the report (SI units), and the request fields it filled."""

    method: Method | None = None
    params: float | None = None
    spec: ModelSpec | None = None
    tokens: float | None = None
    currency: Currency | None = None
    deadline_days: float | None = None
    mfu_likely: float | None = None
    seq_len: int | None = None
    batch_size: int | None = None
    sample_tokens: int | None = None
    """average tokens per sequence when below ``seq_len`` (SFT on a bare sample count: the time's 512
    against the memory's 2,048); None when the sequence length is the average too"""
    global_batch: int | None = None
    """target sequences per optimizer step (the user's, or the stage's default)"""
    flops: float | None = None
    flops_formula: str | None = None
    flops_with_attention: float | None = None
    attention_share: float | None = None
    pf_days: float | None = None
    gpu_hours: Band | None = None
    gpu_hours_interval: PredictionInterval | None = None
    mfu: Band | None = None
    peak_flops: float | None = None
    mfu_calibrated: float | None = None
    days: DaysRow | None = None
    days_table: list[DaysRow] = field(default_factory=list)
    gpus_for_deadline: int | None = None
    cost: Cost | None = None
    chinchilla_tokens: float | None = None
    memory: Memory | None = None
    method_comparison: list[MethodRow] = field(default_factory=list)
    checkpoint_bytes: Checkpoint | None = None
    feasible: str | None = None
    feasible_reason: str | None = None
    max_params_for_budget: float | None = None
    tokens_for_budget: Band | None = None
    budget_gpu_hours: Band | None = None
    rollout: Rollout | None = None
    scale_reference: float | None = None
    """GPUs the likely MFU holds at (scale-out, :mod:`estimator.training_rate`); not a report field"""
    fewest_recompute: tuple[int, float, int] | None = None
    """(GPUs, time factor, first count without recomputation) when no count was stated and the fewest
    GPUs that fit need full recomputation: the rows of the GPUs ↔ days table below that count are
    ×factor slower (training_plan.recompute_time)."""

    def filled(self) -> dict[str, object]:
        """The request fields this branch filled in (None = left as the user said)."""
        values = {
            "method": self.method,
            "params_total": self.params,
            "tokens": self.tokens,
            "currency": self.currency,
            "deadline_days": self.deadline_days,
            "mfu": self.mfu_likely,
            "seq_len": self.seq_len,
            "batch_size": self.batch_size,
            "tokens_per_sample": self.sample_tokens,
        }
        return {k: v for k, v in values.items() if v is not None}

    def report_fields(self) -> dict[str, object]:
        """The SizingReport fields this branch computed."""
        names = (
            "flops", "flops_formula", "flops_with_attention", "attention_share", "pf_days", "gpu_hours",
            "gpu_hours_interval", "mfu", "peak_flops", "mfu_calibrated", "days", "days_table",
            "gpus_for_deadline", "cost", "chinchilla_tokens", "memory", "method_comparison",
            "checkpoint_bytes", "feasible", "feasible_reason", "max_params_for_budget", "tokens_for_budget",
            "budget_gpu_hours", "rollout",
        )  # fmt: skip
        return {n: getattr(self, n) for n in names}
