"""config.json → ModelSpec (estimator.hf_config): every supported family read from its release config, the
architecture equal to the catalog entry of the same model and the count within 3 % of the official one;
bad files refused with a stable code naming the fields.

The configs below hold the fields of each release's config.json as the catalog entry's ``source`` cites
them (Hugging Face model repositories; noted per config), in the config's own field names.
"""

from __future__ import annotations

import json
import math

import pytest

from estimator import catalog
from estimator.architecture import count_params
from estimator.hf_config import MAX_CONFIG_BYTES, ConfigError, spec_from_config, spec_from_json

LLAMA3_8B = {  # meta-llama/Meta-Llama-3-8B config.json
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "max_position_embeddings": 8192,
    "rope_theta": 500000.0,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "hidden_act": "silu",
}
QWEN25_7B = {  # Qwen/Qwen2.5-7B config.json
    "architectures": ["Qwen2ForCausalLM"],
    "model_type": "qwen2",
    "hidden_size": 3584,
    "intermediate_size": 18944,
    "num_attention_heads": 28,
    "num_hidden_layers": 28,
    "num_key_value_heads": 4,
    "vocab_size": 152064,
    "max_position_embeddings": 131072,
    "sliding_window": 131072,
    "max_window_layers": 28,
    "use_sliding_window": False,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
}
QWEN3_8B = {  # Qwen/Qwen3-8B config.json
    "architectures": ["Qwen3ForCausalLM"],
    "model_type": "qwen3",
    "head_dim": 128,
    "hidden_size": 4096,
    "intermediate_size": 12288,
    "num_attention_heads": 32,
    "num_hidden_layers": 36,
    "num_key_value_heads": 8,
    "vocab_size": 151936,
    "max_position_embeddings": 40960,
    "attention_bias": False,
    "tie_word_embeddings": False,
    "use_sliding_window": False,
    "sliding_window": None,
}
QWEN3_30B_A3B = {  # Qwen/Qwen3-30B-A3B config.json
    "architectures": ["Qwen3MoeForCausalLM"],
    "model_type": "qwen3_moe",
    "head_dim": 128,
    "hidden_size": 2048,
    "intermediate_size": 6144,
    "moe_intermediate_size": 768,
    "num_attention_heads": 32,
    "num_hidden_layers": 48,
    "num_key_value_heads": 4,
    "num_experts": 128,
    "num_experts_per_tok": 8,
    "decoder_sparse_step": 1,
    "mlp_only_layers": [],
    "vocab_size": 151936,
    "max_position_embeddings": 32768,
    "tie_word_embeddings": False,
}
QWEN2_57B_A14B = {  # Qwen/Qwen2-57B-A14B config.json
    "architectures": ["Qwen2MoeForCausalLM"],
    "model_type": "qwen2_moe",
    "hidden_size": 3584,
    "intermediate_size": 18944,
    "moe_intermediate_size": 2560,
    "shared_expert_intermediate_size": 20480,
    "num_attention_heads": 28,
    "num_hidden_layers": 28,
    "num_key_value_heads": 4,
    "num_experts": 64,
    "num_experts_per_tok": 8,
    "decoder_sparse_step": 1,
    "vocab_size": 151936,
    "max_position_embeddings": 65536,
    "tie_word_embeddings": False,
}
MIXTRAL_8X7B = {  # mistralai/Mixtral-8x7B-v0.1 config.json
    "architectures": ["MixtralForCausalLM"],
    "model_type": "mixtral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "max_position_embeddings": 32768,
    "num_attention_heads": 32,
    "num_experts_per_tok": 2,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "num_local_experts": 8,
    "sliding_window": None,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "vocab_size": 32000,
}
MISTRAL_7B = {  # mistralai/Mistral-7B-v0.1 config.json
    "architectures": ["MistralForCausalLM"],
    "model_type": "mistral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "max_position_embeddings": 32768,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "sliding_window": 4096,
    "tie_word_embeddings": False,
    "vocab_size": 32000,
}
DEEPSEEK_V3 = {  # deepseek-ai/DeepSeek-V3 config.json
    "architectures": ["DeepseekV3ForCausalLM"],
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "num_hidden_layers": 61,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "num_experts_per_tok": 8,
    "first_k_dense_replace": 3,
    "moe_layer_freq": 1,
    "kv_lora_rank": 512,
    "q_lora_rank": 1536,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "vocab_size": 129280,
    "max_position_embeddings": 163840,
    "tie_word_embeddings": False,
    "torch_dtype": "bfloat16",
    "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8"},
}
DEEPSEEK_V2_LITE = {  # deepseek-ai/DeepSeek-V2-Lite config.json (q_lora_rank null)
    "architectures": ["DeepseekV2ForCausalLM"],
    "model_type": "deepseek_v2",
    "hidden_size": 2048,
    "intermediate_size": 10944,
    "moe_intermediate_size": 1408,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "num_hidden_layers": 27,
    "n_routed_experts": 64,
    "n_shared_experts": 2,
    "num_experts_per_tok": 6,
    "first_k_dense_replace": 1,
    "moe_layer_freq": 1,
    "kv_lora_rank": 512,
    "q_lora_rank": None,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "vocab_size": 102400,
    "max_position_embeddings": 163840,
    "torch_dtype": "bfloat16",
}
GEMMA2_9B = {  # google/gemma-2-9b config.json
    "architectures": ["Gemma2ForCausalLM"],
    "model_type": "gemma2",
    "head_dim": 256,
    "hidden_activation": "gelu_pytorch_tanh",
    "hidden_size": 3584,
    "intermediate_size": 14336,
    "max_position_embeddings": 8192,
    "num_attention_heads": 16,
    "num_hidden_layers": 42,
    "num_key_value_heads": 8,
    "sliding_window": 4096,
    "vocab_size": 256000,
    "torch_dtype": "float32",
}
GEMMA3_27B_IT = {  # google/gemma-3-27b-it config.json (multimodal; text_config without vocab_size)
    "architectures": ["Gemma3ForConditionalGeneration"],
    "model_type": "gemma3",
    "text_config": {
        "head_dim": 128,
        "hidden_size": 5376,
        "intermediate_size": 21504,
        "model_type": "gemma3_text",
        "num_attention_heads": 32,
        "num_hidden_layers": 62,
        "num_key_value_heads": 16,
        "query_pre_attn_scalar": 168,
        "sliding_window": 1024,
    },
    "vision_config": {"hidden_size": 1152, "num_hidden_layers": 27, "model_type": "siglip_vision_model"},
    "torch_dtype": "bfloat16",
}
CHATGLM3_6B = {  # THUDM/chatglm3-6b config.json
    "architectures": ["ChatGLMModel"],
    "model_type": "chatglm",
    "add_bias_linear": False,
    "add_qkv_bias": True,
    "ffn_hidden_size": 13696,
    "hidden_size": 4096,
    "kv_channels": 128,
    "multi_query_attention": True,
    "multi_query_group_num": 2,
    "num_attention_heads": 32,
    "num_layers": 28,
    "padded_vocab_size": 65024,
    "seq_length": 8192,
    "tie_word_embeddings": False,
    "torch_dtype": "float16",
}
PHI3_MINI = {  # microsoft/Phi-3-mini-4k-instruct config.json
    "architectures": ["Phi3ForCausalLM"],
    "model_type": "phi3",
    "hidden_size": 3072,
    "intermediate_size": 8192,
    "max_position_embeddings": 4096,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 32,
    "sliding_window": 2047,
    "tie_word_embeddings": False,
    "vocab_size": 32064,
    "torch_dtype": "bfloat16",
}
GPT_NEOX_20B = {  # EleutherAI/gpt-neox-20b config.json
    "architectures": ["GPTNeoXForCausalLM"],
    "model_type": "gpt_neox",
    "hidden_size": 6144,
    "intermediate_size": 24576,
    "max_position_embeddings": 2048,
    "num_attention_heads": 64,
    "num_hidden_layers": 44,
    "rotary_pct": 0.25,
    "tie_word_embeddings": False,
    "use_parallel_residual": True,
    "vocab_size": 50432,
}
FALCON_7B = {  # tiiuae/falcon-7b config.json (no tie_word_embeddings key: FalconConfig's default applies)
    "architectures": ["FalconForCausalLM"],
    "model_type": "falcon",
    "alibi": False,
    "bias": False,
    "hidden_size": 4544,
    "multi_query": True,
    "new_decoder_architecture": False,
    "num_attention_heads": 71,
    "num_hidden_layers": 32,
    "parallel_attn": True,
    "vocab_size": 65024,
    "torch_dtype": "bfloat16",
}
FALCON_180B = {  # tiiuae/falcon-180B config.json
    "architectures": ["FalconForCausalLM"],
    "model_type": "falcon",
    "alibi": False,
    "bias": False,
    "hidden_size": 14848,
    "new_decoder_architecture": True,
    "num_attention_heads": 232,
    "num_hidden_layers": 80,
    "num_kv_heads": 8,
    "parallel_attn": True,
    "vocab_size": 65024,
}
GPT_OSS_20B = {  # openai/gpt-oss-20b config.json
    "architectures": ["GptOssForCausalLM"],
    "model_type": "gpt_oss",
    "attention_bias": True,
    "experts_per_token": 4,
    "head_dim": 64,
    "hidden_size": 2880,
    "intermediate_size": 2880,
    "layer_types": ["sliding_attention", "full_attention"] * 12,
    "max_position_embeddings": 131072,
    "num_attention_heads": 64,
    "num_experts_per_tok": 4,
    "num_hidden_layers": 24,
    "num_key_value_heads": 8,
    "num_local_experts": 32,
    "quantization_config": {"quant_method": "mxfp4"},
    "sliding_window": 128,
    "tie_word_embeddings": False,
    "vocab_size": 201088,
}

