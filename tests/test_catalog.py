"""The shipped catalogs load, validate and carry the datasheet numbers the estimator relies on."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from estimator import catalog

REQUIRED_GPU_FAMILIES = {
    "V100", "T4", "A100", "A800", "H100", "H800", "H20", "H200", "B200", "GB200", "L40S", "L20", "L4",
    "RTX 4090", "RTX 3090", "RTX 3060", "A10", "A10G", "RTX A6000", "Ascend 910", "Ascend 910B",
    "MI300X", "MI250X", "TPU v4", "TPU v5e", "TPU v5p",
}  # fmt: skip

REQUIRED_PRICE_FAMILIES = {
    "A100", "A800", "H100", "H800", "H20", "H200", "L40S", "RTX 4090", "V100", "A10", "Ascend 910B",
    "MI300X", "B200",
}  # fmt: skip

REQUIRED_MODELS = {
    "Llama-2-7B", "Llama-2-13B", "Llama-2-70B", "Llama-3-8B", "Llama-3-70B", "Llama-3.1-8B",
    "Llama-3.1-70B", "Llama-3.1-405B", "Llama-3.2-1B", "Llama-3.2-3B", "Qwen2-7B", "Qwen2-72B",
    "Qwen2.5-0.5B", "Qwen2.5-1.5B", "Qwen2.5-7B", "Qwen2.5-14B", "Qwen2.5-32B", "Qwen2.5-72B",
    "Qwen3-8B", "Qwen3-32B", "Qwen3-30B-A3B", "Qwen3-235B-A22B", "DeepSeek-V2", "DeepSeek-V3",
    "DeepSeek-R1", "Mixtral-8x7B", "Mixtral-8x22B", "GPT-3-175B", "ChatGLM3-6B", "GLM-4-9B",
    "Baichuan2-7B", "Baichuan2-13B", "Yi-6B", "Yi-34B", "Mistral-7B", "Gemma-2-9B", "Gemma-2-27B",
    "Phi-3-mini",
}  # fmt: skip


def _squash(text: str) -> str:
    return re.sub(r"[\s\-_]", "", text).lower()


# ------------------------------------------------------------------ GPUs


def test_gpu_catalog_loads_and_is_large_enough() -> None:
    gpus = catalog.gpus()
    assert len(gpus) >= 20
    assert {g.family for g in gpus.values()} >= REQUIRED_GPU_FAMILIES


@pytest.mark.parametrize("gpu_id", sorted(catalog.gpus()))
def test_gpu_entry_is_sourced_and_named_after_its_family(gpu_id: str) -> None:
    g = catalog.gpu(gpu_id)
    assert g.source.strip()
    assert _squash(g.family) in _squash(g.id), f"{g.id} does not contain its family {g.family!r}"
    assert g.peak_flops_16bit > 0
    assert all(a == a.lower() and a.strip() == a and a for a in g.aliases)
    if g.peak_tflops_fp8 is not None:
        assert g.peak_tflops_fp8 >= (g.peak_tflops_bf16 or g.peak_tflops_fp16 or 0)


def test_exactly_one_default_per_family() -> None:
    defaults = Counter(g.family for g in catalog.gpus().values() if g.default_for_family)
    families = {g.family for g in catalog.gpus().values()}
    assert set(defaults) == families
    assert all(count == 1 for count in defaults.values()), defaults


@pytest.mark.parametrize(
    ("family", "gpu_id"),
    [
        ("A100", "A100-SXM4-80GB"),
        ("H100", "H100-SXM5-80GB"),
        ("V100", "V100-SXM2-32GB"),
        ("RTX 4090", "RTX-4090"),
        ("Ascend 910B", "Ascend-910B"),
        ("TPU v4", "TPUv4"),
    ],
)
def test_default_variant(family: str, gpu_id: str) -> None:
    default = catalog.default_gpu_for_family(family)
    assert default is not None and default.id == gpu_id


def test_gpu_aliases_are_unique() -> None:
    counts = Counter(a for g in catalog.gpus().values() for a in g.aliases)
    assert [a for a, n in counts.items() if n > 1] == []


def test_dense_peaks_from_datasheets() -> None:
    # NVIDIA A100 datasheet: BF16 312 dense (624 is "with sparsity").
    assert catalog.gpu("A100-SXM4-80GB").peak_tflops_bf16 == 312.0
    assert catalog.gpu("A100-SXM4-40GB").peak_tflops_bf16 == 312.0
    # NVIDIA H100 SXM datasheet: 1,979 with sparsity -> 989.4 dense.
    assert catalog.gpu("H100-SXM5-80GB").peak_tflops_bf16 == pytest.approx(989.4)
    assert catalog.gpu("H100-SXM5-80GB").peak_tflops_fp8 == pytest.approx(1978.9)
    # Ada whitepaper: RTX 4090 BF16 with FP32 accumulate 165.2 (the training rate).
    assert catalog.gpu("RTX-4090").peak_tflops_bf16 == pytest.approx(165.2)
    # GA102 whitepaper: RTX 3090 FP32-accumulate 71.
    assert catalog.gpu("RTX-3090").peak_tflops_bf16 == pytest.approx(71.0)
    # V100 datasheet: 125 TFLOPS FP16 tensor, no BF16.
    v100 = catalog.gpu("V100-SXM2-32GB")
    assert v100.peak_tflops_fp16 == 125.0 and v100.peak_tflops_bf16 is None
    assert v100.peak_flops_16bit == 125e12
    # AMD MI300X datasheet: 1,307.4 dense (2,614.9 is sparse).
    assert catalog.gpu("MI300X").peak_tflops_bf16 == pytest.approx(1307.4)


def test_memory_is_gib_as_marketed() -> None:
    assert catalog.gpu("A100-SXM4-80GB").memory_gib == 80
    assert catalog.gpu("A100-SXM4-80GB").memory_bytes == 80 * 2**30
    assert catalog.gpu("H200-SXM-141GB").memory_gib == 141
    assert catalog.gpu("TPUv4").memory_gib == 32


def test_fast_links_only_where_in_node_fabric_exists() -> None:
    gpus = catalog.gpus()
    for g in gpus.values():
        if (
            g.personal
            or "PCIe" in g.id
            or g.family in {"T4", "L4", "L20", "L40S", "A10", "A10G", "RTX A6000"}
        ):
            assert not g.nvlink, g.id
    for gpu_id in ["A100-SXM4-80GB", "H100-SXM5-80GB", "H800-SXM5-80GB", "MI300X", "Ascend-910B", "TPUv5p"]:
        assert gpus[gpu_id].nvlink, gpu_id
    assert all(g.gpus_per_node == 4 for g in gpus.values() if g.vendor == "Google")


def test_secondary_sources_are_marked_low_confidence() -> None:
    ascend = catalog.gpu("Ascend-910B")
    assert ascend.confidence == "low"
    assert "secondary" in ascend.source.lower()
    assert ascend.memory_gib == 64


# ------------------------------------------------------------------ models


def test_model_catalog_loads_and_is_large_enough() -> None:
    models = catalog.models()
    assert len(models) >= 30
    assert set(models) >= REQUIRED_MODELS


@pytest.mark.parametrize("model_id", sorted(catalog.models()))
def test_model_entry_is_consistent(model_id: str) -> None:
    m = catalog.model(model_id)
    assert m.source.strip()
    assert m.heads % m.kv_heads == 0
    assert all(a == a.lower() and a.strip() == a and a for a in m.aliases)
    if m.is_moe:
        assert m.params_active is not None and m.params_active < m.params_total
        assert m.experts_top_k and m.moe_ffn_hidden and m.experts_top_k <= (m.experts or 0)
        assert (m.dense_layers or 0) < m.layers
    else:
        assert m.params_active is None
    if m.kv_lora_rank:
        assert m.qk_rope_head_dim and m.v_head_dim and m.qk_nope_head_dim


def test_model_aliases_are_unique() -> None:
    counts = Counter(a for m in catalog.models().values() for a in m.aliases)
    assert [a for a, n in counts.items() if n > 1] == []


def test_model_facts_from_configs() -> None:
    llama3_8b = catalog.model("Llama-3-8B")
    # docs/design.md §3.4: Llama-3-8B KV = 32 layers × 8 KV heads × 128 × 2 (K,V) × 2 B = 128 KiB/token.
    kv_bytes = 2 * llama3_8b.layers * llama3_8b.kv_heads * llama3_8b.head_dim_effective * 2
    assert kv_bytes == 128 * 1024
    v3 = catalog.model("DeepSeek-V3")
    assert (v3.kv_lora_rank, v3.qk_rope_head_dim, v3.experts, v3.experts_top_k) == (512, 64, 256, 8)
    assert catalog.model("DeepSeek-R1").params_total == v3.params_total
    assert catalog.model("Mistral-7B").sliding_window == 4096
    assert catalog.model("GPT-3-175B").ffn_type == "gelu"
    assert catalog.model("GPT-3-175B").ffn_hidden == 4 * catalog.model("GPT-3-175B").hidden
    assert catalog.model("Gemma-2-9B").head_dim == 256
    assert catalog.model("Qwen3-32B").head_dim == 128


def test_chinese_aliases_present() -> None:
    aliases = {a: m.id for m in catalog.models().values() for a in m.aliases}
    assert aliases["百川2-13b"] == "Baichuan2-13B"
    assert aliases["千问72b"] == "Qwen-72B"  # the first generation's name: versions never cross
    assert aliases["满血r1"] == "DeepSeek-R1"
    gpu_aliases = {a: g.id for g in catalog.gpus().values() for a in g.aliases}
    assert gpu_aliases["昇腾910b"] == "Ascend-910B"
    assert gpu_aliases["a100 40g"] == "A100-SXM4-40GB"
    assert gpu_aliases["h100 pcie"] == "H100-PCIe-80GB"


# ------------------------------------------------------------------ prices


def test_price_catalog_covers_required_families() -> None:
    prices = catalog.prices()
    assert set(prices) >= REQUIRED_PRICE_FAMILIES
    gpu_families = {g.family for g in catalog.gpus().values()}
    assert set(prices) <= gpu_families


@pytest.mark.parametrize("family", sorted(catalog.prices()))
def test_price_entry_is_dated_sourced_and_ordered(family: str) -> None:
    p = catalog.prices()[family]
    assert re.fullmatch(r"20\d\d-(0[1-9]|1[0-2])", p.as_of)
    assert p.source.strip()
    assert (p.cny_low is None) == (p.cny_high is None)
    assert (p.usd_low is None) == (p.usd_high is None)
    assert p.cny_low is not None or p.usd_low is not None
    if p.cny_low is not None and p.cny_high is not None:
        assert p.cny_low <= p.cny_high
    if p.usd_low is not None and p.usd_high is not None:
        assert p.usd_low <= p.usd_high


def test_seed_a100_price() -> None:
    a100 = catalog.prices()["A100"]
    assert (a100.cny_low, a100.cny_high) == (15, 30)


CORPUS_GPUS = Path(__file__).resolve().parent / "data" / "gpus.json"
"""A copy of the project corpus's GPU records (../shared/corpus/gpus.json)."""


