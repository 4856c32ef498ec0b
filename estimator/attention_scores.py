"""Attention scores an eager (not fused) attention keeps for the backward pass (s42 eager).

Eager attention computes softmax(q·kᵀ/√d)·v one PyTorch op at a time, so each layer materialises its
b × heads × s × s scores; FlashAttention (Dao et al. 2022) and PyTorch SDPA's flash / memory-efficient
kernels never store them (:func:`estimator.transients.activation_bytes_per_layer`, the default of every
current training stack). Bytes a layer keeps per score, for the backward:

- transformers' own layers (``eager_attention_forward`` in ``models/llama/modeling_llama.py``, the same in
  Qwen2/Mistral/Gemma-2): ``softmax(attn_weights, dim=-1, dtype=torch.float32)`` saves its fp32 output
  (SoftmaxBackward needs ``result``: 4 B), ``.to(query.dtype)`` makes the 16-bit copy that
  ``torch.matmul(attn_weights, value_states)`` saves for v's gradient (2 B): :data:`HF_SCORE_BYTES` = 6,
  ``attention_dropout`` 0.0 (the Llama, Qwen2, Mistral, Gemma-2 configs); an fp32 run keeps the fp32
  output once (``.to`` is a no-op): 4 B. Left out: Gemma-2's attention logit soft-capping
  (``attn_weights / softcap``, ``torch.tanh``, ``* softcap`` in its ``eager_attention_forward``) keeps the
  tanh output too, 2 B more a score — the count errs low for it (the catalog has no soft-capping field).
- Megatron-LM / NeMo without ``--use-flash-attn``: Korthikanti et al. 2022 §4.1, Table 2's 5·a·s/h term
  per s·b·h — softmax output 2 B, dropout mask 1 B, dropout output 2 B (``--attention-dropout`` 0.1, the
  default of megatron/training/arguments.py): :data:`MEGATRON_SCORE_BYTES` = 5.

With tensor parallelism each GPU holds heads / TP. Without recompute every layer of pipeline stage 1 keeps
its scores (:func:`estimator.transients.kept_activations`); with gradient checkpointing ('full') or
Megatron's selective recompute the scores are rebuilt during each layer's backward, so one layer's are live
at a time (Korthikanti §5: selective recompute is exactly recomputing this term; Chen et al. 2016, full
recompute re-runs one layer's forward before its backward): counted once, in the layer workspace
(:func:`estimator.transients.layer_workspace`). A DPO / reward-model pair doubles the sequences.
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.models import Algorithm, Plan
from estimator.setup import Layout, TrainingSetup, activation_layers

HF_SCORE_BYTES = 6.0
"""Bytes per score a transformers eager layer keeps: fp32 softmax output + its 16-bit copy (module doc)."""
HF_FP32_SCORE_BYTES = 4.0
"""An fp32 run: the fp32 softmax output only (``.to(torch.float32)`` returns the same tensor)."""
MEGATRON_SCORE_BYTES = 5.0
"""Korthikanti et al. 2022 Table 2: 5·a·s/h per s·b·h — softmax output, dropout mask and output."""
_PAIRED = (Algorithm.dpo,)


def score_bytes_per_layer(spec: ModelSpec, setup: TrainingSetup, micro_batch: int, tp: int) -> float:
    """Bytes of one layer's attention scores per GPU: bytes per score × b × heads/TP × s² (b doubled for a
    DPO / reward-model pair). 0 unless ``setup.eager_attention``."""
    if not setup.eager_attention:
        return 0.0
    if setup.megatron_layers:
        per = MEGATRON_SCORE_BYTES
    else:
        per = HF_FP32_SCORE_BYTES if setup.activation_bytes == 4.0 else HF_SCORE_BYTES
    pairs = 2 if setup.algorithm in _PAIRED or setup.reward_model else 1
    s = float(setup.seq_len)
    return per * micro_batch * pairs * spec.heads / tp * s * s


def kept_score_bytes(spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout) -> float:
    """Scores kept for the backward on this GPU: every layer of stage 1 × the PP micro-batches in flight
    without recompute (as :func:`estimator.transients.kept_activations` counts layers); 0 with recompute."""
    if plan.recompute != "none" or not setup.eager_attention:
        return 0.0
    layers = activation_layers(spec, setup, plan.pp, plan.recompute) * plan.pp
    return score_bytes_per_layer(spec, setup, plan.micro_batch, plan.tp) * layers


def live_score_bytes(spec: ModelSpec, setup: TrainingSetup, plan: Plan | Layout) -> float:
    """What the scores add to the GPU's memory at ``plan`` (bytes): the kept ones without recompute, one
    layer's rebuilt ones with recompute — the reply's 'eager attention: +X GiB'
    (``Memory.attention_scores_bytes``)."""
    if plan.recompute == "none":
        return kept_score_bytes(spec, setup, plan)
    return score_bytes_per_layer(spec, setup, plan.micro_batch, plan.tp)
