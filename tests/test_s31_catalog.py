"""Vision-language releases sized whole and hybrid linear-attention models (s31).

Every figure below is computed by hand from the released configs the entries' ``source`` cites:
Qwen2.5-VL-3B/7B-Instruct config.json (vision_config depth 32, hidden 1280, intermediate 3420, patch 14,
merge 2, out_hidden_size = the LLM's hidden) with transformers' modeling_qwen2_5_vl.py module shapes; the
Hub's safetensors count of Qwen2.5-VL-7B-Instruct, 8,292,166,656; MiniMax-M1's config.json (80 layers,
attn_type_list softmax on every 8th, 64 heads / 8 KV heads of 128) and its report (456B total, 45.9B
activated); vLLM's lightning-attention state shape (heads, head_dim, head_dim) per layer.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import catalog
from estimator.architecture import count_params, published_active_params
from estimator.state_layers import state_bytes_per_sequence
from estimator.weights import kv_bytes_per_sequence, kv_bytes_per_token


def _ask(capsys, question: str) -> dict:
    main(["ask", "--format", "json", "--", question])
    return json.loads(capsys.readouterr().out)


def _qwen25_vit(out_hidden: int, h: int = 1280, inter: int = 3420, depth: int = 32) -> int:
    """Qwen2.5-VL's vision tower by module: Conv3d 3·2·14·14·h (no bias); per block 2 RMSNorms, qkv and proj
    with bias, a gated MLP with bias; the merger: RMSNorm, Linear(4h, 4h), Linear(4h, out)."""
    block = 2 * h + (3 * h * h + 3 * h) + (h * h + h) + 3 * h * inter + 2 * inter + h
    merged = 4 * h
    return (
        3 * 2 * 14 * 14 * h + depth * block + h + merged * merged + merged + merged * out_hidden + out_hidden
    )


def test_qwen25_vl_7b_is_the_checkpoints_exact_count():
    m = catalog.model("Qwen2.5-VL-7B")
    assert m.vision is not None and m.vision.params == _qwen25_vit(3584) == 676_550_144
    total, active = count_params(m)
    assert total == active == 8_292_166_656  # Hub safetensors count of Qwen2.5-VL-7B-Instruct
    assert (
        total - m.vision.params == count_params(catalog.model("Qwen2.5-7B"))[0]
    )  # its LLM is Qwen2.5-7B's shape


def test_qwen25_vl_3b_counts_its_tower():
    m = catalog.model("Qwen2.5-VL-3B")
    assert m.vision is not None and m.vision.params == _qwen25_vit(2048)
    assert (m.layers, m.hidden, m.heads, m.kv_heads, m.ffn_hidden, m.vocab) == (
        36,
        2048,
        16,
        2,
        11008,
        151936,
    )
    assert m.tied_embeddings
    assert count_params(m)[0] == pytest.approx(3.75e9, rel=2e-3)


def test_vl_lora_counts_the_tower_as_frozen_weights(capsys):
    """LoRA on Qwen2.5-VL-7B: the frozen base holds 8.29B bf16 weights (the 7.62B LLM + the 0.68B tower);
    the adapters are the LLM's only (LLaMA-Factory freeze_vision_tower)."""
    vl = _ask(capsys, "LoRA微调Qwen2.5-VL-7B要几张4090")
    llm = _ask(capsys, "LoRA微调Qwen2.5-7B要几张4090")
    assert vl["request"]["model"] == "Qwen2.5-VL-7B"
    assert vl["interpretation"]["substitutions"] == []
    w_vl = vl["report"]["memory"]["breakdown"]["weights"]
    w_llm = llm["report"]["memory"]["breakdown"]["weights"]
    assert w_vl - w_llm == pytest.approx(2 * (8.29e9 - 7.61e9), rel=1e-6)  # one GPU, 2 B a weight
    assert vl["report"]["memory"]["breakdown"]["adapters"] == llm["report"]["memory"]["breakdown"]["adapters"]
    assert "视觉编码器和投影层" in vl["reply"] and "冻结" in vl["reply"]
    assert "未计入" not in vl["reply"]


def test_vl_full_finetune_keeps_no_gradients_for_the_tower(capsys):
    d = _ask(capsys, "Full fine-tune Qwen2.5-VL-7B-Instruct on 8 A100 80G with ZeRO-3")
    parts = d["report"]["memory"]["breakdown"]
    assert d["request"]["model"] == "Qwen2.5-VL-7B"
    # weights: all 8.29B in bf16; gradients: the trained 8.29B − 0.68B only (ZeRO-3 over 8)
    tower = catalog.model("Qwen2.5-VL-7B").vision.params  # type: ignore[union-attr]
    assert parts["gradients"] == pytest.approx(2 * (8.29e9 - tower) / 8, rel=1e-6)
    assert "frozen 16-bit weights" in d["reply"]