def test_every_corpus_gpu_with_a_dense_peak_is_in_the_catalog() -> None:
    records = json.loads(CORPUS_GPUS.read_text(encoding="utf-8"))["gpus"]
    gpus = catalog.gpus()
    checked = 0
    for r in records:
        if r["bf16_dense_tflops"] is None and r["fp16_dense_tflops"] is None:
            continue
        g = gpus[r["id"]]
        assert g.peak_tflops_bf16 == r["bf16_dense_tflops"], g.id
        assert g.peak_tflops_fp16 == r["fp16_dense_tflops"], g.id
        assert g.peak_tflops_fp8 == r["fp8_dense_tflops"], g.id
        assert g.memory_bandwidth_gbps == r["memory_bandwidth_gbps"], g.id
        assert g.confidence == r["confidence"], g.id
        checked += 1
    assert checked >= 25


def test_cdna4_cards_from_amd_datasheets() -> None:
    """MI355X and MI350X (AMD datasheets: 288 GB HBM3E, 8 TB/s; BF16 2.5 / 2.3 PF dense) are catalog
    cards, named and sized as typed (a trial found MI355X swapped for a suggestion)."""
    from bot.parse import parse

    mi355x, mi350x = catalog.gpu("MI355X"), catalog.gpu("MI350X")
    assert (mi355x.memory_gib, mi355x.peak_tflops_bf16, mi355x.peak_tflops_fp8) == (288, 2516.6, 5033.2)
    assert (mi350x.memory_gib, mi350x.peak_tflops_bf16, mi350x.memory_bandwidth_gbps) == (288, 2306.9, 8000)
    assert parse("用 8 张 MI355X 微调 Qwen2.5-72B").request.gpu == "MI355X"
    assert parse("serve Llama-3.1-405B on MI350X").request.gpu == "MI350X"
