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


ATTENTION_TRAINING_PASSES = 3.0
"""Forward-pass equivalents of one training step for the attention matmuls: forward 1 + backward 2
(Kaplan et al. 2020 §2.1: "the backwards pass is approximately twice the compute of the forwards
pass"). The attention matmuls have no weights, so LoRA/QLoRA still pay the full backward through them."""

CALIBRATION_SEQ_LEN = 8192
"""The longest context of the published runs the MFU is calibrated on (Llama 3: 8,192 tokens;
Llama 1/2, GPT-3, Pythia, BLOOM ran at 2,048–4,096): their GPU-hours already include the attention
at these contexts, so attention changes the time only beyond it (:func:`long_context_factor`)."""


def attention_keys_per_query(seq_len: int, window: int | None = None) -> float:
    """Keys each query attends to on average in causal attention: s/2 (the masked half is skipped;
    FlashAttention-2, Dao 2023 §4.1: "With causal mask, we divide this number by 2"), or, with a
    sliding window w < s, w·(1 − w/(2s)) (the first w queries see a growing prefix, the rest w keys)."""
    if window is not None and window < seq_len:
        return window * (1.0 - window / (2.0 * seq_len))
    return seq_len / 2.0


def chunked_keys_per_query(seq_len: int, chunk: int) -> float:
    """Keys each query attends to on average with chunked local attention (Llama 4: a query sees the
    causal prefix of its own ``attention_chunk_size`` chunk only, transformers' ``chunked_attention_mask``):
    the causal s/2 convention per chunk, (q·c² + r²) / (2·s) with q = s // c whole chunks and r = s − q·c
    tokens left; s/2 for s ≤ c, → c/2 for s ≫ c (Scout at 1M: 4,096 keys, not 500,000)."""
    whole, rest = divmod(seq_len, chunk)
    return (whole * chunk * chunk + rest * rest) / (2.0 * seq_len) if seq_len > 0 else 0.0


def attention_flops_per_token(
    layers: float,
    heads: int,
    qk_head_dim: int,
    v_head_dim: int,
    keys_per_query: float,
    passes: float = ATTENTION_TRAINING_PASSES,
) -> float:
    """Attention-score FLOPs per token, the part 6·N leaves out: passes × L × 2·keys·heads·(d_qk + d_v).

    Forward per layer and query: QKᵀ 2·keys·heads·d_qk and softmax·V 2·keys·heads·d_v (a multiply-add
    = 2 FLOPs). With full-matrix keys = s this is PaLM's 12·L·H·Q·T for training (Chowdhery et al. 2022,
    App. B; Narayanan et al. 2021 eq. 3, its s/6h term); with the causal mask keys = s/2
    (:func:`attention_keys_per_query`), which equals Kaplan et al. 2020 Table 1's 2·n_layer·n_ctx·d_attn
    forward term × 3 = 6·L·s·d_attn per training token — the convention used here (the masked half is
    not computed by FlashAttention-2/3). MLA (DeepSeek-V2/V3): d_qk = nope + rope = 192, d_v = 128.
    Example (tests/test_compute.py): Llama-2-7B (32 layers, 32 heads × 128) at 32,768 tokens:
    3 × 32 × 2 × 16,384 × 32 × 256 = 2.58e10 FLOPs per token; × 100B tokens = 2.58e21.
    """
    return passes * layers * 2.0 * keys_per_query * heads * (qk_head_dim + v_head_dim)


def long_context_factor(ratio_at: float, ratio_at_calibration: float) -> float:
    """Multiplier on the 6ND time at a context beyond :data:`CALIBRATION_SEQ_LEN`:
    (1 + a(s)) / (1 + a(s_cal)), a = attention FLOPs / (6·N) per token.

    The calibrated MFU was measured on 6·N·D for runs at ≤ 8K context, so it already pays for their
    attention; beyond it the hardware keeps about the same FLOP rate on the attention-inclusive count
    (Llama 3 405B at 131K vs 8K context: 380 vs 400 TFLOPS per GPU, Dubey et al. 2024 Table 4), and the
    time grows with the extra attention FLOPs. 1.0 at or below the calibration context.
    """
    return max(1.0, (1.0 + ratio_at) / (1.0 + ratio_at_calibration))


