"""Defaults used when the user does not say, each with its source (in the docstring) and the key of
its explanation in the assumption ledger (:class:`estimator.reasons.Why`; wording in the bot).
"""

from __future__ import annotations

from typing import NamedTuple

from estimator.reasons import Why
from estimator.units import GIB


class Default(NamedTuple):
    value: float
    why: Why


DEADLINE_DAYS = Default(30, Why.deadline_default)
"""Days used to size 'GPUs for a deadline' when the user gives no deadline: a one-month planning
window (a stated convention, not a measurement)."""

SEQ_LEN_PRETRAIN = Default(4096, Why.seq_len_pretrain)
"""Tokens per pre-training sequence: Llama 2 trained at 4,096 (Touvron et al. 2023, §2.2), Llama 3 at
8,192 (Dubey et al. 2024, §3.4)."""
SEQ_LEN_FINETUNE = Default(2048, Why.seq_len_finetune)
"""Tokens per SFT sequence: Vicuna's recipe trains at 2,048 (Zheng et al. 2023, FastChat
``train.py --model_max_length 2048``); Alpaca's used 512 (Taori et al. 2023, README "Max length 512"),
shorter than most current chat data."""
MICRO_BATCH = Default(1, Why.micro_batch)
"""Sequences per GPU per step: 1, the memory-minimal choice (gradient accumulation for the rest)."""
GLOBAL_BATCH_TOKENS_PRETRAIN = Default(4 * 2**20, Why.global_batch_pretrain)
"""Tokens per optimizer step in pre-training: Llama 2 used "a global batch-size of 4M tokens" (Touvron
et al. 2023, §2.2; 1,024 sequences × 4,096 tokens = 4,194,304). The global batch in sequences is this
÷ the sequence length; gradient accumulation makes up what micro-batch × data parallelism leaves."""
GLOBAL_BATCH_FINETUNE = Default(128, Why.global_batch_finetune)
"""Sequences per optimizer step in supervised fine-tuning: the Stanford Alpaca recipe's batch size 128
(Taori et al. 2023, README "Fine-tuning" hyper-parameters), also Vicuna's (FastChat: 2 per GPU × 16
accumulation × 4 GPUs)."""
GLOBAL_BATCH_TOKENS_FINETUNE_CAP = Default(4 * 2**20, Why.global_batch_finetune_long)
"""Most tokens per optimizer step of a fine-tune's default batch: a pre-training step's 4,194,304
(:data:`GLOBAL_BATCH_TOKENS_PRETRAIN`), which Llama 2 Long kept when it lengthened sequences to
32,768 (Xiong et al. 2023, §2: continual pre-training at the same tokens per batch as Llama 2);
long-context SFT steps are smaller still (LongAlign, Bai et al. 2024, scripts/llama_pack.sh: 8 GPUs ×
1 pack of ≤ 64K tokens, no accumulation). Applied only where :data:`GLOBAL_BATCH_FINETUNE`'s 128
sequences would exceed it, i.e. sequences longer than 32,768 tokens: 128 × 131,072 = 16.8M tokens a
step gave a 500M-token run ~30 optimizer steps (trial s42 #7); capped, 32 sequences and ~119 steps."""

TOKENS_PER_SAMPLE = Default(512, Why.tokens_per_sample)
"""Tokens per instruction-tuning sample when only a sample count is given: Alpaca's 52k examples
average ≈ 270 tokens (Taori et al. 2023), ShareGPT conversations ≈ 1,000+ (Zheng et al. 2023,
Vicuna); 512 is a stated middle."""
EPOCHS_FINETUNE = Default(1, Why.epochs_finetune)
"""One pass over the data when epochs are not given."""

LORA_RANK = Default(16, Why.lora_rank)
"""LoRA rank on all linear layers of attention and MLP: a common PEFT recipe (Hu et al. 2021 §7 use
4–64; QLoRA's recipes 64; LLaMA-Factory's example configs 8)."""

LORA_TARGETS = Default(0, Why.lora_targets)
"""LoRA targets when none are named: every linear layer of attention and MLP (PEFT
``target_modules="all-linear"``; QLoRA §4: adapting all layers is needed to match full fine-tuning)."""

