"""Parameter counts computed from architecture match the official counts; bare sizes get sound shapes."""

from __future__ import annotations

import itertools
import math

import pytest

from estimator import catalog
from estimator.architecture import (
    SHAPE_ANCHORS,
    attention_params,
    count_params,
    embedding_params,
    published_active_params,
    shape_for_size,
    size_label,
)
from estimator.catalog import ModelSpec

MODELS = sorted(catalog.models())
MOE_MODELS = sorted(m for m in MODELS if catalog.model(m).is_moe)


@pytest.mark.parametrize("model_id", MODELS)
def test_total_params_match_official(model_id: str) -> None:
    m = catalog.model(model_id)
    total, active = count_params(m)
    assert total == pytest.approx(m.params_total, rel=0.03)
    if not m.is_moe:
        assert active == total


@pytest.mark.parametrize("model_id", MOE_MODELS)
def test_active_params_match_official(model_id: str) -> None:
    m = catalog.model(model_id)
    total, active = count_params(m)
    assert m.params_active is not None
    # like with like: the vendor's convention (params_active_excludes) applied to the computed count
    assert published_active_params(m) == pytest.approx(m.params_active, rel=0.03)
    assert active < total


def test_llama2_7b_exact() -> None:
    # Llama-2-7b-hf safetensors: 6,738,415,616 parameters.
    total, _ = count_params(catalog.model("Llama-2-7B"))
    assert total == 6_738_415_616


def test_llama3_8b_exact() -> None:
    # Meta-Llama-3-8B safetensors: 8,030,261,248 parameters.
    total, _ = count_params(catalog.model("Llama-3-8B"))
    assert total == 8_030_261_248


def test_gqa_shrinks_kv_projections() -> None:
    llama3 = catalog.model("Llama-3-8B")
    mha = llama3.model_copy(update={"kv_heads": llama3.heads})
    h = llama3.hidden
    # q,o: 2·h²; k,v with 8 of 32 heads: 2·h·(h/4)
    assert attention_params(llama3) == 2 * h * h + 2 * h * (h // 4)
    assert attention_params(mha) == 4 * h * h


def test_tied_embeddings_counted_once() -> None:
    m = catalog.model("Llama-3.2-1B")
    assert embedding_params(m) == m.vocab * m.hidden
    untied = m.model_copy(update={"tied_embeddings": False})
    assert count_params(untied)[0] - count_params(m)[0] == m.vocab * m.hidden


def test_mla_attention_deepseek_v3() -> None:
    # HF DeepseekV3Attention shapes for hidden 7168, 128 heads, q_lora 1536, kv_lora 512,
    # nope 128, rope 64, v 128.
    m = catalog.model("DeepSeek-V3")
    expected = (
        7168 * 1536 + 1536 + 1536 * 128 * 192  # q_a_proj, q_a_layernorm, q_b_proj
        + 7168 * 576 + 512 + 512 * 128 * 256  # kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj
        + 128 * 128 * 7168  # o_proj
    )  # fmt: skip
    assert attention_params(m) == expected


def test_gelu_mlp_is_two_matrices() -> None:
    gpt3 = catalog.model("GPT-3-175B")
    swiglu = gpt3.model_copy(update={"ffn_type": "swiglu"})
    diff = count_params(swiglu)[0] - count_params(gpt3)[0]
    assert diff == gpt3.layers * gpt3.hidden * gpt3.ffn_hidden


def test_shape_anchors_match_catalog() -> None:
    for model_id, params, layers, hidden in SHAPE_ANCHORS:
        m = catalog.model(model_id)
        assert (m.params_total, m.layers, m.hidden) == (params, layers, hidden)
        assert not m.is_moe and m.family in {"Llama", "Qwen"}


@pytest.mark.parametrize("params", [1e8, 7e9, 13e9, 70e9, 175e9, 1e12])
def test_shape_for_size_within_5_percent(params: float) -> None:
    spec = shape_for_size(params)
    assert isinstance(spec, ModelSpec)
    total, active = count_params(spec)
    assert total == pytest.approx(params, rel=0.05)
    assert active == total
    assert spec.params_total == params
    assert "interpolat" in spec.source


@pytest.mark.parametrize("exponent", [x / 2 for x in range(12, 27)])
def test_shape_for_size_whole_range(exponent: float) -> None:
    params = 10**exponent
    spec = shape_for_size(params)
    total, _ = count_params(spec)
    assert total == pytest.approx(params, rel=0.05)
    assert spec.hidden == spec.heads * spec.head_dim_effective
    assert spec.heads % spec.kv_heads == 0
    assert 2 * spec.hidden <= spec.ffn_hidden <= 6 * spec.hidden or spec.hidden < 512
    assert 10 <= spec.hidden / spec.layers <= 300


def test_shape_for_size_grows_monotonically_from_1b() -> None:
    sizes = [10 ** (x / 4) for x in range(36, 53)]
    specs = [shape_for_size(n) for n in sizes]
    assert all(a.hidden <= b.hidden for a, b in itertools.pairwise(specs))
    assert all(a.layers * a.hidden <= b.layers * b.hidden for a, b in itertools.pairwise(specs))


def test_shape_for_size_familiar_shapes() -> None:
    """The mainstream shape since 2024: GQA with 8 KV heads at every size (Llama 3 8B: 32 heads / 8 KV
    heads of 128, hidden 4096, SwiGLU 14336 = 3.5·h; Llama 3 70B: 64 / 8, hidden 8192, 80 layers)."""
    s7 = shape_for_size(7e9)
    assert (s7.hidden, s7.heads, s7.kv_heads, s7.ffn_hidden) == (4096, 32, 8, 14336)
    assert 30 <= s7.layers <= 33
    s9 = shape_for_size(9e9)
    assert (s9.hidden, s9.heads, s9.kv_heads) == (4096, 32, 8)
    # KV cache per token in bf16: 2 × layers × 8 × 128 × 2 bytes — a quarter of an MHA 9B's
    assert s9.layers * 8 * 128 * 2 * 2 == s9.layers * 4096
    s13 = shape_for_size(13e9)
    assert (s13.hidden, s13.heads, s13.kv_heads) == (5120, 40, 8)
    s70 = shape_for_size(70e9)
    assert (s70.hidden, s70.kv_heads) == (8192, 8)
    assert 76 <= s70.layers <= 84
    for n in [3e8, 1e9, 7e9, 13e9, 70e9, 175e9, 1e12]:
        shape = shape_for_size(n)
        assert shape.heads % 8 == 0  # tensor parallel 8 divides the heads
        assert shape.kv_heads == 8


def test_tiny_shapes_keep_every_head() -> None:
    tiny = shape_for_size(1e7)
    assert tiny.heads < 8 and tiny.kv_heads == tiny.heads


def test_shape_for_size_ids_and_determinism() -> None:
    assert shape_for_size(13e9).id == "dense-13B"
    assert shape_for_size(1.75e11).id == "dense-175B"
    assert shape_for_size(1e12).id == "dense-1T"
    assert shape_for_size(1e8).id == "dense-100M"
    assert shape_for_size(7e9) == shape_for_size(7e9)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, math.nan])