QWEN_7B = {  # Qwen/Qwen-7B config.json (first generation: intermediate_size counts w1 and w2 together)
    "architectures": ["QWenLMHeadModel"],
    "model_type": "qwen",
    "hidden_size": 4096,
    "intermediate_size": 22016,
    "kv_channels": 128,
    "max_position_embeddings": 32768,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "seq_length": 8192,
    "tie_word_embeddings": False,
    "vocab_size": 151936,
}
PHI_2 = {  # microsoft/phi-2 config.json
    "architectures": ["PhiForCausalLM"],
    "model_type": "phi",
    "hidden_act": "gelu_new",
    "hidden_size": 2560,
    "intermediate_size": 10240,
    "max_position_embeddings": 2048,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "partial_rotary_factor": 0.4,
    "tie_word_embeddings": False,
    "torch_dtype": "float16",
    "vocab_size": 51200,
}
GLM4_9B = {  # THUDM/glm-4-9b config.json
    "architectures": ["ChatGLMModel"],
    "model_type": "chatglm",
    "add_qkv_bias": True,
    "ffn_hidden_size": 13696,
    "hidden_size": 4096,
    "kv_channels": 128,
    "multi_query_attention": True,
    "multi_query_group_num": 2,
    "num_attention_heads": 32,
    "num_layers": 40,
    "padded_vocab_size": 151552,
    "seq_length": 8192,
    "torch_dtype": "bfloat16",
}