def flops_per_param_token(trains_all_weights: bool, algorithm: str = "sft", reference: bool = True) -> float:
    """FLOPs per parameter per training token, k in C = k·N·D, by method and algorithm.

        SFT / pre-training: 6 (Kaplan et al. 2020); LoRA/QLoRA: 4 (derived: no weight gradients for
        frozen weights). Preference tuning adds derived multiples of a forward pass (2·N·D each) for the
    models each step runs, as the papers describe the algorithms (they give no FLOP counts; the PPO
    critic is taken as the actor's size):
        DPO + reference forward (Rafailov et al. 2023) → 8 / 6; GRPO + reference + generation
        (Shao et al. 2024) → 10 / 8; RLOO (TRL RLOOTrainer; Ahmadian et al. 2024: k samples per prompt,
        the others' mean reward as the baseline, no critic) runs the same models as GRPO → 10 / 8;
        PPO: actor and critic trained, reference and reward forwards,
        generation (Ouyang et al. 2022) → 18 / 14. D counts every trained token (chosen + rejected
        for DPO; prompts + generations for RL). ``reference`` False: no reference model is loaded
        (:func:`estimator.rl_reference.has_reference`, TRL GRPO's default beta = 0.0): its forward
        (2) is dropped — GRPO 8 / 6.
    """
    train = 6.0 if trains_all_weights else 4.0
    extra = {"sft": 0.0, "dpo": 2.0, "grpo": 4.0, "rloo": 4.0, "ppo": train + 6.0}.get(algorithm, 0.0)
    return train + extra - (2.0 if extra and not reference else 0.0)


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


def billed_gpu_hours(gpu_hours_total: float, gpus: int = 1) -> int:
    """The GPU-hours a cost multiplies by the price per GPU-hour: whole GPU-hours, the unit the price is
    quoted in, rounded UP — billing never rounds usage down (6.43 → 7; the seed's 93,482.9 → 93,483;
    0.3 → 1). On ``gpus`` cards each card's rental pays at least its first whole hour: never fewer
    GPU-hours than cards (0.16 GPU-hours on 8 cards: 8 × ⌈0.02⌉ = 8, not 1 card-hour for 8 cards;
    s35-fixa #1) — exactly gpus × ⌈hours ÷ gpus⌉ while each card runs an hour or less; a longer run bills
    its total rounded up, as the seed article and the quotes do (per-card rounding adds under one hour a
    card). A tolerance of 10⁻⁹ h keeps float noise on a whole number (7.000000000001 → 7)."""
    if gpu_hours_total <= 0:
        return 0
    return max(1, gpus, math.ceil(gpu_hours_total - 1e-9))


def chinchilla_tokens(params: float, tokens_per_param: float = 20.0) -> float:
    """Compute-optimal tokens D ≈ 20·N. Source: Hoffmann et al. 2022 (Chinchilla), Table 3."""
    return tokens_per_param * params


LARGEST_PUBLIC_TOKENS = 36e12
"""The most tokens a published pre-training run reports: Qwen3, ≈ 36T tokens (Qwen3 Technical Report, Yang
et al. 2025, §3 Pre-training); Llama 3 405B took 15.6T (Dubey et al. 2024, §1 and §3.1). s40 fixt #17."""
BEYOND_PUBLIC_FACTOR = 10.0
"""Data above this multiple of :data:`LARGEST_PUBLIC_TOKENS` (3.6×10¹⁴ tokens) is sized but said on line 1
to be beyond any public run: likely a typo or a thought experiment (the trial's 10¹⁵ tokens: 28×)."""


def beyond_public(tokens: float) -> float | None:
    """Tokens ÷ the largest public run's when above :data:`BEYOND_PUBLIC_FACTOR` times it, else None."""
    ratio = tokens / LARGEST_PUBLIC_TOKENS
    return ratio if ratio > BEYOND_PUBLIC_FACTOR else None


OVER_TRAINED_RATIO = 5.0
"""Data at or above this multiple of the Chinchilla-optimal D ≈ 20·N (100 tokens per parameter) is a run
trained past compute-optimal on purpose, for a model cheaper to serve (a choice, between the published
over-trained runs: Llama 2 7B, 2T tokens ≈ 286 per parameter, Touvron et al. 2023 §2.2; Llama 3 8B, ≈ 15T
≈ 1,900 per parameter, Dubey et al. 2024 §3.1; TinyLlama 1.1B, 3T ≈ 2,700): the reply says so beside
the ratio, never a refusal (s29 trial #9)."""


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
