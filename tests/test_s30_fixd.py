"""Models and cards a fresh-user trial named that the catalog lacked (session 30, fix d).

Every architecture figure below is the released config's, as its entry's ``source`` cites it:
GLM-4.6 from zai-org/GLM-4.6 config.json (GLM-4.5's shape, max_position_embeddings 202752); ERNIE-4.5
from baidu's ERNIE-4.5-300B-A47B / -21B-A3B config.json (Ernie4_5_MoeForCausalLM: moe_num_experts, moe_k,
moe_layer_start_index) as reproduced in MindIE-LLM's tests; Hunyuan-A13B from the official repo's
models/config.json (HunYuanMoEV1ForCausalLM: num_experts 64, moe_topk 8, num_shared_expert 1).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import count_params, published_active_params
from estimator.inference import kv_bytes_per_token

# id: (layers, hidden, heads, kv_heads, head_dim, ffn_hidden, vocab, max_context, tied)
CONFIGS = {
    "GLM-4.6": (92, 5120, 96, 8, 128, 12288, 151552, 202752, False),
    "ERNIE-4.5-300B-A47B": (54, 8192, 64, 8, 128, 28672, 103424, 131072, True),
    "ERNIE-4.5-21B-A3B": (28, 2560, 20, 4, 128, 12288, 103424, 131072, True),
    "Hunyuan-A13B": (32, 4096, 32, 8, 128, 3072, 128167, 262144, True),
}
# id: (experts, top_k, shared, moe_ffn_hidden, dense_layers)
MOE = {
    "GLM-4.6": (160, 8, 1, 1536, 3),
    "ERNIE-4.5-300B-A47B": (64, 8, 0, 3584, 3),
    "ERNIE-4.5-21B-A3B": (64, 6, 2, 1536, 1),
    "Hunyuan-A13B": (64, 8, 1, 3072, 0),
}


@pytest.mark.parametrize("model_id", sorted(CONFIGS))
def test_entry_carries_its_config(model_id):
    layers, hidden, heads, kv, head_dim, ffn, vocab, ctx, tied = CONFIGS[model_id]
    m = catalog.models()[model_id]
    got = (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim_effective, m.ffn_hidden, m.vocab)
    assert got == (layers, hidden, heads, kv, head_dim, ffn, vocab)
    assert (m.max_context, m.tied_embeddings) == (ctx, tied)
    assert (m.experts, m.experts_top_k, m.shared_experts, m.moe_ffn_hidden, m.dense_layers) == MOE[model_id]
    assert "read 2026-12-05" in m.source


def test_glm_46_is_glm_45_with_a_longer_context():
    a, b = catalog.model("GLM-4.5"), catalog.model("GLM-4.6")
    same = ("layers", "hidden", "heads", "kv_heads", "head_dim", "ffn_hidden", "vocab")
    same += ("experts", "experts_top_k", "moe_ffn_hidden", "dense_layers")
    assert all(getattr(a, f) == getattr(b, f) for f in same)
    assert (a.max_context, b.max_context) == (131072, 202752)


COUNTS = {
    # id: (official total, official active); the computed counts agree within 3 %
    "GLM-4.6": (355e9, 32e9),
    "ERNIE-4.5-300B-A47B": (300e9, 47e9),
    "ERNIE-4.5-21B-A3B": (21.8e9, 3e9),
    "Hunyuan-A13B": (80e9, 13e9),
}


@pytest.mark.parametrize("model_id", sorted(COUNTS))
def test_counts_match_the_release(model_id):
    m = catalog.model(model_id)
    total, _ = count_params(m)
    assert (m.params_total, m.params_active) == COUNTS[model_id]
    assert total == pytest.approx(m.params_total, rel=0.03)
    assert published_active_params(m) == pytest.approx(m.params_active, rel=0.03)


def test_kv_cache_per_token():
    # layers x kv_heads x head_dim x 2 (K and V) x 2 bytes
    assert kv_bytes_per_token(catalog.model("ERNIE-4.5-300B-A47B")) == 54 * 8 * 128 * 4 == 221184
    assert kv_bytes_per_token(catalog.model("Hunyuan-A13B")) == 32 * 8 * 128 * 4 == 131072


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


RESOLVED = [
    ("GLM-4.6 推理需要几张H100", "GLM-4.6"),
    ("serve zai-org/GLM-4.6-FP8 on 8 H200", "GLM-4.6"),
    ("文心4.5 300B 部署要几张H20", "ERNIE-4.5-300B-A47B"),
    ("how many H100 to serve ERNIE-4.5-300B-A47B", "ERNIE-4.5-300B-A47B"),
    ("ERNIE 4.5 21B A3B 用几张4090推理", "ERNIE-4.5-21B-A3B"),
    ("serve baidu/ERNIE-4.5-21B-A3B-PT on one L40S", "ERNIE-4.5-21B-A3B"),
    ("混元A13B 推理要几张A100", "Hunyuan-A13B"),
    ("Hunyuan-A13B-Instruct inference on 2 A100", "Hunyuan-A13B"),
]


@pytest.mark.parametrize(("question", "model_id"), RESOLVED)
def test_model_is_answered_with_its_entry(capsys, question, model_id):
    """Before: 'not in my catalog' / 'Could not find the model' (Hunyuan-A13B was sized as a generic 3B)."""
    d = _ask(capsys, question)
    assert d["request"]["model"] == model_id
    assert d["interpretation"]["unknown_model"] is None


def test_b300_hgx_figures():
    """HGX B300 table (8 GPUs, with sparsity): FP16/BF16 36 PF, FP8 72 PF -> per GPU dense 2,250 / 4,500;
    288 GB HBM3e, 8 TB/s, NVLink 5 at 1.8 TB/s both ways per GPU."""
    g = catalog.gpu("B300-HGX-288GB")
    assert (g.peak_tflops_bf16, g.peak_tflops_fp16, g.peak_tflops_fp8) == (2250.0, 2250.0, 4500.0)
    assert (g.memory_gib, g.memory_bandwidth_gbps, g.link_gbps, g.nvlink) == (288, 8000, 900.0, True)
    assert "read 2026-12-05" in g.source


B300_QUESTIONS = [
    "how many B300 to serve Llama 3 70B",
    "B300 上训练 70B 模型 1T token 要多久",
    "用8张HGX B300部署DeepSeek-V3",
]


@pytest.mark.parametrize("question", B300_QUESTIONS)
def test_b300_is_sized_as_itself(capsys, question):
    """Before: 'B300 is not in my catalog: sized on A100 80G instead' (counts and $ of an A100)."""
    d = _ask(capsys, question)
    assert d["request"]["gpu"] == "B300-HGX-288GB"
    assert d["interpretation"]["unknown_gpu"] is None