# (config, catalog id): the config is that model's release config.json
CASES = [
    (LLAMA3_8B, "Llama-3-8B"),
    (QWEN25_7B, "Qwen2.5-7B"),
    (QWEN3_8B, "Qwen3-8B"),
    (QWEN3_30B_A3B, "Qwen3-30B-A3B"),
    (QWEN2_57B_A14B, "Qwen2-57B-A14B"),
    (MIXTRAL_8X7B, "Mixtral-8x7B"),
    (MISTRAL_7B, "Mistral-7B"),
    (DEEPSEEK_V3, "DeepSeek-V3"),
    (DEEPSEEK_V2_LITE, "DeepSeek-V2-Lite"),
    (GEMMA2_9B, "Gemma-2-9B"),
    (GEMMA3_27B_IT, "Gemma-3-27B"),
    (CHATGLM3_6B, "ChatGLM3-6B"),
    (PHI3_MINI, "Phi-3-mini"),
    (GPT_NEOX_20B, "GPT-NeoX-20B"),
    (FALCON_7B, "Falcon-7B"),
    (FALCON_180B, "Falcon-180B"),
    (GPT_OSS_20B, "gpt-oss-20b"),
    (QWEN_7B, "Qwen-7B"),
    (PHI_2, "Phi-2"),
    (GLM4_9B, "GLM-4-9B"),
]
ARCHITECTURE_FIELDS = (
    "layers", "hidden", "heads", "kv_heads", "head_dim_effective", "ffn_type", "vocab", "tied_embeddings",
    "sliding_window", "sliding_window_layers", "attention_bias", "experts", "experts_top_k",
    "shared_ffn_hidden", "expert_ffn_hidden", "moe_layers", "dense_mlp_layers", "kv_lora_rank",
    "q_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim", "release_precision",
)  # fmt: skip


