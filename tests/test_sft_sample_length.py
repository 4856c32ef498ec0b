"""Plain SFT sized from a sample count with no length: the token count (samples × 512, the assumed
tokens per sample — estimator.defaults.TOKENS_PER_SAMPLE, Alpaca ≈ 270 / ShareGPT ≈ 1,000+ tokens per
sample) and the memory and batch (one sample per sequence) read one length, 512 — before, the time
used 512 tokens per sample and the memory 2,048 tokens per sequence (SEQ_LEN_FINETUNE)."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from estimator import estimate
from estimator.models import Method, Stage
from estimator.request import SizingRequest


def test_sft_on_a_sample_count_sizes_memory_at_the_tokens_per_sample():
    req = SizingRequest(
        stage=Stage.finetune,
        method=Method.lora,
        model="Qwen2.5-7B",
        num_samples=20_000,
        gpu="RTX-4090",
        gpu_count=4,
    )
    r = estimate(req)
    lines = {a.field: a for a in r.assumptions}
    assert lines["tokens_per_sample"].value == 512
    assert lines["seq_len"].value == 512 and lines["seq_len"].why == "seq_at_sample_tokens"
    # the same 512 at the other end: 20,000 samples × 512 = 10.24M tokens, 4·N·D with N = 7.61B
    assert r.request.seq_len == 512 and r.request.tokens == 20_000 * 512
    assert r.flops == pytest.approx(4 * 7.61e9 * 20_000 * 512, rel=1e-3)


def test_cli_ms_swift_sft_two_wan_samples_one_length(capsys):
    """`sizing-bot ask --format json` on the s11 question: ms-swift LoRA SFT of Qwen2.5-7B on 2万条样本
    with 4 × 4090 — request seq_len 512 (was 2048), 10.24M tokens, a step of 128 × 512 = 65,536 tokens."""
    q = "用ms-swift做SFT微调Qwen2.5-7B，2万条样本，LoRA，4张4090"
    assert main(["ask", "--format", "json", q]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["request"]["num_samples"] == 20_000
    assert data["request"]["seq_len"] == 512
    assert data["request"]["tokens"] == 20_000 * 512
    seq = next(a for a in data["assumptions"] if a["field"] == "seq_len")
    assert (seq["value"], seq["why"]) == (512, "seq_at_sample_tokens")
    assert "（6.6万 token）" in data["reply"]  # 128 sequences × 512 tokens per step
