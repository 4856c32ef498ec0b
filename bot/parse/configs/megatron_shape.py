"""A Megatron-LM argument line's model shape → the model sized, as a pasted config.json is (s37 fixa #3).

'torchrun … pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 …' names no model
by name: its shape is the model. The flags and their defaults follow Megatron-LM
``megatron/training/arguments.py`` (NVIDIA/Megatron-LM core_v0.19.0, the meaning table's source):

* ``--num-layers``, ``--hidden-size``, ``--num-attention-heads``: required for a GPT model;
* ``--ffn-hidden-size``: absent → ``4 × hidden``, or with ``--swiglu`` ``int((4 × hidden × 2/3) / 64) × 64``
  (``validate_args``: "reduce the dimension for MLP since projections happens on two linear layers");
* ``--swiglu``: a gated SiLU MLP (``gated_linear_unit``), else a plain GeLU MLP;
* ``--num-query-groups`` with ``--group-query-attention``: the KV heads, else one per attention head;
* ``--kv-channels``: the head dimension, absent → ``hidden / heads``;
* ``--max-position-embeddings`` (absent → ``--seq-length``), ``--untie-embeddings-and-output-weights``
  (tied by default), ``--disable-bias-linear`` (biases by default);
* the vocabulary: ``--padded-vocab-size``, else ``--vocab-size``, else GPT-2 BPE's 50,257 (the tokenizer
  of Megatron-LM's GPT examples: ``--tokenizer-type GPT2BPETokenizer``, ``gpt2-vocab.json``), padded to a
  multiple of ``--make-vocab-size-divisible-by`` (128) × TP (``_vocab_size_with_padding``).

The shape becomes a config.json-like mapping read by :func:`estimator.hf_config.spec_from_config` (Llama
fields with ``--swiglu``, GPT-NeoX's plain GeLU MLP without), so its parameters are counted from the
architecture as a pasted config.json's are.

A MoE line (s37 fixd #3; the same ``arguments.py``, ``_add_moe_args``): ``--num-experts`` experts, each of
``--moe-ffn-hidden-size`` (absent → ``--ffn-hidden-size``), ``--moe-router-topk`` routed per token (absent
→ 2, the argument's default), a shared expert of ``--moe-shared-expert-intermediate-size`` (Megatron's help:
"the total ffn hidden size" of the shared experts, so ``size / moe-ffn`` shared experts of that width),
every layer MoE (``--moe-layer-freq`` 1, its default). It is written as a DeepSeekMoE config (``deepseek``
with ``n_routed_experts``, ``n_shared_experts``, standard attention), so the total and the active
parameters are counted as that family's are. Left unbuilt (the flags stay named as not used): a line
without ``--swiglu`` (a plain-MLP expert no config family has), another ``--moe-layer-freq``, a shared size
that is no whole number of experts.
"""

from __future__ import annotations

from typing import Any

from bot.parse.configs.model import StackConfig, _short