@pytest.mark.parametrize(("config", "model_id"), CASES, ids=[c[1] for c in CASES])
def test_release_config_reads_as_the_catalog_entry(config: dict, model_id: str) -> None:
    read = spec_from_json(json.dumps(config))
    spec, expected = read.spec, catalog.model(model_id)
    assert not read.assumed_family
    for name in ARCHITECTURE_FIELDS:
        if name == "release_precision" and model_id in ("Gemma-2-9B", "ChatGLM3-6B"):
            continue  # float32 / float16 files; the catalog records the precision the weights are served in
        if name == "experts" and not expected.is_moe:
            assert not spec.is_moe
            continue
        assert getattr(spec, name) == getattr(expected, name), name
    # the count is computed from the config: the catalog entry's count, within 3 % of the official figure
    total, active = count_params(expected)
    assert spec.params_total == total
    assert spec.params_total == pytest.approx(expected.params_total, rel=0.03)
    assert spec.params_active == (active if expected.is_moe else None)


def test_llama3_8b_config_gives_the_exact_checkpoint_count() -> None:
    # Meta-Llama-3-8B safetensors: 8,030,261,248 parameters
    assert spec_from_config(LLAMA3_8B).spec.params_total == 8_030_261_248


def test_release_precision_and_names() -> None:
    assert spec_from_config(DEEPSEEK_V3).spec.release_precision == "fp8"
    assert spec_from_config(GPT_OSS_20B).spec.release_precision == "mxfp4"
    assert spec_from_config(CHATGLM3_6B).spec.release_precision == "fp16"
    named = spec_from_config({**QWEN25_7B, "_name_or_path": "/data/ckpt/my-qwen-sft/"}).spec
    assert named.name == "my-qwen-sft"
    unnamed = spec_from_config(QWEN25_7B).spec
    assert unnamed.name == "Qwen2ForCausalLM 7.62B"


def test_multimodal_config_sizes_its_text_model() -> None:
    read = spec_from_config(GEMMA3_27B_IT)
    assert read.text_only and read.model_type == "gemma3_text"
    assert read.spec.vocab == 262_208  # Gemma3TextConfig's default, which the 27B's text_config relies on


def test_qwen2_sliding_window_only_when_used() -> None:
    assert spec_from_config(QWEN25_7B).spec.sliding_window is None
    windowed = {**QWEN25_7B, "use_sliding_window": True, "sliding_window": 4096, "max_window_layers": 21}
    on = spec_from_config(windowed)
    assert (on.spec.sliding_window, on.spec.sliding_window_layers) == (4096, 7)  # layers 21..27


def test_unknown_causal_lm_with_llama_fields_is_read_as_llama_like() -> None:
    read = spec_from_config({**LLAMA3_8B, "model_type": "my_llama", "architectures": ["MyLlamaForCausalLM"]})
    assert read.assumed_family
    assert read.spec.params_total == 8_030_261_248
    assert "my_llama" in read.spec.source


# -- refusals ------------------------------------------------------------------------------------


def refused(data: object) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        spec_from_json(data) if isinstance(data, str | bytes) else spec_from_config(data)
    return err.value


@pytest.mark.parametrize(
    "text", ["not json", "{'model_type': 'llama'}", '{"a": NaN}', "[" * 100_000, b"\xff\xfe\x00garbage"]
)
def test_not_json(text: str | bytes) -> None:
    assert refused(text).code == "not_json"


def test_json_but_not_an_object() -> None:
    assert refused("[1, 2, 3]").code == "not_object"
    assert refused('"config"').code == "not_object"


