"""The family readers of :mod:`estimator.hf_config`: which config.json fields each model family uses,
their defaults and plausible bounds, and :class:`ConfigError` (re-exported by :mod:`estimator.hf_config`,
whose docstring says which fields are read and why).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

BOUNDS: dict[str, tuple[int, int]] = {
    "layers": (1, 1_000),
    "hidden": (8, 262_144),
    "heads": (1, 4_096),
    "kv_heads": (1, 4_096),
    "head_dim": (4, 4_096),
    "ffn_hidden": (1, 4_194_304),
    "vocab": (2, 10_000_000),
    "max_context": (1, 1_000_000_000),
    "sliding_window": (1, 1_000_000_000),
    "attention_chunk_size": (1, 1_000_000_000),
    "experts": (1, 100_000),
    "experts_top_k": (1, 100_000),
    "shared_experts": (0, 1_000),
    "moe_ffn_hidden": (1, 4_194_304),
    "shared_expert_ffn_hidden": (1, 4_194_304),
    "dense_layers": (0, 1_000),
    "moe_layer_step": (1, 1_000),
    "kv_lora_rank": (1, 262_144),
    "q_lora_rank": (1, 262_144),
    "qk_rope_head_dim": (0, 4_096),
    "qk_nope_head_dim": (1, 4_096),
    "v_head_dim": (1, 4_096),
    "index_head_dim": (1, 4_096),
}

LLAMA_LIKE = frozenset(
    {
        "llama",
        "mistral",
        "qwen2",
        "qwen3",
        "phi3",
        "internlm",
        "internlm2",
        "internlm3",
        "baichuan",
        "olmo2",
        "smollm3",
        "cohere",
        "glm4",
        "minicpm",
        "yi",
        "deepseek",
    }
)
GEMMA = frozenset({"gemma", "gemma2", "gemma3", "gemma3_text"})
MIXTRAL_LIKE = frozenset({"mixtral", "phimoe"})
QWEN_MOE = frozenset({"qwen2_moe", "qwen3_moe"})
MLA = frozenset({"deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "minicpm3"})
LLAMA4 = frozenset({"llama4", "llama4_text"})
FALCON = frozenset({"falcon", "refinedweb", "refinedwebmodel"})
SUPPORTED = (
    LLAMA_LIKE
    | GEMMA
    | MIXTRAL_LIKE
    | QWEN_MOE
    | MLA
    | LLAMA4
    | FALCON
    | {"qwen", "chatglm", "phi", "gpt_neox", "starcoder2", "gpt_oss", "glm4_moe"}
)

TIED_DEFAULT: dict[str, bool] = {
    "gemma": True,
    "gemma2": True,
    "gemma3": True,
    "gemma3_text": True,
    "cohere": True,
    "smollm3": True,
    "starcoder2": True,
    "minicpm": True,
    "minicpm3": True,
    "falcon": True,
    "refinedweb": True,
    "refinedwebmodel": True,
}
"""``tie_word_embeddings`` when the config omits it: the config class's default (``GemmaConfig``,
``CohereConfig``, ``SmolLM3Config``, ``Starcoder2Config`` True; ``FalconConfig`` inherits
``PretrainedConfig``'s True; MiniCPM's remote ``MiniCPMConfig`` True). Every other family: False
(``LlamaConfig``, ``Qwen2Config``, ``MistralConfig``, ``Phi3Config``, ``GPTNeoXConfig`` …)."""

FAMILY_WORDS: dict[str, str] = {
    "llama": "Llama",
    "llama4": "Llama",
    "llama4_text": "Llama",
    "mistral": "Mistral",
    "mixtral": "Mixtral",
    "qwen": "Qwen",
    "qwen2": "Qwen",
    "qwen3": "Qwen",
    "qwen2_moe": "Qwen",
    "qwen3_moe": "Qwen",
    "gemma": "Gemma",
    "gemma2": "Gemma",
    "gemma3": "Gemma",
    "gemma3_text": "Gemma",
    "phi": "Phi",
    "phi3": "Phi",
    "phimoe": "Phi",
    "deepseek": "DeepSeek",
    "deepseek_v2": "DeepSeek",
    "deepseek_v3": "DeepSeek",
    "deepseek_v32": "DeepSeek",
    "kimi_k2": "Kimi",
    "chatglm": "ChatGLM",
    "glm4": "GLM",
    "glm4_moe": "GLM",
    "gpt_neox": "GPT-NeoX",
    "falcon": "Falcon",
    "refinedweb": "Falcon",
    "refinedwebmodel": "Falcon",
    "internlm": "InternLM",
    "internlm2": "InternLM",
    "internlm3": "InternLM",
    "baichuan": "Baichuan",
    "minicpm": "MiniCPM",
    "minicpm3": "MiniCPM",
    "starcoder2": "StarCoder",
    "gpt_oss": "gpt-oss",
    "olmo2": "OLMo",
    "smollm3": "SmolLM",
    "cohere": "Command R",
    "yi": "Yi",
}

EXPERT_KEYS = ("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts")
"""Keys that mark a mixture of experts: a family read as dense that has one is refused
(``unsupported_layout``), never sized as a dense model."""

LLAMA_FIELDS = ("num_hidden_layers", "hidden_size", "num_attention_heads", "intermediate_size", "vocab_size")
"""What a decoder-only reading needs at least (the Llama names)."""

FAMILY_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma3_text": {
        "vocab_size": 262_208,
        "head_dim": 256,
        "max_position_embeddings": 131_072,
        "sliding_window": 4096,
        "sliding_window_pattern": 6,
    },
}
"""Fields a family's released configs may leave to the config class, with the class's default (what
``transformers`` builds the model with): ``Gemma3TextConfig`` (v4.50) — Gemma 3's multimodal configs
carry a ``text_config`` without ``vocab_size``."""

DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "half": "fp16", "float": "fp32"}


class ConfigError(ValueError):
    """A config.json that cannot be sized. ``code`` is stable (the bot words it); ``fields`` names the
    fields concerned (missing ones, or ``name=value`` for bad ones); ``model_type`` as given."""

    def __init__(self, code: str, fields: tuple[str, ...] = (), model_type: str | None = None) -> None:
        super().__init__(f"{code}: {', '.join(fields)}" if fields else code)
        self.code = code
        self.fields = fields
        self.model_type = model_type


class _Reader:
    """Typed field access that collects every problem before raising one :class:`ConfigError`."""

    def __init__(self, config: Mapping[str, Any], model_type: str) -> None:
        self.config = config
        self.model_type = model_type
        self.missing: list[str] = []
        self.bad: list[str] = []

    def has(self, *names: str) -> bool:
        return any(self.config.get(n) is not None for n in names)

    def int(self, *names: str, default: int | None = None, required: bool = True) -> int | None:
        """The first of ``names`` present, as an integer; ``default`` when none is; else missing."""
        for name in names:
            value = self.config.get(name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                self.bad.append(f"{name}={_short(value)}")
                return None
            if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
                self.bad.append(f"{name}={_short(value)}")
                return None
            return int(value)
        if default is None and required:
            self.missing.append(names[0])
        return default

    def flag(self, name: str, default: bool) -> bool:
        value = self.config.get(name)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.bad.append(f"{name}={_short(value)}")
            return default
        return value

    def raise_problems(self) -> None:
        if self.missing:
            raise ConfigError("missing_fields", tuple(self.missing), self.model_type)
        if self.bad:
            raise ConfigError("bad_values", tuple(self.bad), self.model_type)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 24 else text[:21] + "…"


def _read(r: _Reader, model_type: str) -> dict[str, Any]:
    """The ModelSpec fields of one family (None where the family has no such field)."""
    if model_type == "chatglm":
        return _chatglm(r)
    if model_type in FALCON:
        return _falcon(r)
    out = _llama_fields(r, model_type)
    if model_type in GEMMA:
        out["ffn_type"] = "geglu"
        out["sliding_window_layers"] = _gemma_windowed(r, model_type, out["layers"])
        if out["sliding_window_layers"] is not None:
            out["sliding_window"] = r.int("sliding_window")
    elif model_type in ("gpt_neox", "phi", "starcoder2"):
        out["ffn_type"] = "gelu"
        bias_key = {"gpt_neox": "attention_bias", "starcoder2": "use_bias"}.get(model_type)
        out["attention_bias"] = r.flag(bias_key, True) if bias_key else True
    elif model_type == "qwen":
        ffn = out["ffn_hidden"]
        out["ffn_hidden"] = ffn // 2 if ffn else ffn
        out["max_context"] = r.int("seq_length", "max_position_embeddings", required=False)
        out["attention_bias"] = True
    if model_type in MIXTRAL_LIKE:
        out |= _moe(r, "num_local_experts", "intermediate_size")
        out["shared_experts"] = 0
        out["dense_layers"] = 0
    elif model_type in QWEN_MOE:
        out |= _qwen_moe(r, model_type, out["layers"])
    elif model_type in ("deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "glm4_moe") or (
        model_type == "deepseek" and r.has("n_routed_experts")
    ):
        out |= _deepseek_moe(r)
    elif model_type in LLAMA4:
        out |= _moe(r, "num_local_experts", "intermediate_size")
        out["shared_experts"] = 1
        out["ffn_hidden"] = r.int("intermediate_size_mlp", default=out["ffn_hidden"])
        out["moe_layer_step"] = r.int("interleave_moe_layer_step", default=1)
        out["dense_layers"] = 0
    elif model_type == "gpt_oss":
        out |= _moe(r, "num_local_experts", "intermediate_size")
        out["experts_top_k"] = r.int("num_experts_per_tok", "experts_per_token")
        out["attention_bias"] = r.flag("attention_bias", True)
    if model_type in MLA:
        out |= _mla(r)
    if not out.get("experts"):
        experts = [k for k in EXPERT_KEYS if isinstance(r.config.get(k), int) and r.config[k] > 1]
        if experts:  # a mixture of experts in a family read as dense: never size it as dense
            raise ConfigError("unsupported_layout", tuple(experts), model_type)
    if model_type not in GEMMA and out.get("sliding_window_layers") is None:
        out["sliding_window"], out["sliding_window_layers"] = _window(r, model_type, out["layers"])
    if model_type in LLAMA4:  # iRoPE: the RoPE layers attend within attention_chunk_size-token chunks
        out["attention_chunk_size"], out["chunked_layers"] = _chunked(r, out["layers"])
    return out


def _llama_fields(r: _Reader, model_type: str) -> dict[str, Any]:
    layers = r.int("num_hidden_layers", "n_layer", "num_layers")
    hidden = r.int("hidden_size", "d_model", "n_embd")
    heads = r.int("num_attention_heads", "n_head")
    kv_heads = r.int("num_key_value_heads", default=heads, required=False)
    bias = model_type in ("qwen2", "qwen2_moe") or r.flag("attention_bias", False)
    if model_type in ("internlm", "internlm2"):
        bias = r.flag("bias", model_type == "internlm")
    return {
        "layers": layers,
        "hidden": hidden,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": r.int("head_dim", required=False),
        "ffn_hidden": r.int("intermediate_size", "ffn_hidden_size", "n_inner"),
        "ffn_type": "swiglu",
        "vocab": r.int("vocab_size", "padded_vocab_size"),
        "tied_embeddings": r.flag("tie_word_embeddings", TIED_DEFAULT.get(model_type, False)),
        "max_context": r.int("max_position_embeddings", "model_max_length", "seq_length", required=False),
        "attention_bias": bias,
    }


def _gemma_windowed(r: _Reader, model_type: str, layers: int | None) -> int | None:
    """Layers using Gemma's sliding window: ``layer_types``, else Gemma 2's every other layer, Gemma 3's
    ``sliding_window_pattern`` (6); Gemma 1 has none."""
    if model_type == "gemma" or layers is None or not r.has("sliding_window"):
        return None
    counted = _layer_types(r)
    if counted is not None:
        return counted or None
    if model_type == "gemma2":
        return (layers + 1) // 2
    pattern = r.int("sliding_window_pattern", "_sliding_window_pattern", default=6)
    return layers - layers // pattern if pattern else None


def _layer_types(r: _Reader) -> int | None:
    kinds = r.config.get("layer_types")
    if not isinstance(kinds, list):
        return None
    return sum(1 for k in kinds if k == "sliding_attention")


def _window(r: _Reader, model_type: str, layers: int | None) -> tuple[int | None, int | None]:
    """(sliding window, windowed layers — None for all) outside Gemma: the ``layer_types`` marked
    ``sliding_attention`` where given; Qwen2/3 only with ``use_sliding_window`` (layers from
    ``max_window_layers`` on, ``Qwen2Config``); Mistral, Mixtral, StarCoder2: every layer
    (``MistralAttention`` passes ``sliding_window`` to every layer). Phi-3's and Llama's configs are read
    without one (Phi-3's ``sliding_window`` is a FlashAttention-2 setting the catalog's Phi-3 entries do
    not apply either; Llama has none)."""
    window = r.int("sliding_window", required=False)
    if window is None or model_type in ("phi3", "llama"):
        return None, None
    counted = _layer_types(r)
    if counted is not None:
        return (window, counted if counted != layers else None) if counted else (None, None)
    if model_type in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe"):
        if not r.flag("use_sliding_window", False):
            return None, None
        first = r.int("max_window_layers", default=0) or 0
        windowed = (layers or 0) - first
        return (window, windowed if windowed != layers else None) if windowed > 0 else (None, None)
    if model_type in ("mistral", "mixtral", "starcoder2"):
        return window, None
    return None, None


def _chunked(r: _Reader, layers: int | None) -> tuple[int | None, int | None]:
    """Llama 4's chunked local attention: (``attention_chunk_size`` in tokens, the layers using it). A layer
    is chunked where it uses RoPE: ``no_rope_layers[i]`` is 1 (transformers ``Llama4TextAttention``:
    ``use_rope = config.no_rope_layers[layer_idx]``, chunked when so); without the list, every layer but
    each ``no_rope_layer_interval``-th (default 4: 36 of 48). (None, None) without a chunk size. How much
    KV a chunked layer keeps is the runtime's (:mod:`estimator.chunked_kv`)."""
    chunk = r.int("attention_chunk_size", required=False)
    if not chunk or not layers:
        return None, None
    flags = r.config.get("no_rope_layers")
    if isinstance(flags, list) and flags:
        return chunk, sum(1 for f in flags[:layers] if f)
    interval = r.int("no_rope_layer_interval", default=4) or 4
    return chunk, layers - layers // interval


