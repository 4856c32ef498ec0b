"""Activations a Hugging Face model keeps for the backward pass without gradient checkpointing, counted
from the model code and PyTorch autograd (the layers run eagerly, one PyTorch op at a time).

Korthikanti et al. 2022 (Table 2) count 34·s·b·h bytes per layer for a GPT layer (LayerNorm, GeLU MLP
of 4h, no RoPE) run by Megatron-LM's fused kernels. A Llama/Qwen-style layer run by transformers' own
PyTorch code (the Trainer, LLaMA-Factory, TRL, axolotl: every data-parallel stack) with gradient
checkpointing off keeps more (:func:`eager_layers`: where the estimator uses this count; Megatron-LM
and NeMo keep Korthikanti's count at every layout). Sources, per token and per layer, in bytes
(transformers ``src/transformers/models/llama/modeling_llama.py`` at
huggingface/transformers@5dd4a63548857797727ae73eeb6a6e886ea02a3e — ``modeling_qwen2.py`` is the same
code — and ``src/transformers/integrations/sdpa_attention.py`` at
huggingface/transformers@00c238bd242b4c6ddfb2c17d4573174ec2daaec8):

- ``LlamaRMSNorm.forward``: ``hidden_states.to(torch.float32)`` then ``.pow(2)``: PowBackward saves its
  fp32 input (4h); ``hidden_states * torch.rsqrt(...)`` then ``self.weight * hidden_states.to(input_dtype)``:
  the mul saves the normalized tensor for the weight's gradient (2h in bf16, 4h when the residual stream
  is fp32) — only when the weight trains: PyTorch's autograd codegen saves an input of a multi-input op
  only when the gradient that reads it is needed (pytorch/pytorch ``tools/autograd/gen_variable_type.py``,
  ``emit_save_inputs.guard_for``: "We don't want to save tensors if we know that they will never be used
  when computing the derivative"). Two norms a layer.
- Each ``nn.Linear`` saves its input for its weight's gradient (same guard: a frozen base linear saves
  none; its LoRA adapter does, see :mod:`estimator.transients`). q, k and v share the first norm's output,
  gate and up the second's (2h each); under autocast with fp32 weights (the Trainer with ``bf16=True``
  and no DeepSpeed) the norm output is fp32 and autocast casts it to bf16 anew for each projection
  (its cast cache holds leaf tensors only: torch ``autocast_mode.cpp``), 5 copies of 2h (4 with a plain MLP).
- ``apply_rotary_pos_emb``: ``q * cos + rotate_half(q) * sin``: cos and sin need no gradient, so the
  muls save cos and sin only (the guard above); the rotated q and k are SDPA's inputs.
- ``sdpa_attention_forward`` → ``F.scaled_dot_product_attention`` (flash / memory-efficient): saves q
  (2·q_dim), k and v (2·kv_dim each: ``enable_gqa=True`` when no mask is passed, torch ≥ 2.5,
  ``use_gqa_in_sdpa``), its output (2·q_dim) and the fp32 logsumexp (4·heads). The output is laid out
  (b, s, heads, d) by the kernel, so ``attn_output.transpose(1, 2).contiguous()`` copies nothing and
  ``o_proj`` saves that same tensor. With a padding mask, ``repeat_kv`` expands k and v to q_dim
  (+4·(q_dim − kv_dim): the high end).
- ``LlamaMLP``: ``down_proj(act_fn(gate_proj(x)) * up_proj(x))``: SiluBackward saves gate (2I); the
  mul saves act(gate) and up (2I each); ``down_proj`` saves the product (2I): 8I. A plain GeLU MLP:
  GeLU's input and fc2's input, 4I.

Full training, bf16 weights (DeepSpeed, FSDP, pure bf16): 16h + 4·q_dim + 4·kv_dim + 8I + 4·heads.
Full training, fp32 weights under bf16 autocast (ZeRO-0 with master weights): the residual stream is
fp32: norms 2·(4h + 4h) + casts 5·2h = 26h, + the same attention and MLP. LoRA / QLoRA (frozen norms and
base): 2·4h + 4·q_dim + 4·kv_dim + 6I (+ the adapted inputs themselves, 2 bytes each, when the adapters
keep no copy of their own). Checked on CPU (torch 2.13, transformers 5.25, PEFT 0.21, a 3-layer Qwen2 of
h = 256, 8 heads, 2 KV heads, I = 704, counting the distinct storages ``saved_tensors_hooks`` sees):
bf16 11,048 B, autocast 13,608 B, LoRA (bf16 adapters) 10,136 B per token per layer — each the formula
above plus 8 B of RMSNorm's rsqrt. Left out: the final norm and the LM head's input (≤ 10h per token
once, under 1/L of one layer's count), router tensors of MoE layers.
"""

