"""A Hugging Face ``config.json`` → :class:`~estimator.catalog.ModelSpec`: size any model by its config.

Pure (no I/O): :func:`spec_from_json` takes the file's text, :func:`spec_from_config` the parsed object.
Problems raise :class:`ConfigError` with a stable ``code`` and the fields concerned (the bot words them):

* ``too_large`` — more than :data:`MAX_CONFIG_BYTES`; ``not_json`` — not JSON; ``not_object`` — JSON
  but not an object; ``too_deep`` — JSON nested deeper than Python's decoder follows (≈ 1,000 levels);
* ``unsupported`` — a ``model_type`` outside the families below that is not a causal LM either
  (``fields``: the fields a decoder-only reading would need and the config lacks);
* ``missing_fields`` — a supported family without a field its size depends on;
* ``unsupported_layout`` — a supported family with a layout it does not have (experts in a dense
  family, ``fields``: the expert keys);
* ``bad_values`` — a field of the wrong type or beyond any real model (``fields``: ``name=value``).

Families and their field mapping. Each line names the config class (``transformers`` v4.46–4.57,
``src/transformers/models/<type>/configuration_<type>.py``, or the model repo's own
``configuration_*.py`` for remote-code models) and the modeling code whose weight shapes the
parameter count follows (:func:`estimator.architecture.count_params`):

* Llama-like — ``llama``, ``mistral``, ``qwen2``, ``qwen3``, ``phi3``, ``internlm``, ``internlm2``,
  ``internlm3``, ``baichuan``, ``olmo2``, ``smollm3``, ``cohere``, ``glm4``, ``minicpm``, ``yi``,
  ``deepseek`` (v1): layers = ``num_hidden_layers``, hidden = ``hidden_size``, heads =
  ``num_attention_heads``, kv_heads = ``num_key_value_heads`` (absent → heads: ``LlamaConfig``
  "If it is not specified, will default to num_attention_heads"), head_dim = ``head_dim`` (absent →
  hidden / heads), ffn = ``intermediate_size``, vocab = ``vocab_size``, tied =
  ``tie_word_embeddings`` (absent → the family's config-class default, :data:`TIED_DEFAULT`),
  context = ``max_position_embeddings`` (Baichuan ``model_max_length``), gated SwiGLU MLP
  (``LlamaMLP``: gate, up, down); q/k/v biases: ``attention_bias`` (``LlamaConfig``), always for
  ``qwen2`` (``Qwen2Attention``: ``q_proj``/``k_proj``/``v_proj`` with ``bias=True``), ``bias`` for
  InternLM (v1: q/k/v/o biases; InternLM2 ``bias``).
* Qwen (v1, ``qwen``, QwenLM/Qwen ``modeling_qwen.py``): ``intermediate_size`` counts the two input
  matrices together (``QWenMLP``: ``w1``/``w2`` of ``intermediate_size // 2``), q/k/v bias (``c_attn``).
* Gemma 1/2/3 (``gemma``, ``gemma2``, ``gemma3``/``gemma3_text``; a multimodal config's
  ``text_config``): gated GeGLU MLP (``GemmaMLP`` with ``gelu_pytorch_tanh``), tied embeddings
  (``GemmaConfig`` default), ``head_dim`` as given. Sliding windows: Gemma 2 every other layer
  (``Gemma2DecoderLayer``: ``is_sliding = not bool(layer_idx % 2)``: ⌈L/2⌉ layers), Gemma 3 five of
  every six (``sliding_window_pattern`` 6: layer i slides unless (i+1) % 6 == 0), or ``layer_types``.
* Mixtral (``mixtral``), Phi-3.5-MoE (``phimoe``): ``num_local_experts`` experts of
  ``intermediate_size``, ``num_experts_per_tok`` routed per token, every layer MoE.
* Qwen MoE (``qwen2_moe``, ``qwen3_moe``): ``num_experts`` of ``moe_intermediate_size``,
  ``num_experts_per_tok``; Qwen2-MoE adds one shared expert of ``shared_expert_intermediate_size``;
  ``decoder_sparse_step`` k → every k-th layer MoE (``Qwen2MoeDecoderLayer``); ``mlp_only_layers``
  must be the leading layers.
* DeepSeek V2/V3 and Kimi K2 (``deepseek_v2``, ``deepseek_v3``, ``kimi_k2``), MiniCPM3 (``minicpm3``),
  GLM-4.5 (``glm4_moe``), DeepSeekMoE 16B (``deepseek`` with ``n_routed_experts``, standard attention):
  MLA ranks ``kv_lora_rank``, ``q_lora_rank`` (null = full-rank query),
  ``qk_rope_head_dim``, ``qk_nope_head_dim``, ``v_head_dim`` (``DeepseekV3Attention``); MoE
  ``n_routed_experts`` of ``moe_intermediate_size``, ``n_shared_experts``, ``num_experts_per_tok``,
  the first ``first_k_dense_replace`` layers dense (``moe_layer_freq`` must be 1).
* Llama 4 (``llama4``/``llama4_text``, ``text_config``): ``num_local_experts`` of
  ``intermediate_size`` + one shared expert, dense layers of ``intermediate_size_mlp``, every
  ``interleave_moe_layer_step``-th layer MoE (``Llama4TextDecoderLayer``).
* gpt-oss (``gpt_oss``): ``num_local_experts`` of ``intermediate_size``, ``num_experts_per_tok``,
  q/k/v biases, sliding window on the ``layer_types`` marked so; MXFP4 experts
  (``quantization_config.quant_method`` ``mxfp4``).
* ChatGLM2/3, GLM-4-9B (``chatglm``; THUDM/chatglm2-6b ``configuration_chatglm.py``): layers =
  ``num_layers``, kv_heads = ``multi_query_group_num`` when ``multi_query_attention``, head_dim =
  ``kv_channels``, ffn = ``ffn_hidden_size``, vocab = ``padded_vocab_size``, context =
  ``seq_length``, q/k/v bias = ``add_qkv_bias``, untied (``output_layer``). ChatGLM-6B (v1: an
  ``inner_hidden_size``): plain GeLU MLP, ``vocab_size``, ``max_sequence_length``, biases, tied.
* Phi-2 (``phi``): plain GeLU MLP (``fc1``, ``fc2``), q/k/v biases, untied.
* GPT-NeoX / Pythia (``gpt_neox``): plain GeLU MLP (``dense_h_to_4h``, ``dense_4h_to_h``),
  ``attention_bias`` (default true), untied (``GPTNeoXConfig`` default).
* Falcon (``falcon``, ``RefinedWeb``, ``RefinedWebModel``): ``FalconConfig`` (``n_layer``/``n_head``
  are aliases); kv_heads = ``num_kv_heads`` (``n_head_kv``) with ``new_decoder_architecture``, 1 with
  ``multi_query``, else heads (``FalconAttention``); MLP of ``ffn_hidden_size`` (absent → 4·hidden,
  ``FalconMLP``), plain GeLU; ``bias``; tied (``PretrainedConfig`` default: Falcon configs carry no
  key); context 2,048 when absent.
* StarCoder2 (``starcoder2``): plain MLP (``c_fc``, ``c_proj``), ``use_bias``, tied (default),
  ``sliding_window`` on every layer.

Any other ``model_type`` whose ``architectures`` name a causal LM (``…ForCausalLM``) and that has the
Llama field names is read as Llama-like, and the result says so (:attr:`HfConfigSpec.assumed_family`).

Release precision: ``quantization_config.quant_method`` ``fp8`` → fp8, ``mxfp4`` → mxfp4 (MoE only);
else ``torch_dtype`` (or ``dtype``): bfloat16 → bf16, float16 → fp16, float32 → fp32; absent → bf16.
The parameter count is computed from the architecture (:func:`~estimator.architecture.count_params`:
within 3 % of every catalog model's official count), not taken from the file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from estimator.architecture import count_params, size_label
from estimator.catalog import ModelSpec
from estimator.hf_families import BOUNDS as BOUNDS
from estimator.hf_families import DTYPES as DTYPES
from estimator.hf_families import EXPERT_KEYS as EXPERT_KEYS
from estimator.hf_families import FALCON as FALCON
from estimator.hf_families import FAMILY_DEFAULTS as FAMILY_DEFAULTS
from estimator.hf_families import FAMILY_WORDS as FAMILY_WORDS
from estimator.hf_families import GEMMA as GEMMA
from estimator.hf_families import LLAMA4 as LLAMA4
from estimator.hf_families import LLAMA_FIELDS as LLAMA_FIELDS
from estimator.hf_families import LLAMA_LIKE as LLAMA_LIKE
from estimator.hf_families import MIXTRAL_LIKE as MIXTRAL_LIKE
from estimator.hf_families import MLA as MLA
from estimator.hf_families import QWEN_MOE as QWEN_MOE
from estimator.hf_families import SUPPORTED as SUPPORTED
from estimator.hf_families import TIED_DEFAULT as TIED_DEFAULT
from estimator.hf_families import ConfigError as ConfigError
from estimator.hf_families import _read as _read
from estimator.hf_families import _Reader as _Reader
from estimator.hf_families import _release_precision as _release_precision

MAX_CONFIG_BYTES = 1_000_000
"""Largest config accepted (UTF-8 bytes). Real config.json files are 0.5–10 kB (Phi-3.5's, with its
RoPE factor lists, ~6 kB); a megabyte leaves room for long quantization lists."""

MAX_PARAMS = 1e14
"""Above 100 trillion parameters a config describes no real model (the largest open ones are ~1-2T)."""

#: (field, lowest, highest) for the integer fields: outside these no published model lies.


@dataclass(frozen=True)
class HfConfigSpec:
    """The spec read from a config and how it was read."""

    spec: ModelSpec
    model_type: str
    architecture: str | None = None
    assumed_family: bool = False
    """the model_type is not one of the supported families: read as a Llama-like causal LM"""
    text_only: bool = False
    """a multimodal config: the text model (``text_config``) was sized"""
    notes: tuple[str, ...] = field(default_factory=tuple)


def spec_from_json(text: str | bytes) -> HfConfigSpec:
    """The spec of a config.json given as text (or UTF-8 bytes). Raises :class:`ConfigError`."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_CONFIG_BYTES:
            raise ConfigError("too_large", (f"{len(text)} bytes",))
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ConfigError("not_json") from None
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CONFIG_BYTES:
        raise ConfigError("too_large", (f"{len(text.encode('utf-8', 'surrogatepass'))} bytes",))
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:  # nested deeper than the decoder's recursion limit
        raise ConfigError("too_deep" if closes_its_brackets(text) else "not_json") from None
    except ValueError:
        raise ConfigError("not_json") from None
    return spec_from_config(data)