def _moe(r: _Reader, experts_key: str, width_key: str) -> dict[str, Any]:
    return {
        "experts": r.int(experts_key),
        "experts_top_k": r.int("num_experts_per_tok"),
        "moe_ffn_hidden": r.int(width_key),
    }


def _qwen_moe(r: _Reader, model_type: str, layers: int | None) -> dict[str, Any]:
    out = {
        "experts": r.int("num_experts"),
        "experts_top_k": r.int("num_experts_per_tok"),
        "moe_ffn_hidden": r.int("moe_intermediate_size"),
        "moe_layer_step": r.int("decoder_sparse_step", default=1),
        "dense_layers": 0,
        "shared_experts": 0,
    }
    if model_type == "qwen2_moe":
        shared = r.int("shared_expert_intermediate_size", required=False)
        if shared:
            out["shared_experts"] = 1
            out["shared_expert_ffn_hidden"] = shared
    dense = r.config.get("mlp_only_layers") or []
    if dense:
        leading = isinstance(dense, list) and sorted(dense) == list(range(len(dense)))
        if not leading or out["moe_layer_step"] != 1:
            r.bad.append(f"mlp_only_layers={_short(dense)}")
        else:
            out["dense_layers"] = len(dense)
    if out["moe_layer_step"] == 1:
        out["moe_layer_step"] = None
    return out