from __future__ import annotations

from estimator.catalog import ModelSpec
from estimator.lora import lora_matrices
from estimator.models import Method, Plan
from estimator.setup import Layout, TrainingSetup

_ADAPTED = (Method.lora, Method.qlora)


EAGER_LAYOUT = (1, 1, 1, "none")
"""(TP, PP, EP, recompute) of the layouts whose layers run as the model's own PyTorch code and keep their
every saved tensor: data parallel only (DDP, DeepSpeed ZeRO, FSDP) without gradient checkpointing."""


def eager_layout(setup: TrainingSetup) -> tuple[int, int, int, str] | None:
    """:data:`EAGER_LAYOUT` when ``setup``'s stack loads transformers' model code (``megatron_layers``
    False: the Trainer, LLaMA-Factory, TRL, axolotl, Unsloth, no tool named); None for Megatron-LM and
    NeMo, whose fused layers keep Korthikanti's count at every layout. Asked once per search by the
    layout table (:class:`estimator.layout_table.DenseTable`), which compares each layout's (TP, PP,
    EP, recompute) with it: :func:`eager_layers` on plain numbers."""
    return None if setup.megatron_layers else EAGER_LAYOUT


def eager_layers(setup: TrainingSetup, plan: Layout | Plan) -> bool:
    """Whether ``plan`` keeps the activations of layers run as the model's own PyTorch code (the count of
    :func:`eager_layer_bytes`): a stack that loads transformers' model code (:func:`eager_layout`), no
    gradient checkpointing at all (recompute 'none', as their users turn it off) on a data-parallel
    layout (no TP, PP or EP). Megatron-LM and NeMo at any layout, and every TP/PP/EP layout (only
    Megatron-LM runs them), keep Korthikanti's count (its fused kernels), and so does the search's
    'selective' mode (Megatron's selective recompute). The one test the counts ask
    (:func:`estimator.transients.kept_activations`; the layout table through :func:`eager_layout`)."""
    return not setup.megatron_layers and (plan.tp, plan.pp, plan.ep, plan.recompute) == EAGER_LAYOUT


def fp32_residual(setup: TrainingSetup, zero_stage: int) -> bool:
    """Full training with fp32 weights under bf16 autocast: master weights and no ZeRO (DeepSpeed and
    FSDP cast the model to 16 bits). LoRA bases load in bf16; freeze-tuning's frozen layers too
    (LLaMA-Factory upcasts only the trainable ones), so its residual stream stays 16-bit."""
    return setup.master_weights and zero_stage == 0 and setup.method == Method.full


def eager_layer_bytes(
    spec: ModelSpec, setup: TrainingSetup, zero_stage: int, adapter_copies: bool
) -> tuple[float, float]:
    """(likely, high) bytes one decoder layer keeps per token for the backward pass, run eagerly by
    transformers with SDPA attention (the module docstring's count). ``adapter_copies``: each LoRA module
    keeps a copy of its input (counted by :mod:`estimator.transients`), so the shared inputs are not
    saved themselves. High: a padding mask makes ``repeat_kv`` expand k and v to q_dim."""
    h = spec.hidden
    q_dim = spec.heads * spec.head_dim_effective
    kv_dim = spec.kv_heads * spec.head_dim_effective
    ffn = spec.active_ffn_hidden
    attention = 4.0 * q_dim + 4.0 * kv_dim + 4.0 * spec.heads
    if setup.method in _ADAPTED:
        mlp = (6.0 if spec.gated_ffn else 2.0) * ffn
        inputs = 0.0
        if not adapter_copies:
            mats = set(lora_matrices(setup.lora_targets))
            inputs += 2.0 * h if mats & {"q", "k", "v"} else 0.0
            inputs += 2.0 * h if mats & {"gate", "up"} else 0.0
            inputs += 2.0 * ffn if "down" in mats else 0.0
        likely = 8.0 * h + inputs + attention + mlp
    else:
        mlp = (8.0 if spec.gated_ffn else 4.0) * ffn
        if fp32_residual(setup, zero_stage):
            norms = 2 * (4.0 + 4.0) * h + 2.0 * h * (3 + (2 if spec.gated_ffn else 1))
        else:
            norms = 2 * (4.0 + 2.0) * h + 2 * 2.0 * h
        likely = norms + attention + mlp
    return likely, likely + 4.0 * (q_dim - kv_dim)
