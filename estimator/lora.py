"""LoRA's trainable parameters: which projections a list of target module names adapts and how many
parameters the adapters add (Hu et al. 2021; PEFT ``LoraConfig.target_modules``). Split from
:mod:`estimator.memory` (which re-exports these names)."""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.models import Method

LORA_ALL_LINEAR = "all-linear"
"""PEFT's name for every linear layer of attention and MLP (``target_modules="all-linear"``)."""

_LORA_MODULES: dict[str, tuple[str, ...]] = {
    # attention, as Llama/Qwen/Mistral code names it, and the fused projections of other families
    "q_proj": ("q",), "k_proj": ("k",), "v_proj": ("v",), "o_proj": ("o",),
    "query_key_value": ("q", "k", "v"), "qkv_proj": ("q", "k", "v"), "w_pack": ("q", "k", "v"),
    "c_attn": ("q", "k", "v"), "wqkv": ("q", "k", "v"), "dense": ("o",), "c_proj": ("o",), "wo": ("o",),
    "out_proj": ("o",), "output_proj": ("o",), "self_attn": ("q", "k", "v", "o"),
    "attention": ("q", "k", "v", "o"),
    # MLP
    "gate_proj": ("gate",), "up_proj": ("up",), "down_proj": ("down",), "w1": ("gate",), "w3": ("up",),
    "w2": ("down",), "dense_h_to_4h": ("gate", "up"), "dense_4h_to_h": ("down",), "fc1": ("up",),
    "fc2": ("down",), "mlp": ("gate", "up", "down"),
}  # fmt: skip
"""Module names people target → the projections they adapt (HF modeling code of each family). torchtune's
own names (torchtune/modules/peft/_utils.py LORA_ATTN_MODULES: q_proj, k_proj, v_proj, output_proj; its
FeedForward w1, w2, w3) are the HF o_proj, gate_proj, down_proj, up_proj (torchtune/models/convert_weights.py
_FROM_HF: self_attn.o_proj → attn.output_proj, mlp.gate_proj → w1, down_proj → w2, up_proj → w3): one
table for the headline's targets and the unknown-module check (s36 fixc #2)."""


DEQUANT_BYTES = 2.0
"""Bytes per weight of a quantized matrix dequantized for a matmul: bitsandbytes 4-bit
``MatMul4Bit`` dequantizes the whole weight to 16-bit in forward and again in backward
(``F.dequantize_4bit(B, ...).to(A.dtype)``; it saves only the quantized weight); AutoGPTQ's CUDA kernel
does the same for inputs of ≥ 128 rows (``kernel_switch_threshold``) and autograd keeps that fp16
weight for the backward."""

ADAPTER_INPUT_BYTES = 2.0
"""Bytes per element of the input copy each LoRA module keeps for its backward when its input is a
new tensor: with fp32 adapters under autocast, PEFT casts the input to the adapter's dtype
(``x.to(lora_A.weight.dtype)``, peft/tuners/lora/layer.py) and autocast casts it back to bf16 for
``lora_A``, which saves that copy — one per adapted module, even for q, k and v sharing an input; with
``lora_dropout`` > 0 the dropout output is the new tensor. Adapters in the activations' dtype and no
dropout (DeepSpeed casts the model to bf16/fp16; torchtune's bf16 recipes): ``x.to`` returns ``x``
itself, no copy."""

LORA_DROPOUT_MASK_BYTES = 1.0
"""With ``lora_dropout`` > 0 each adapted input also keeps a boolean dropout mask (1 byte/element)
for the backward (PEFT ``nn.Dropout``; PyTorch native dropout saves its mask)."""


def lora_matrices(targets: tuple[str, ...] | list[str] | None) -> frozenset[str]:
    """The projections (q, k, v, o, gate, up, down) a list of LoRA target names adapts; None or
    'all-linear' → all of them. Unknown names adapt nothing (the bot names them as not used)."""
    if not targets or any(t.lower().replace("_", "-") in (LORA_ALL_LINEAR, "all") for t in targets):
        return frozenset({"q", "k", "v", "o", "gate", "up", "down"})
    out: set[str] = set()
    for t in targets:
        out |= set(_LORA_MODULES.get(t.lower().replace("-", "_"), ()))
    return frozenset(out)


_LAST: tuple[ModelSpec | None, tuple[str, ...] | None, int] = (None, None, 0)
"""(spec, targets, Σ (d_in + d_out) · count) of the last :func:`lora_params` (s46-speed): an estimate asks the
same spec and targets ~3 times and a comparison once per card, each ~8 Python frames of :func:`lora_shapes`.
One entry, replaced whole (a tuple: another thread reads the old or the new one); the spec held by itself
(``is``: a frozen model, never equal to another object by accident)."""