def _deepseek_moe(r: _Reader) -> dict[str, Any]:
    if not r.has("n_routed_experts"):  # MiniCPM3-style MLA without experts is read by _mla alone
        r.missing.append("n_routed_experts")
        return {}
    freq = r.int("moe_layer_freq", default=1)
    if freq not in (None, 1):
        r.bad.append(f"moe_layer_freq={freq}")
    return {
        "experts": r.int("n_routed_experts"),
        "experts_top_k": r.int("num_experts_per_tok"),
        "shared_experts": r.int("n_shared_experts", default=0),
        "moe_ffn_hidden": r.int("moe_intermediate_size"),
        "dense_layers": r.int("first_k_dense_replace", default=0),
    }


def _mla(r: _Reader) -> dict[str, Any]:
    return {
        "kv_lora_rank": r.int("kv_lora_rank"),
        "q_lora_rank": r.int("q_lora_rank", required=False) or None,
        "qk_rope_head_dim": r.int("qk_rope_head_dim"),
        "qk_nope_head_dim": r.int("qk_nope_head_dim"),
        "v_head_dim": r.int("v_head_dim"),
        "index_head_dim": r.int("index_head_dim", required=False) or None,  # DeepSeek-V3.2's DSA indexer
    }


def _chatglm(r: _Reader) -> dict[str, Any]:
    """ChatGLM2/3 and GLM-4-9B (``ffn_hidden_size``), or ChatGLM-6B v1 (``inner_hidden_size``)."""
    layers = r.int("num_layers", "num_hidden_layers")
    hidden = r.int("hidden_size")
    heads = r.int("num_attention_heads")
    if r.has("inner_hidden_size") and not r.has("ffn_hidden_size"):  # ChatGLM-6B (v1)
        return {
            "layers": layers,
            "hidden": hidden,
            "heads": heads,
            "kv_heads": heads,
            "head_dim": None,
            "ffn_hidden": r.int("inner_hidden_size"),
            "ffn_type": "gelu",
            "vocab": r.int("vocab_size"),
            "tied_embeddings": r.flag("tie_word_embeddings", True),
            "max_context": r.int("max_sequence_length", required=False),
            "attention_bias": True,
        }
    multi_query = r.flag("multi_query_attention", False)
    return {
        "layers": layers,
        "hidden": hidden,
        "heads": heads,
        "kv_heads": r.int("multi_query_group_num") if multi_query else heads,
        "head_dim": r.int("kv_channels", required=False),
        "ffn_hidden": r.int("ffn_hidden_size"),
        "ffn_type": "swiglu",
        "vocab": r.int("padded_vocab_size", "vocab_size"),
        "tied_embeddings": r.flag("tie_word_embeddings", False),
        "max_context": r.int("seq_length", required=False),
        "attention_bias": r.flag("add_qkv_bias", False),
    }