def closes_its_brackets(text: str | bytes) -> bool:
    """Whether a text the JSON decoder gave up on (too deep to follow) closes every bracket it opens,
    i.e. reads as valid JSON nested too deeply rather than as a truncated or broken one ('[' × 100,000).
    Counts brackets only (a bracket inside a string counts too: good enough to choose the message)."""
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes | bytearray) else text
    opened = raw.count("{") + raw.count("[")
    return opened > 0 and opened == raw.count("}") + raw.count("]")


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def spec_from_config(config: Any) -> HfConfigSpec:
    """The spec of a parsed config.json (a mapping). Raises :class:`ConfigError`."""
    if not isinstance(config, Mapping):
        raise ConfigError("not_object")
    top_type = _model_type(config)
    text_only = False
    inner = config.get("text_config")
    if isinstance(inner, Mapping) and ("num_hidden_layers" in inner or "hidden_size" in inner):
        config = {**{k: v for k, v in config.items() if k != "text_config"}, **inner}
        text_only = top_type not in ("gemma3_text", "llama4_text")
    model_type = _model_type(config) or top_type
    if model_type == "gemma3" and text_only:
        model_type = "gemma3_text"
    if model_type == "llama4":
        model_type = "llama4_text"
    archs = config.get("architectures")
    arch = archs[0] if isinstance(archs, list) and archs and isinstance(archs[0], str) else None
    assumed = False
    if model_type not in SUPPORTED:
        missing = tuple(f for f in LLAMA_FIELDS if f not in config)
        causal = arch is not None and arch.endswith("ForCausalLM")
        if missing or not (causal or not model_type):
            raise ConfigError("unsupported", missing, model_type or None)
        assumed = bool(model_type)
        model_type = model_type or "llama"
    config = {**FAMILY_DEFAULTS.get(model_type, {}), **config}
    reader = _Reader(config, model_type)
    fields = _read(reader, model_type)
    reader.raise_problems()
    spec = _build(fields, config, model_type, arch)
    return HfConfigSpec(spec, model_type, arch, assumed, text_only)


