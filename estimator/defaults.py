"""Defaults used when the user does not say, each with its source.

Every default the estimator applies is recorded as an :class:`~estimator.models.Assumption`
carrying the ``source`` string below, so a reply can show where each number comes from.
"""

from __future__ import annotations

from typing import NamedTuple


class Default(NamedTuple):
    value: float
    source: str


DEADLINE_DAYS = Default(30, "planning window when none is given (one month of training)")
"""Days used to size 'GPUs for a deadline' when the user gives no deadline."""

SEQ_LEN_PRETRAIN = Default(4096, "typical pre-training context (Llama 2/3: 4,096/8,192)")
SEQ_LEN_FINETUNE = Default(2048, "typical SFT sample length (Alpaca/Vicuna recipes: 2,048)")
MICRO_BATCH = Default(
    1, "micro-batch of 1 sequence per GPU (memory-minimal; gradient accumulation for the rest)"
)

TOKENS_PER_SAMPLE = Default(
    512,
    "typical instruction-tuning sample: Alpaca's 52k examples average ≈ 270 tokens, ShareGPT "
    "conversations ≈ 1,000+; 512 is a stated middle (Taori et al. 2023; Zheng et al. 2023, Vicuna)",
)
EPOCHS_FINETUNE = Default(1, "one pass over the data when epochs are not given")

LORA_RANK = Default(
    16, "LoRA rank 16 on all linear layers of attention and MLP (common PEFT recipe; Hu et al. 2021)"
)

SERVE_CONTEXT = Default(
    4096,
    "context per sequence (prompt + output) when none is given: 4k covers typical chat turns; "
    "never the model's maximum window",
)
SERVE_CONCURRENCY = Default(16, "concurrent sequences when none is given (a small team's chat service)")
SERVE_CONCURRENCY_PERSONAL = Default(
    1,
    "a personal machine (a GeForce card or a Mac, or GGUF weights): one sequence at a time when none is "
    "given",
)

GPU_MEMORY_UTILIZATION = Default(0.90, "vLLM default gpu_memory_utilization = 0.9")
"""Fraction of a card's memory a serving engine may use."""
MAX_GPU_MEMORY_UTILIZATION = 0.95
"""The most a serving engine is given in practice: vLLM's out-of-memory guidance raises
``--gpu-memory-utilization`` to 0.95; above it, allocator fragmentation and the sampler's spikes OOM.
A fit that needs more than the default but no more than this is 'borderline' ('full_memory')."""

CUDA_CONTEXT_BYTES = Default(
    2**30, "CUDA context and library workspaces ≈ 1 GiB per GPU (observed, PyTorch/NCCL)"
)
FRAGMENTATION = Default(
    0.08, "allocator fragmentation: allocated memory + 8 % (observed in PyTorch training)"
)

DEFAULT_GPU = "A100-SXM4-80GB"
DEFAULT_GPU_SOURCE = "reference GPU when none is named (the seed article's A100 80GB)"

CHINCHILLA_TOKENS_PER_PARAM = Default(20, "Hoffmann et al. 2022 (Chinchilla): D ≈ 20·N compute-optimal")