def _falcon(r: _Reader) -> dict[str, Any]:
    hidden = r.int("hidden_size", "n_embed")
    heads = r.int("num_attention_heads", "n_head")
    new_arch = r.flag("new_decoder_architecture", False)
    multi_query = r.flag("multi_query", True)
    if new_arch or not multi_query:
        kv_heads = r.int("num_kv_heads", "n_head_kv", default=heads, required=False)
    else:
        kv_heads = 1
    ffn = r.int("ffn_hidden_size", required=False)
    return {
        "layers": r.int("num_hidden_layers", "n_layer"),
        "hidden": hidden,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": None,
        "ffn_hidden": ffn or (4 * hidden if hidden else None),
        "ffn_type": "gelu",
        "vocab": r.int("vocab_size"),
        "tied_embeddings": r.flag("tie_word_embeddings", True),
        "max_context": r.int("max_position_embeddings", default=2048),
        "attention_bias": r.flag("bias", False),
    }


def _release_precision(config: Mapping[str, Any], moe: bool) -> str:
    quant = config.get("quantization_config")
    method = quant.get("quant_method") if isinstance(quant, Mapping) else None
    if method == "fp8":
        return "fp8"
    if method == "mxfp4" and moe:
        return "mxfp4"
    dtype = config.get("torch_dtype") or config.get("dtype")
    return DTYPES.get(str(dtype).lower(), "bf16") if dtype else "bf16"