SHAPE_FLAGS = (
    "--num-layers",
    "--hidden-size",
    "--num-attention-heads",
    "--ffn-hidden-size",
    "--num-query-groups",
    "--group-query-attention",
    "--kv-channels",
    "--max-position-embeddings",
    "--padded-vocab-size",
    "--vocab-size",
    "--swiglu",
    "--untie-embeddings-and-output-weights",
    "--disable-bias-linear",
    "--make-vocab-size-divisible-by",
    "--num-experts",
    "--moe-router-topk",
    "--moe-ffn-hidden-size",
    "--moe-shared-expert-intermediate-size",
)
"""The flags that make the model's shape (each marked used as ``architecture`` once the model is built)."""
GPT2_VOCAB = 50257
"""GPT-2 BPE's vocabulary (``gpt2-vocab.json``; Megatron-LM's GPT examples' tokenizer)."""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def padded_vocab(vocab: int, divisible_by: int, tp: int) -> int:
    """``_vocab_size_with_padding``: ``vocab`` rounded up to a multiple of ``divisible_by × tp``."""
    multiple = divisible_by * max(1, tp)
    return -(-vocab // multiple) * multiple


def megatron_config(pairs: list[tuple[str, Any]], tp: int = 1) -> dict[str, Any] | None:
    """A config.json-like mapping of the model the Megatron-LM flags ``pairs`` build, or None when the
    three required shape flags are not all whole numbers (or a MoE line)."""
    flags = dict(pairs)
    layers, hidden, heads = (
        _int(flags.get(f)) for f in ("--num-layers", "--hidden-size", "--num-attention-heads")
    )
    if not (layers and hidden and heads):
        return None
    swiglu = "--swiglu" in flags
    ffn = _int(flags.get("--ffn-hidden-size")) or (
        int((4 * hidden * 2 / 3) / 64) * 64 if swiglu else 4 * hidden
    )
    groups = _int(flags.get("--num-query-groups")) if "--group-query-attention" in flags else None
    vocab = _int(flags.get("--padded-vocab-size")) or padded_vocab(
        _int(flags.get("--vocab-size")) or GPT2_VOCAB,
        _int(flags.get("--make-vocab-size-divisible-by")) or 128,
        tp,
    )
    config: dict[str, Any] = {
        "model_type": "llama" if swiglu else "gpt_neox",
        "architectures": ["Megatron-LM GPT"],
        "num_hidden_layers": layers,
        "hidden_size": hidden,
        "num_attention_heads": heads,
        "num_key_value_heads": groups or heads,
        "intermediate_size": ffn,
        "vocab_size": vocab,
        "max_position_embeddings": _int(flags.get("--max-position-embeddings"))
        or _int(flags.get("--seq-length"))
        or 2048,
        "tie_word_embeddings": "--untie-embeddings-and-output-weights" not in flags,
        "attention_bias": "--disable-bias-linear" not in flags,
    }
    if _int(flags.get("--kv-channels")):
        config["head_dim"] = flags["--kv-channels"]
    if "--num-experts" in flags:
        return _moe_config(flags, config, swiglu)
    return config


def _moe_config(flags: dict[str, Any], config: dict[str, Any], swiglu: bool) -> dict[str, Any] | None:
    """``config`` with the experts of a MoE line (module doc), or None when it is one left unbuilt."""
    experts, width = _int(flags.get("--num-experts")), _int(flags.get("--moe-ffn-hidden-size"))
    width = width or config["intermediate_size"]
    shared = _int(flags.get("--moe-shared-expert-intermediate-size")) or 0
    freq = flags.get("--moe-layer-freq", 1)
    if not (experts and swiglu) or shared % width or freq not in (1, "1"):
        return None
    return config | {
        "model_type": "deepseek",
        "n_routed_experts": experts,
        "num_experts_per_tok": _int(flags.get("--moe-router-topk")) or 2,
        "moe_intermediate_size": width,
        "n_shared_experts": shared // width,
        "first_k_dense_replace": 0,
        "moe_layer_freq": 1,
    }


def megatron_shape(pairs: list[tuple[str, Any]], cfg: StackConfig) -> StackConfig:
    """``cfg`` with the model the Megatron-LM flags ``pairs`` build as its ``architecture`` (the shape flags
    then used, no longer named as not used); unchanged when they build none or one no model has."""
    config = megatron_config(pairs, cfg.values.get("tp") or 1)
    if config is None:
        return cfg
    from estimator.hf_config import ConfigError, spec_from_config

    try:
        spec = spec_from_config(config).spec
    except ConfigError:
        return cfg  # values no model has: the flags stay named as not used
    vocab = (
        ""
        if {"--padded-vocab-size", "--vocab-size"} & dict(pairs).keys()
        else ", GPT-2 BPE vocabulary assumed"
    )
    cfg.architecture = spec.model_copy(
        update={
            "source": f"Megatron-LM arguments given by the user{vocab}; parameters counted from the shape"
        }
    )
    for flag, value in pairs:
        if flag in SHAPE_FLAGS:
            cfg.unused.pop(f"{flag}: {_short(value)}", None)
            cfg.used[flag] = "architecture"
    return cfg