def _model_type(config: Mapping[str, Any]) -> str:
    value = config.get("model_type")
    return value.strip().lower() if isinstance(value, str) else ""


def _check_shape(f: dict[str, Any]) -> list[str]:
    """Values no model has: outside :data:`BOUNDS`, heads that do not split the width or the KV heads."""
    bad = []
    for name, (low, high) in BOUNDS.items():
        value = f.get(name)
        if value is not None and not low <= value <= high:
            bad.append(f"{name}={value}")
    heads, kv, hidden = f.get("heads"), f.get("kv_heads"), f.get("hidden")
    if heads and kv and (kv > heads or heads % kv):
        bad.append(f"num_key_value_heads={kv} (of {heads} heads)")
    if heads and hidden and not f.get("head_dim") and not f.get("kv_lora_rank") and hidden % heads:
        bad.append(f"hidden_size={hidden} (not a multiple of {heads} heads)")
    experts, top_k = f.get("experts"), f.get("experts_top_k")
    if experts and top_k and top_k > experts:
        bad.append(f"num_experts_per_tok={top_k} (of {experts} experts)")
    layers = f.get("layers")
    if layers and (f.get("dense_layers") or 0) >= layers and experts:
        bad.append(f"first_k_dense_replace={f.get('dense_layers')} (of {layers} layers)")
    return bad


