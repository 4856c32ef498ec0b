"""A training of a model on the asker's own consumer card, said with the weak hint alone (s33-left2 #1).

'7B 用梯度累积 16 能在一张 4090 上训吗', 'can I train a 7B on my RTX 3090?': '训' / 'train' with no stage
word is the weak hint, which reads pre-training (:data:`bot.parse.words._WEAK_STAGE_WORDS`). Nobody
pre-trains a 7B on one or two GeForce cards or a Mac: pre-training a 7B on Chinchilla's 20 tokens per
parameter (Hoffmann et al. 2022 §3) is 6 × 7e9 × 1.4e11 ≈ 5.9e21 FLOPs, ≈ 2.8 years of one RTX 4090 at
its 165.2 dense bf16 TFLOPS (FP32 accumulate; NVIDIA Ada whitepaper v2.02 Table 2) × 40 % MFU. On such a
card the job people run is a fine-tuning of a released model (the LLaMA-Factory, Unsloth and axolotl
READMEs size their examples on one 24 GB card), so the stage read is fine-tuning, said in the reply
(:data:`FINETUNE_ASSUMED`), unless a data size, a budget, a deadline, a duration asked or a pre-training
scale or codebase ('from scratch', '1T tokens', nanoGPT) says otherwise.
"""

from __future__ import annotations

from typing import Any

from bot.parse.stage_hints import PRETRAINING_CODEBASE_RE, PRETRAINING_SCALE_RE
from bot.parse.words import explicit_stage
from estimator import catalog

FINETUNE_ASSUMED = "finetune_assumed"
"""The parse note: the stage is fine-tuning by this rule, not by a word; the reply says so under its
headline (templates/_extras.j2)."""
MIN_PARAMS = 3e9
"""The smallest model size (parameters) read this way: pre-training a 3B on Chinchilla's 20 tokens per
parameter is 6 × 3e9 × 6e10 ≈ 1.1e21 FLOPs, ≈ 190 days of one RTX 4090 at 40 % MFU; smaller models (a 124M
nanoGPT, a 'small model') are pre-trained on one card, and a size not said keeps the weak hint's reading."""
MAX_PERSONAL_CARDS = 2
"""The most personal cards one machine of a hobbyist holds in practice (a desktop's two x16 slots; '双
4090'): beyond it the count is a cluster question and the weak hint stays as read."""
_SCALE_FIELDS = (
    "tokens",
    "num_samples",
    "budget",
    "deadline_days",
    "hours",
    "compute_budget_flops",
    "duration_asked",
)
"""Fields that make the message a question of a run's scale (then the stage words decide, as before)."""


def personal_card_tuning(f: dict[str, Any], s: str) -> bool:
    """Whether the parse's fields ``f`` (stage, gpu id, gpu_count …) and normalized text ``s`` are a
    training of a model on one or two personal cards (:attr:`estimator.gpu_spec.GpuSpec.personal`) said
    with the weak hint alone: then the stage is fine-tuning. False for a stage word, a scale field
    (:data:`_SCALE_FIELDS`), a model under :data:`MIN_PARAMS` or of no size said, a pre-training scale or
    codebase, or a card that is not personal."""
    if explicit_stage(s) is not None or any(map(f.get, _SCALE_FIELDS)):
        return False
    if (f.get("gpu_count") or 1) > MAX_PERSONAL_CARDS or (f.get("params_total") or 0) < MIN_PARAMS:
        return False
    spec = catalog.gpus().get(f.get("gpu") or "")
    if spec is None or not spec.personal:
        return False
    return PRETRAINING_SCALE_RE.search(s) is None and PRETRAINING_CODEBASE_RE.search(s) is None
