"""Training compute, time and cost: one formula per function, each with its source.

Units: parameters and tokens are counts; FLOPs are floating-point operations;
peaks in FLOP/s; time in hours or days as named; money in the price's currency.
"""

from __future__ import annotations

import math

SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86_400.0


def training_flops(params: float, tokens: float, flops_per_param_token: float = 6.0) -> float:
    """C = k·N·D training FLOPs (k = 6: forward 2 + backward 4 per parameter per token).

    ``params`` is N (active parameters for MoE), ``tokens`` is D.
    Source: Kaplan et al. 2020, *Scaling Laws for Neural Language Models*, §2.1;
    EleutherAI *Transformer Math 101* (2023). For LoRA/QLoRA pass k = 4 (derived:
    the frozen weights need no weight gradients, so the backward pass costs ≈ 2·N·D
    instead of 4·N·D).
    """
    return flops_per_param_token * params * tokens


def flops_per_param_token(trains_all_weights: bool, algorithm: str = "sft") -> float:
    """FLOPs per parameter per training token, k in C = k·N·D, by method and algorithm.

    SFT / pre-training: 6 (Kaplan et al. 2020); LoRA/QLoRA: 4 (derived: no weight gradients for
    frozen weights). Preference tuning adds documented multiples of a forward pass (2·N·D each):
    DPO + reference forward (Rafailov et al. 2023) → 8 / 6; GRPO + reference + generation
    (Shao et al. 2024) → 10 / 8; PPO: actor and critic trained, reference and reward forwards,
    generation (Ouyang et al. 2022) → 18 / 14. D counts every trained token (chosen + rejected
    for DPO; prompts + generations for RL).
    """
    train = 6.0 if trains_all_weights else 4.0
    extra = {"sft": 0.0, "dpo": 2.0, "grpo": 4.0, "ppo": train + 6.0}.get(algorithm, 0.0)
    return train + extra


def gpu_hours(flops: float, peak_flops: float, mfu: float) -> float:
    """GPU-hours = C / (peak × MFU × 3600).

    ``peak_flops`` is the dense tensor peak in FLOP/s for the precision in use;
    ``mfu`` the model FLOPs utilisation (0–1]. Source: the seed article; MFU as defined in
    PaLM (Chowdhery et al. 2022, App. B). Raises ValueError on a non-positive peak or MFU.
    """
    if peak_flops <= 0 or not 0 < mfu <= 1:
        raise ValueError("peak_flops must be > 0 and 0 < mfu <= 1")
    return flops / (peak_flops * mfu * SECONDS_PER_HOUR)


def days_on(gpu_hours_total: float, gpus: int) -> float:
    """Wall-clock days on ``gpus`` GPUs running in parallel: GPU-hours / n / 24."""
    return gpu_hours_total / gpus / 24.0


def round_to_nodes(gpus: int, gpus_per_node: int) -> int:
    """Round a GPU count above one node up to whole nodes (8 → 8, 130 → 136)."""
    if gpus <= gpus_per_node:
        return max(1, gpus)
    return math.ceil(gpus / gpus_per_node) * gpus_per_node


def gpus_for_deadline(gpu_hours_total: float, days: float, gpus_per_node: int = 8) -> int:
    """GPUs to finish within ``days``: ceil(GPU-hours / (days × 24)), whole nodes above one node."""
    return round_to_nodes(math.ceil(gpu_hours_total / (days * 24.0) - 1e-9), gpus_per_node)


def pf_days(flops: float) -> float:
    """PF-days = C / (10¹⁵ × 86,400). Source: OpenAI, *AI and Compute* (2018)."""
    return flops / (1e15 * SECONDS_PER_DAY)


def billed_gpu_hours(gpu_hours_total: float) -> int:
    """The GPU-hours a quote multiplies by the price: whole hours, rounded to nearest so the quote
    matches the GPU-hours shown (93,482.9 → 93,483, the seed's figure), and at least one (0.3 → 1)."""
    if gpu_hours_total <= 0:
        return 0
    return max(1, math.floor(gpu_hours_total + 0.5))


def chinchilla_tokens(params: float, tokens_per_param: float = 20.0) -> float:
    """Compute-optimal tokens D ≈ 20·N. Source: Hoffmann et al. 2022 (Chinchilla), Table 3."""
    return tokens_per_param * params


def compute_optimal_params(
    flops: float, tokens_per_param: float = 20.0, flops_per_param_token: float = 6.0
) -> float:
    """Largest compute-optimal N for a budget of C FLOPs: C = k·N·(20·N) → N = √(C / (20·k)).

    k = 6 for full training (√(C/120)); the same k as the rest of the answer otherwise.
    Source: Hoffmann et al. 2022 with C = 6·N·D (Kaplan et al. 2020).
    """
    return math.sqrt(flops / (flops_per_param_token * tokens_per_param))


def flops_for_gpu_hours(hours: float, peak_flops: float, mfu: float) -> float:
    """Inverse of :func:`gpu_hours`: FLOPs delivered by ``hours`` GPU-hours at ``mfu``."""
    return hours * peak_flops * mfu * SECONDS_PER_HOUR