def _build(f: dict[str, Any], config: Mapping[str, Any], model_type: str, arch: str | None) -> ModelSpec:
    bad = _check_shape(f)
    if bad:
        raise ConfigError("bad_values", tuple(bad), model_type)
    heads, hidden, head_dim = f["heads"], f["hidden"], f.get("head_dim")
    if head_dim is not None and head_dim * heads == hidden:
        f["head_dim"] = None
    if f.get("kv_lora_rank") and head_dim is None:
        f["head_dim"] = f.get("v_head_dim")
    moe = bool(f.get("experts"))
    values = {k: v for k, v in f.items() if v is not None}
    name = _display_name(config, arch, model_type)
    try:
        probe = ModelSpec(
            id="config",
            name=name,
            family=FAMILY_WORDS.get(model_type, model_type),
            params_total=1.0,
            release_precision=_release_precision(config, moe),
            source="config.json",
            **values,
        )
    except ValidationError as exc:  # a combination the schema refuses (should not happen after the checks)
        fields = tuple(".".join(str(p) for p in e["loc"]) for e in exc.errors())
        raise ConfigError("bad_values", fields, model_type) from None
    total, active = count_params(probe)
    if not math.isfinite(total) or total > MAX_PARAMS:
        raise ConfigError("bad_values", (f"parameters={total:.3g}",), model_type)
    label = size_label(total)
    kind = arch or model_type
    return probe.model_copy(
        update={
            "id": f"config-{label}",
            "name": name or f"{kind} {label}",
            "params_total": total,
            "params_active": active if moe else None,
            "source": f"config.json given by the user (model_type {model_type!r}"
            + (f", {arch}" if arch else "")
            + "); parameters counted from its architecture",
        }
    )


def _display_name(config: Mapping[str, Any], arch: str | None, model_type: str) -> str:
    """The model's name as the config gives it (``_name_or_path``'s last part), else ''."""
    raw = config.get("_name_or_path")
    if isinstance(raw, str) and raw.strip():
        last = raw.strip().replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        if last and len(last) <= 80 and last not in (".", ".."):
            return last
    return ""
