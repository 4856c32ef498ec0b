"""A low / high band around the per-GPU training memory of :func:`estimator.memory.breakdown`.

The likely figure (``Memory.per_gpu_bytes``) counts each part once with one formula. The band
spans what that figure does not model exactly; each end is derived from stated uncertainties, not
fitted to any measurement:

- **Model states** (weights, gradients, optimizer, adapters, frozen copies): exact byte counts,
  the same at both ends.
- **Activations per layer.** The likely figure uses Korthikanti et al. 2022 (Table 2): 34·s·b·h
  bytes for a GPT layer (4h GeLU MLP, multi-head attention, dropout). Counting the same way for the
  model's own shape (:func:`layer_activation_coefficients`) gives an *eager* count — every
  intermediate autograd keeps — and a *fused* one where a compiler (``torch.compile``) recomputes
  the MLP's element-wise products instead of storing them. The band takes
  [min(34, fused), max(34, eager)]: 27–41 for Llama-3.1-8B (SwiGLU 3.5h, 8 of 32 KV heads).
- **Full recompute.** The stored layer inputs (2·s·b·h per layer) are exact; the high end adds
  the one layer whose activations are rebuilt during its backward pass (eager count).
- **Logits.** Likely b·s·V·6 (bf16 + an fp32 copy). High adds the fp32 log-softmax output that
  ``log_softmax`` keeps for its backward (b·s·V·10). Chunked loss: low b·s·V·2 (bf16 logits only,
  the upcast fused away), likely 2 + 4/8, high 2 + 2·4/8 (one fp32 chunk and its log-softmax).
- **Runtime.** Low: nothing — what ``torch.cuda.max_memory_allocated`` reports (torchtune logs it
  as "peak memory alloc", in GiB, next to reserved and active). Likely: CUDA context 1 GiB + 8 %
  fragmentation (:mod:`estimator.defaults`). High: the context + :data:`FRAGMENTATION_HIGH`.

So low ≤ likely ≤ high always holds; low is the allocator's view, high what ``nvidia-smi`` may show.
Not modelled at either end: activation offloading, allocator spikes from temporaries larger than the
parts above (e.g. an all-gather bucket), paged states that stay resident while the GPU has room
(unified memory shows them in ``nvidia-smi``, never in PyTorch's counters). All values in bytes.
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.defaults import CUDA_CONTEXT_BYTES
from estimator.models import Plan
from estimator.setup import Layout, TrainingSetup, activation_layers

LOSS_CHUNKS = 8
"""Chunks of a chunked cross-entropy: torchtune ``CEWithChunkedOutputLoss(num_output_chunks=8)``
(pytorch/torchtune ``torchtune/modules/loss/ce_chunked_output_loss.py``; PR #1390)."""

FRAGMENTATION_HIGH = 0.15
"""High end of allocator fragmentation, as a fraction of the allocated bytes: a stated assumption,
about twice the likely 8 % (:data:`estimator.defaults.FRAGMENTATION`). Not a bound: allocators that
ignore tensor lifespans can waste up to 43 % under virtual pipelines with recomputation
(arXiv 2507.16274, abstract)."""

KORTHIKANTI_COEFFICIENT = 34.0
"""Bytes per s·b·h per layer, selective recompute (Korthikanti et al. 2022, Table 2)."""

_RUNTIME = ("activations", "logits", "overhead")


def layer_activation_coefficients(spec: ModelSpec, dropout: bool = False) -> tuple[float, float]:
    """(fused, eager) activation bytes one layer keeps for backward, in units of s·b·h (16-bit values).

    Korthikanti et al. 2022 §4.1's accounting for a pre-norm layer with FlashAttention-style
    attention (no s² scores), per token, divided by h:

    - attention: norm input 2h, projection input 2h, q 2·q_dim, k and v 2·kv_dim each, attention
      output 2·q_dim (also the output projection's input);
    - MLP: norm input 2h, up-projection input 2h; SwiGLU keeps gate, up, SiLU(gate) and their
      product (4 × 2f), GeLU keeps its input and output (2 × 2f). Fused: SwiGLU keeps gate and up
      only, GeLU its input only — the rest is recomputed in the backward kernel;
    - ``dropout``: two 1-byte masks (attention output, MLP output).

    Check: a GPT layer (q_dim = kv_dim = h, f = 4h, GeLU, dropout) gives eager 34 — Korthikanti's
    Table 2 value. MoE: one expert's MLP × (``experts_top_k`` + shared experts) on every layer (the
    leading dense layers are counted as MoE ones; an approximation).
    """
    h = spec.hidden
    q_dim = spec.heads * spec.head_dim_effective
    kv_dim = spec.kv_heads * spec.head_dim_effective
    attention = (4 * h + 4 * q_dim + 4 * kv_dim) / h
    ffn = spec.active_ffn_hidden
    kept = (4, 2) if spec.gated_ffn else (2, 1)  # (eager, fused) tensors of size f
    eager_mlp = 4 + kept[0] * 2 * ffn / h
    fused_mlp = 4 + kept[1] * 2 * ffn / h
    masks = 2.0 if dropout else 0.0
    return attention + fused_mlp + masks, attention + eager_mlp + masks


def per_gpu_band(
    spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout, parts: dict[str, float]
) -> tuple[float, float]:
    """(low, high) bytes per GPU around ``sum(parts.values())`` (the likely figure), for the
    ``parts`` that :func:`estimator.memory.breakdown` returned for ``setup`` and ``plan``.

    Derivation in the module docstring. Units: bytes.
    """
    states = sum(v for k, v in parts.items() if k not in _RUNTIME)
    s, b, h, t = setup.seq_len, plan.micro_batch, spec.hidden, plan.tp
    layers = activation_layers(spec, setup, plan.pp) * plan.pp  # 1F1B: pp micro-batches in flight on stage 1
    fused, eager = layer_activation_coefficients(spec)
    acts = parts.get("activations", 0.0)
    if plan.recompute == "full":
        act_low, act_high = acts, acts + eager * s * b * h / t
    else:
        per_coef = s * b * h * layers / t  # FlashAttention: no s² scores ('none' = 'selective')
        act_low = min(KORTHIKANTI_COEFFICIENT, fused) * per_coef
        act_high = max(KORTHIKANTI_COEFFICIENT, eager) * per_coef
    logit_count = b * s * spec.vocab / t
    if setup.chunked_loss:
        logits_low, logits_high = 2.0 * logit_count, (2.0 + 2 * 4.0 / LOSS_CHUNKS) * logit_count
    else:
        logits_low, logits_high = parts.get("logits", 0.0), 10.0 * logit_count
    low = states + act_low + logits_low
    high = (states + act_high + logits_high) * (1 + FRAGMENTATION_HIGH) + CUDA_CONTEXT_BYTES.value
    return low, high