def test_ten_megabytes_is_too_large_before_parsing() -> None:
    big = b"{" + b" " * (10 * 2**20) + b"}"
    err = refused(big)
    assert err.code == "too_large"
    assert len(big) > MAX_CONFIG_BYTES


def test_missing_fields_are_named() -> None:
    config = {k: v for k, v in LLAMA3_8B.items() if k not in ("intermediate_size", "vocab_size")}
    err = refused(config)
    assert err.code == "missing_fields"
    assert set(err.fields) == {"intermediate_size", "vocab_size"}
    assert err.model_type == "llama"


def test_unsupported_model_type_names_it_and_the_missing_fields() -> None:
    err = refused({"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 768})
    assert err.code == "unsupported" and err.model_type == "bert"
    assert "num_hidden_layers" in err.fields
    encoder = {**LLAMA3_8B, "model_type": "t5", "architectures": ["T5ForConditionalGeneration"]}
    assert refused(encoder).code == "unsupported"


def test_experts_in_a_family_read_as_dense_are_refused_not_ignored() -> None:
    err = refused({**LLAMA3_8B, "model_type": "minicpm", "num_experts": 8, "num_experts_per_tok": 2})
    assert err.code == "unsupported_layout" and err.fields == ("num_experts",)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"num_hidden_layers": "32"}, "num_hidden_layers"),
        ({"num_hidden_layers": True}, "num_hidden_layers"),
        ({"num_hidden_layers": 32.5}, "num_hidden_layers"),
        ({"num_hidden_layers": -1}, "layers"),
        ({"num_hidden_layers": 0}, "layers"),
        ({"num_hidden_layers": 10**9}, "layers"),
        ({"hidden_size": 4097}, "hidden_size"),
        ({"num_key_value_heads": 64}, "num_key_value_heads"),
        ({"num_key_value_heads": 7}, "num_key_value_heads"),
        ({"vocab_size": 10**12}, "vocab"),
        ({"tie_word_embeddings": "yes"}, "tie_word_embeddings"),
    ],
)
def test_absurd_or_mistyped_values_are_named(change: dict, field: str) -> None:
    err = refused({**LLAMA3_8B, **change})
    assert err.code == "bad_values"
    assert any(f.startswith(field) for f in err.fields), err.fields


def test_a_count_beyond_any_model_is_refused() -> None:
    huge = {"hidden_size": 262_144, "num_attention_heads": 2048, "num_key_value_heads": 2048,
            "intermediate_size": 4_000_000, "num_hidden_layers": 1000}  # fmt: skip
    err = refused({**LLAMA3_8B, **huge})
    assert err.code == "bad_values" and err.fields[0].startswith("parameters=")


def test_whole_numbers_written_as_floats_are_accepted() -> None:
    spec = spec_from_config({**LLAMA3_8B, "num_hidden_layers": 32.0}).spec
    assert spec.layers == 32 and math.isclose(spec.params_total, 8_030_261_248)


def test_deepseek_v1_moe_is_read_as_moe_with_standard_attention() -> None:
    """DeepSeekMoE 16B's config (model_type deepseek): the V2 MoE field names, no MLA. 64 routed experts
    of 1408 and 2 shared, 6 per token, the first layer dense: 2,048 × 1,408 × 3 per expert."""
    config = {**LLAMA3_8B, "model_type": "deepseek", "architectures": ["DeepseekForCausalLM"],
              "hidden_size": 2048, "intermediate_size": 10944, "moe_intermediate_size": 1408,
              "num_attention_heads": 16, "num_key_value_heads": 16, "num_hidden_layers": 28,
              "n_routed_experts": 64, "n_shared_experts": 2, "num_experts_per_tok": 6,
              "first_k_dense_replace": 1, "moe_layer_freq": 1, "vocab_size": 102400}  # fmt: skip
    spec = spec_from_config(config).spec
    assert (spec.experts, spec.shared_experts, spec.experts_top_k, spec.moe_layers) == (64, 2, 6, 27)
    assert spec.kv_lora_rank is None
    routed = 27 * 64 * 3 * 2048 * 1408
    assert spec.params_total - spec.params_active == routed * (64 - 6) / 64
