"""Session 36, part fixm: a full fine-tune's *recommended* plan follows the fewest-cards plan's rule.

s36-left made the fewest-cards plan data-parallel first (ZeRO-3/FSDP, gradient checkpointing included)
when no Megatron-family tool is named and no TP/PP stated: DeepSpeed, the HF Trainer and LLaMA-Factory
run no TP beside ZeRO-3. The recommended count still searched TP without recompute first ('Recommended 24
GPUs: TP 4 × PP 1 × DP 6, ZeRO-3'). Now it searches data-parallel layouts first and keeps TP/PP for when
none fits comfortably (or a Megatron-family tool is named).

Bytes worked by hand from design §3.3: ZeRO-3 shards weights, gradients and AdamW's states (2 + 2 + 12 =
16 B/param) over DP; full recompute keeps each layer's input (layers × sequence × hidden × 2 bytes, bf16).
Meta Llama 3 70B: 80 layers, hidden 8,192 (config.json); sequence 2,048 (the default SFT length).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator.catalog import gpu as catalog_gpu
from estimator.catalog import model as catalog_model

HIDDEN = 8192  # Meta-Llama-3-70B config.json hidden_size


def ask(capsys, question: str, fmt: str = "json") -> dict | str:
    main(["ask", "--format", fmt, question])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out


def _rec(d: dict) -> tuple:
    m = d["report"]["memory"]
    p = m["recommended_plan"]
    return m["recommended_gpus"], p["tp"], p["pp"], p["dp"], p["zero_stage"], p["recompute"]


@pytest.mark.parametrize(
    "q",
    [
        "Full fine-tune Llama 3 70B on 24 H100",
        "全参微调 Llama 3 70B，24 张 H100",
        "full-parameter fine-tuning of Llama 3 70B on H100s, how many GPUs?",
        "用 H100 全参数微调 Llama 3 70B 需要几张卡",
    ],
)
def test_recommended_plan_is_data_parallel(capsys, q):
    d = ask(capsys, q)
    assert _rec(d) == (24, 1, 1, 24, 3, "full")
    spec = catalog_model("Llama-3-70B")
    states = 16 * spec.params_total / 24  # ZeRO-3 over DP 24: 47.1e9 bytes
    kept = spec.layers * 2048 * HIDDEN * 2  # full recompute's layer inputs: 2.68e9 bytes
    rec = d["report"]["memory"]["recommended_per_gpu_bytes"]
    assert states + kept <= rec <= 0.9 * catalog_gpu(d["request"]["gpu"]).addressable_bytes
    assert rec == pytest.approx(states + kept, rel=0.2)  # + logits, gathered weights, buckets, overhead


def test_reason_follows_the_plan(capsys):
    out = ask(capsys, "Full fine-tune Llama 3 70B on H100", "text")
    assert "Recommended 24 GPUs: TP 1 × PP 1 × DP 24, ZeRO-3, full recompute" in out
    assert "TP 4 × PP 1 × DP 6" not in out
    assert "recommended count runs without full recompute" not in out
    zh = ask(capsys, "用 H100 全参数微调 Llama 3 70B", "text")
    assert "推荐 24 张：TP 1 × PP 1 × DP 24，ZeRO-3，完全重计算" in zh


@pytest.mark.parametrize(
    "q",
    ["Full fine-tune Llama 3 70B on H100 with Megatron-LM", "用 NeMo 在 H100 上全参微调 Llama 3 70B"],
)
def test_megatron_keeps_tensor_parallel(capsys, q):
    """A Megatron-family tool named: TP inside a node without recompute, as before (must not misread)."""
    assert _rec(ask(capsys, q))[1] > 1


def test_small_model_unchanged(capsys):
    """Llama 3 8B: ZeRO-1 over a node without recompute was already data-parallel (8.03e9 × 12 / 8 + 4 B)."""
    assert _rec(ask(capsys, "Full fine-tune Llama 3 8B on H100")) == (8, 1, 1, 8, 1, "selective")


@pytest.mark.parametrize(
    "q", ["Full fine-tune Llama 3 70B on 24 H100 with TP 4", "全参微调 Llama 3 70B，24 张 H100，TP=4"]
)
def test_stated_tp_is_kept(capsys, q):
    """A stated TP is the user's layout: the recommended plan keeps it (must not misread as DP-first)."""
    assert _rec(ask(capsys, q))[:4] == (24, 4, 1, 6)