FREEZE_LAYERS = Default(2, Why.freeze_layers)
"""Freeze-tuning: the last 2 layers train (LLaMA-Factory ``freeze_trainable_layers`` default 2)."""

PREFIX_TOKENS = Default(128, Why.prefix_tokens)
"""P-tuning v2 prefix length: ChatGLM-6B's ptuning README trains with ``PRE_SEQ_LEN=128``."""

SERVE_CONTEXT = Default(4096, Why.serve_context)
"""Context per sequence (prompt + output) when none is given: 4k covers typical chat turns; never the
model's maximum window."""


def serve_context(spec: object) -> Default:
    """The serving context when none is given: :data:`SERVE_CONTEXT`, or the model's own window when that
    is shorter (config.json ``max_position_embeddings``, ModelSpec ``native_context`` / ``max_context``:
    Falcon-7B, LLaMA-1, OPT, BLOOM 2,048; GPT-2 1,024). A position table has no row past it and vLLM
    refuses a longer ``max_model_len`` (vllm/config.py ``_get_and_verify_max_len``), so the default never
    runs past it (s49 leftovers #2); a length the user states stays theirs (ledger.beyond_window names it)."""
    window = getattr(spec, "native_context", None) or getattr(spec, "max_context", None)
    if window and window < SERVE_CONTEXT.value:
        return Default(int(window), Why.serve_context_model_window)
    return SERVE_CONTEXT


SERVE_CONCURRENCY = Default(16, Why.serve_concurrency)
"""Concurrent sequences when none is given: a small team's chat service (a stated convention)."""
SERVE_CONCURRENCY_PERSONAL = Default(1, Why.serve_concurrency_personal)
"""A personal machine (a GeForce card, a Mac, GGUF weights): one sequence at a time (llama.cpp's
``--parallel`` default is 1)."""

LONG_CONTEXT_TOKENS = 131_072
"""Contexts beyond 128K tokens (the longest window of most current models; 256K, 1M, 10M are asked of
Qwen-Long, Llama 4 Scout, MiniMax) are long-document runs: sized for one sequence unless a load is said."""
SERVE_CONCURRENCY_LONG_CONTEXT = Default(1, Why.serve_concurrency_long_context)
"""One sequence at a time when the context is beyond :data:`LONG_CONTEXT_TOKENS` and no load is given."""

GPU_MEMORY_UTILIZATION = Default(0.90, Why.vllm_utilization)
"""Fraction of a card's memory a serving engine may use: vLLM's default ``gpu_memory_utilization``
0.9 (vllm/engine/arg_utils.py)."""
MAX_GPU_MEMORY_UTILIZATION = 0.95
"""The most a serving engine is given in practice: vLLM's out-of-memory guidance raises
``--gpu-memory-utilization`` to 0.95; above it, allocator fragmentation and the sampler's spikes OOM.
A fit that needs more than the default but no more than this is 'borderline' ('full_memory')."""

CUDA_CONTEXT_BYTES = Default(GIB, Why.cuda_context)
"""CUDA context and library workspaces per GPU ≈ 1 GiB (observed with PyTorch/NCCL; PyTorch PR #86509
measures the bare context at 287–667 MB)."""
FRAGMENTATION = Default(0.08, Why.fragmentation)
"""Allocator fragmentation: + 8 % of what a training step allocates and frees (activations, the loss's
tensors, temporaries; observed in PyTorch training; a stated value). Model states are allocated once
in blocks of their own size and are not counted: PyTorch's caching allocator splits and caches freed
blocks (PyTorch docs, CUDA semantics, "Memory management"), so waste comes from the tensors that come
and go."""

DEFAULT_GPU = "A100-SXM4-80GB"
"""The reference GPU when none is named: the seed article's A100 80GB."""

CHINCHILLA_TOKENS_PER_PARAM = Default(20, Why.chinchilla)
"""Compute-optimal tokens per parameter: D ≈ 20·N (Hoffmann et al. 2022, Chinchilla, Table 3)."""