def lora_params(spec: ModelSpec, rank: int, targets: tuple[str, ...] | list[str] | None = None) -> float:
    """Trainable LoRA parameters (:func:`_lora_params`: rank × the adapted widths, kept for the last spec
    and targets in :data:`_LAST`: the same integers)."""
    global _LAST
    key = tuple(targets) if targets else None
    last = _LAST
    if last[0] is spec and last[1] == key:
        return rank * last[2]
    _LAST = last = (spec, key, _lora_params(spec, 1, key))
    return rank * last[2]


def _lora_params(spec: ModelSpec, rank: int, targets: tuple[str, ...] | None) -> float:
    """Trainable LoRA parameters: r·(d_in + d_out) per targeted matrix (:func:`lora_shapes`).

    Source: Hu et al. 2021 (LoRA) §4: W + BA with B ∈ R^{d×r}, A ∈ R^{r×k}; PEFT
    ``LoraConfig.target_modules``.
    """
    total = 0  # a loop, not sum() of a generator (a profile call each resume); the same integers
    for d_in, d_out, count in lora_shapes(spec, targets):
        total += (d_in + d_out) * count
    return rank * total


def lora_shapes(spec: ModelSpec, targets: tuple[str, ...] | list[str] | None) -> list[tuple[int, int, int]]:
    """The adapted matrices as (d_in, d_out, how many in the model); each gets A (r × d_in) and
    B (d_out × r). Attention: q (h → heads·d), k and v (h → kv_heads·d), o (heads·d → h); MLP: gate and
    up (h → f), down (f → h) — gate only in a gated MLP; a MoE layer's experts each. ``targets`` as in
    :func:`lora_matrices` (None: all linear layers)."""
    on = lora_matrices(targets)
    h, hd = spec.hidden, spec.head_dim_effective
    q_out, kv_out = spec.heads * hd, spec.kv_heads * hd
    attn = {"q": (h, q_out), "k": (h, kv_out), "v": (h, kv_out), "o": (q_out, h)}
    shapes = [(d_in, d_out, spec.layers) for k, (d_in, d_out) in attn.items() if k in on]

    def mlp(ffn: int, count: int) -> list[tuple[int, int, int]]:
        parts = {"gate": (h, ffn), "up": (h, ffn), "down": (ffn, h)}
        gated = spec.gated_ffn
        return [(i, o, count) for k, (i, o) in parts.items() if k in on and count and (gated or k != "gate")]

    if not spec.is_moe:
        return shapes + mlp(spec.ffn_hidden, spec.layers)
    shapes += mlp(spec.expert_ffn_hidden, spec.moe_layers * (spec.experts or 0))
    shapes += mlp(spec.shared_ffn_hidden, spec.moe_layers * (spec.shared_experts or 0))
    return shapes + mlp(spec.ffn_hidden, spec.dense_mlp_layers)


_ADAPTER_INPUTS: dict[str, str] = {
    "q": "h",
    "k": "h",
    "v": "h",
    "o": "q",
    "gate": "h",
    "up": "h",
    "down": "f",
}
"""The input width of each projection LoRA may adapt: h, the attention output (heads·head_dim) or f."""


def lora_input_elements(spec: ModelSpec, method: Method, targets: tuple[str, ...] | None) -> float:
    """Elements per token per layer of the inputs LoRA's adapters read (0 for other methods): the input
    width of each adapted projection (:data:`_ADAPTER_INPUTS`; an MoE's gate/up/down × the experts a token
    visits, ``experts_top_k`` + shared). Moved from :mod:`estimator.transients` (s25), which sizes their
    copies (``ADAPTER_INPUT_BYTES``: PEFT's ``x.to(lora_A.weight.dtype)``, peft/tuners/lora/layer.py)."""
    if method not in (Method.lora, Method.qlora):
        return 0.0
    widths = {"h": spec.hidden, "q": spec.heads * spec.head_dim_effective, "f": spec.active_ffn_hidden}
    experts = (spec.experts_top_k or 1) + (spec.shared_experts or 0) if spec.is_moe else 1
    total = 0.0
    for m in lora_matrices(targets):
        if m == "gate" and not spec.gated_ffn:
            continue
        width = widths[_ADAPTER_INPUTS[m]]
        total += width if m in ("q", "k", "v", "o") or m == "down" else width * experts
    return total