def test_shape_for_size_rejects_bad_input(bad: float) -> None:
    with pytest.raises(ValueError):
        shape_for_size(bad)


def test_size_label() -> None:
    assert size_label(7e9) == "7B"
    assert size_label(6.7e9) == "6.7B"
    assert size_label(1.5e12) == "1.5T"
    assert size_label(5e5) == "500K"


@pytest.mark.parametrize("exponent", [x / 4 for x in range(24, 53)] + [math.log10(123_456_789.0)])
def test_a_bare_size_s_spec_is_the_validated_one(exponent: float) -> None:
    """shape_for_size builds its ModelSpec without validating it again (issue 23 item 7): the instance
    validation makes of the same fields — the same fields in order with the same values and types, the
    same fields set, JSON and repr, its own aliases list — and its fixed parts are the count functions'
    on that spec."""
    from estimator.architecture import _dense_fixed

    params = 10**exponent
    fast = shape_for_size(params)
    slow = ModelSpec(**{k: getattr(fast, k) for k in fast.model_fields_set})
    assert fast == slow and list(fast.__dict__.items()) == list(slow.__dict__.items())
    assert [type(v) for v in fast.__dict__.values()] == [type(v) for v in slow.__dict__.values()]
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json() == slow.model_dump_json() and repr(fast) == repr(slow)
    # its own list each time it is built (s33: built once per size, kept: the builder itself asked again)
    assert fast.aliases == [] and fast.aliases is not shape_for_size.__wrapped__(params).aliases
    head_dim = fast.head_dim_effective
    fixed, attention = _dense_fixed(fast.hidden, fast.heads, fast.kv_heads, head_dim, fast.vocab)
    assert fixed == embedding_params(fast) + fast.hidden and type(fixed) is float
    assert attention == attention_params(fast) and type(attention) is float


def test_a_bare_size_of_another_type_is_validated() -> None:
    """An int size (not the float the field keeps) goes through validation, as before: a float spec."""
    spec = shape_for_size(7_000_000_000)
    assert type(spec.params_total) is float and spec == shape_for_size(7e9)
