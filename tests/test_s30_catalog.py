"""Models and cards people name that the catalog lacked (s30 census of the working splits and paraphrases),
the aliases people type, a family release named without a size, and names that stay as typed.

Every architecture figure below is the released config's, as its entry's ``source`` cites it:
GLM-130B from THUDM/GLM-130B configs/model_glm_130b.sh and its README; GPT-J-6B from EleutherAI/gpt-j-6b
config.json (via mlc-llm's model_preset.py); MiniMax-M2 from its config as vendored in GPTQModel and the
transformers docs (230B total, 10B active); Seed-OSS-36B from the seed-oss README and transformers'
SeedOssConfig; the AMD Instinct MI100 from AMD's launch specification table.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import count_params
from estimator.inference import kv_bytes_per_token

CONFIGS = {
    # id: (layers, hidden, heads, kv_heads, head_dim, ffn_hidden, vocab, max_context, tied, release)
    "GLM-130B": (70, 12288, 96, 96, 128, 32768, 150528, 2048, True, "fp16"),
    "GPT-J-6B": (28, 4096, 16, 16, 256, 16384, 50400, 2048, False, "bf16"),
    "MiniMax-M2": (62, 3072, 48, 8, 128, 1536, 200064, 196608, False, "fp8"),
    "Seed-OSS-36B": (64, 5120, 80, 8, 128, 27648, 155136, 524288, False, "bf16"),
}


@pytest.mark.parametrize("model_id", sorted(CONFIGS))
def test_entry_carries_its_config(model_id):
    layers, hidden, heads, kv, head_dim, ffn, vocab, ctx, tied, release = CONFIGS[model_id]
    m = catalog.models()[model_id]
    got = (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim_effective, m.ffn_hidden, m.vocab)
    assert got == (layers, hidden, heads, kv, head_dim, ffn, vocab)
    assert (m.max_context, m.tied_embeddings, m.release_precision) == (ctx, tied, release)
    assert "Read 2026-12-05" in m.source


def test_glm_130b_is_a_geglu_mha_model_of_130b():
    """README: 'GLU with GeLU activation, GeGLU … three projection matrices'; 70 × (4·h² + 3·h·32768) plus
    the 150,528-token table = 128.7B, 1.0 % under the stated 130B."""
    m = catalog.models()["GLM-130B"]
    assert m.ffn_type == "geglu" and m.kv_heads == m.heads
    total, _ = count_params(m)
    assert total == pytest.approx(128.69e9, rel=2e-3)


def test_minimax_m2_moe_shape_and_kv_cache():
    """256 experts of 1,536, top 8, no shared expert, every layer MoE; full attention on every layer:
    KV per token = 2 · 62 layers · 8 KV heads · 128 · 2 B = 253,952 B (248 KiB) in 16-bit."""
    m = catalog.models()["MiniMax-M2"]
    assert (m.experts, m.experts_top_k, m.shared_experts, m.moe_ffn_hidden, m.dense_layers) == (
        256,
        8,
        0,
        1536,
        0,
    )
    assert (m.params_total, m.params_active) == (230e9, 10e9)
    assert kv_bytes_per_token(m) == 2 * 62 * 8 * 128 * 2 == 253_952
    total, _ = count_params(m)
    assert total == pytest.approx(230e9, rel=0.01)


def test_seed_oss_counts_36b():
    """64 × (attention 115.3M + SwiGLU 3·5120·27648) + untied 155,136 × 5120 twice = 36.15B."""
    total, _ = count_params(catalog.models()["Seed-OSS-36B"])
    assert total == pytest.approx(36.15e9, rel=2e-3)


def test_mi100_datasheet_figures():
    """AMD: FP16 matrix 184.6 TFLOPS, bfloat16 92.3 (half: CDNA1), 32 GB HBM2 on a 4,096-bit bus at
    2.4 Gbps = 1,228.8 GB/s, no FP8."""
    g = catalog.gpu("MI100")
    assert (g.peak_tflops_bf16, g.peak_tflops_fp16, g.peak_tflops_fp8) == (92.3, 184.6, None)
    assert (g.memory_gib, g.memory_bandwidth_gbps, g.vendor, g.nvlink) == (32, 1228.8, "AMD", False)


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


RESOLVED = [
    ("GLM-130B 推理要几张A100", "GLM-130B"),
    ("glm130b int4 on 4 RTX 3090", "GLM-130B"),
    ("serve GPT-J-6B on a T4", "GPT-J-6B"),
    ("MiniMax-M2 部署要几张H20", "MiniMax-M2"),
    ("serve minimax m2 on 4 H200", "MiniMax-M2"),
    ("seed oss 36b 4卡4090 能跑吗", "Seed-OSS-36B"),
    ("serve Seed-OSS-36B-Instruct on 2 A100 80G", "Seed-OSS-36B"),
    ("qwen3 32b 部署 2张4090", "Qwen3-32B"),
    ("serve Qwen3-32B-AWQ on 2 RTX 4090", "Qwen3-32B"),
    ("glm4.5 air 推理 4张H20", "GLM-4.5-Air"),
    ("gpt oss 120b on one H100", "gpt-oss-120b"),
    ("千问3 32B 微调要几张A100", "Qwen3-32B"),
    ("ds v3 部署几张H20", "DeepSeek-V3"),
    ("k2 部署要几张H200", "Kimi-K2"),
    ("serve k2 on 16 H100", "Kimi-K2"),
    # a checkpoint path under a model key: its release tags dropped ('-instruct-hf', '-hf')
    ("TGI on one A100 40GB: --model-id codellama/CodeLlama-34b-Instruct-hf --num-shard 1", "CodeLlama-34B"),
    ("finetune on an RTX 3090 with base_model decapoda-research/llama-7b-hf", "LLaMA-7B"),
]


@pytest.mark.parametrize(("question", "model_id"), RESOLVED)
def test_alias_resolves_to_the_entry(capsys, question, model_id):
    d = _ask(capsys, question)
    assert d["request"]["model"] == model_id
    assert d["interpretation"]["unknown_model"] is None


def test_mi100_is_sized_as_itself(capsys):
    d = _ask(capsys, "MI100 上跑 Qwen2.5-7B 推理")
    assert d["request"]["gpu"] == "MI100" and d["interpretation"]["unknown_gpu"] is None


# s30 fixc #3: every size of the release, compact (the list was cut at four), the example one of them
FAMILY_ONLY = [
    (
        "Qwen3 微调要几张A100",
        "Qwen3",
        "“Qwen3”有好几种尺寸（0.6B / 1.7B / 4B / 8B / 14B / 30B-A3B / 32B / 235B-A22B）",
    ),
    ("Llama 3.2 lora on a 4090", "Llama 3.2", "“Llama 3.2” comes in several sizes (1B / 3B)"),
    ("serve qwen2.5 on 2 4090s", "qwen2.5", "(0.5B / 1.5B / 3B / 7B / 14B / 32B / 72B)"),
    ("llama3 推理要几张A100", "llama3", "“llama3”有好几种尺寸（8B / 70B）"),
]


@pytest.mark.parametrize(("question", "typed", "line"), FAMILY_ONLY)
def test_family_release_without_a_size_is_named_as_a_family(capsys, question, typed, line):
    """Before: 'Could not find the model “Qwen3”. Did you mean Qwen3-0.6B / …' — a release the catalog
    has in several sizes, named as missing; no size is ever sized in its place."""
    d = _ask(capsys, question)
    assert d["request"]["model"] is None and d["interpretation"]["unknown_model"] == typed
    main(["ask", "--format", "text", "--", question])
    out = capsys.readouterr().out
    assert line in out
    assert "Could not find" not in out and "没找到模型" not in out


STAYS_AS_TYPED = [
    ("DeepSeek-V4-Flash 部署要几张H20", "DeepSeek-V4-Flash"),
    ("serve Qwen3-Next-80B-A3B on 2 H100", "Qwen3-Next-80B-A3B"),  # s48 names: was "Qwen3-Next-80B"
    ("--model_name_or_path ./deepseek-math-7b-instruct 全参微调要几张A100", "deepseek-math-7b-instruct"),
]  # s31: MiniMax-M1 is in the catalog (state_layers: tests/test_s31_catalog.py), never MiniMax-M2


@pytest.mark.parametrize(("question", "typed"), STAYS_AS_TYPED)
def test_unknown_name_stays_as_typed(capsys, question, typed):
    """Not in the catalog (Qwen3-Next's official 3B active count is not its architecture's, so it is left
    out): named as typed, never a sibling."""
    d = _ask(capsys, question)
    assert d["interpretation"]["unknown_model"] == typed
    assert d["request"]["model"] is None


def test_long_context_release_path_is_said_not_tag_stripped(capsys):
    """'-1M' is no release tag (model_paths.TAG_TAIL_RE): the 1M-context release keeps its s28 reading."""
    d = _ask(capsys, "vllm serve --model Qwen/Qwen2.5-7B-Instruct-1M on one H100")
    assert [s["reason"] for s in d["interpretation"]["substitutions"]] == ["long_context_release"]


def test_k2_alias_does_not_read_sampling_top_k(capsys):
    d = _ask(capsys, "use top-k 2 sampling with Qwen2.5-7B on a 4090")
    assert d["request"]["model"] == "Qwen2.5-7B"