def test_vl_release_the_catalog_lacks_stays_its_llm(capsys):
    d = _ask(capsys, "Serve Qwen2.5-VL-32B-Instruct on A100s for 20 users")  # s38: the 72B is an entry now
    assert d["request"]["model"] == "Qwen2.5-32B"
    assert [s["reason"] for s in d["interpretation"]["substitutions"]] == ["vision_language_llm"]


@pytest.mark.parametrize(
    ("question", "model_id"),
    [
        ("部署 Qwen2.5-VL-7B-Instruct 要几张 4090", "Qwen2.5-VL-7B"),
        ("How many GPUs to serve Qwen/Qwen2.5-VL-3B-Instruct?", "Qwen2.5-VL-3B"),
        ("通义千问2.5-VL-3B 微调要多少显存", "Qwen2.5-VL-3B"),
        ("Serve MiniMax-M1 on 8 H200 at 128k context", "MiniMax-M1"),
        ("MiniMax M1 80k 部署需要几张 H20", "MiniMax-M1"),
        # must not misread: the text releases and MiniMax-M2 stay themselves
        ("部署 Qwen2.5-7B-Instruct 要几张 4090", "Qwen2.5-7B"),
        ("Serve MiniMax-M2 on 8 H100", "MiniMax-M2"),
    ],
)
def test_names_resolve(capsys, question, model_id):
    assert _ask(capsys, question)["request"]["model"] == model_id


def test_minimax_m1_counts_and_kv_cache_by_hand():
    m = catalog.model("MiniMax-M1")
    total, _ = count_params(m)
    assert total == pytest.approx(456e9, rel=1e-3)
    assert published_active_params(m) == pytest.approx(45.9e9, rel=2e-3)  # without embeddings and head
    # only the 10 softmax layers cache K and V: 2 · 10 · 8 · 128 · 2 B
    assert kv_bytes_per_token(m) == 2 * 10 * 8 * 128 * 2 == 40_960
    # 70 lightning layers × (64 heads × 128 × 128) bf16 state per sequence, whatever its length
    assert state_bytes_per_sequence(m) == 70 * 64 * 128 * 128 * 2
    assert kv_bytes_per_sequence(m, 131072) == 40_960 * 131072 + 70 * 64 * 128 * 128 * 2


def test_minimax_m1_concurrency_uses_the_softmax_layers(capsys):
    """At 128K context a sequence holds 5.37 GB of KV + 0.15 GB of state: 8 × H200 hold ~21 sequences
    beside the 912 GB of weights (all 80 layers cached would allow ~2)."""
    d = _ask(capsys, "部署 MiniMax-M1，8 张 H200，128k 上下文，能撑多少并发")
    assert d["request"]["model"] == "MiniMax-M1"
    inference = d["report"]["inference"]
    assert inference["kv_bytes_per_token"] == 40_960
    assert inference["kv_bytes_per_sequence"] == 40_960 * 131072 + 70 * 64 * 128 * 128 * 2
    assert 15 <= inference["max_concurrency"] <= 30


def test_rtx_pro_6000_blackwell_from_its_datasheet_figures():
    """4,000 AI TOPS (FP4 with sparsity) over 8 = 500 dense BF16 (as the RTX Blackwell whitepaper's RTX 5090
    table relates them); 96 GB GDDR7 at 1,792 GB/s; secondary pages quote the datasheet: confidence low."""
    g = catalog.gpu("RTX-PRO-6000-Blackwell")
    assert (g.peak_tflops_bf16, g.peak_tflops_fp8, g.peak_tflops_fp4) == (500.0, 1000.0, 2000.0)
    assert (g.memory_gib, g.memory_bandwidth_gbps, g.nvlink) == (96, 1792, False)
    assert g.confidence == "low" and "secondary" in g.source


@pytest.mark.parametrize(
    "question", ["用 2 张 RTX PRO 6000 部署 Qwen2.5-72B 够吗", "QLoRA 70B on one RTX PRO 6000 Blackwell?"]
)
def test_rtx_pro_6000_is_named(capsys, question):
    d = _ask(capsys, question)
    assert d["request"]["gpu"] == "RTX-PRO-6000-Blackwell"
    assert d["interpretation"]["unknown_gpu"] is None


def test_bare_rtx_6000_is_the_ada_card_said(capsys):
    """'rtx 6000' is three cards (Quadro RTX 6000, RTX 6000 Ada, RTX PRO 6000): read as the RTX 6000 Ada
    (NVIDIA's /rtx-6000/ page) and said — s35-fixa #5: as an unknown card it was sized on an A100."""
    it = _ask(capsys, "rtx 6000 跑 7B 推理")["interpretation"]
    assert it["unknown_gpu"] is None
    assert {"typed": "rtx 6000", "used": "RTX-6000-Ada", "reason": "rtx_6000_assumed"} in it["substitutions"]
