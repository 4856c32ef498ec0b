"""Hybrid models' fixed-size states: layers that keep no growing KV cache (s31).

A hybrid model mixes softmax-attention layers (a KV cache that grows with the context) with layers whose
token mixer carries a fixed-size state per sequence — linear ("lightning") attention in MiniMax-M1, Gated
DeltaNet in Qwen3-Next, Mamba in Jamba/Nemotron-H. The catalog gives how many (``state_layers``) and the
elements of one layer's state (``state_elements``, from the config). The KV cache per token then counts the
attention layers only (:func:`estimator.weights.kv_layers`), and each sequence adds its states once,
whatever its length.

vLLM allocates these states per request beside the paged KV cache (vllm/model_executor/layers/mamba/
mamba_utils.py @02d71083, ``MambaStateShapeCalculator``):

- lightning attention (``linear_attention_state_shape``): (heads / TP, head_dim, head_dim) per layer;
  MiniMax-M1: 64 × 128 × 128 = 1,048,576 elements;
- Gated DeltaNet (``gated_delta_net_state_shape``): a conv state (kernel − 1) × (2·k_heads·k_dim +
  v_heads·v_dim) and a recurrent state v_heads × v_dim × k_dim;
- Mamba-2 (``mamba2_state_shape``): conv (kernel − 1) × (intermediate + 2·groups·state) and heads ×
  head_dim × state.

Their type (``MambaStateDtypeCalculator``): the model's dtype unless ``mamba_cache_dtype`` /
``mamba_ssm_cache_dtype`` say otherwise (``"auto"`` by default) — 2 bytes for a bf16 model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.catalog import ModelSpec

STATE_BYTES = 2.0
"""Bytes per state element: the model's 16-bit dtype (vLLM ``mamba_cache_dtype`` "auto",
``MambaStateDtypeCalculator.linear_attention_state_dtype`` / ``_mamba_state_dtype``)."""


def state_bytes_per_sequence(spec: ModelSpec) -> float:
    """Bytes of one sequence's fixed states over all state layers (0 for a model without them):
    layers × elements × :data:`STATE_BYTES`. MiniMax-M1: 70 × 1,048,576 × 2 = 146,800,640 B (140 MiB)."""
    return (spec.state_layers or 0) * (spec.state_elements or 0) * STATE_BYTES
