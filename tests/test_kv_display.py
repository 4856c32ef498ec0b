"""The KV-cache line multiplies out: per token × context × concurrency = the total shown, also for models
with sliding-window layers (gpt-oss: 18 of 36 layers keep only 128 tokens; config.json
``layer_types`` / ``sliding_window``), where the per-token figure is the average over the context."""

from __future__ import annotations

import re

import pytest

from bot.cli import ask


def _kv_line(text: str) -> str:
    return next(line for line in text.splitlines() if "KV" in line and "×" in line and "=" in line)


@pytest.mark.parametrize(
    ("question", "per_token", "total_gb"),
    [
        # 18 full layers × 8 KV heads × 64 × 2 (K, V) × 2 B = 36 KiB per token over 16,384 tokens, plus
        # 18 windowed layers × 2,048 B × 128 tokens: 608.7 MB per sequence, × 500 = 304 GB
        ("gpt-oss-120b 用 vllm 部署，16K 上下文，500 并发，要几张 H100", "36.3 KiB（平均值", "304 GB"),
        (
            "serve gpt-oss-120b with vllm, 16k context, 500 concurrent users on H100",
            "36.3 KiB (averaged",
            "304 GB",
        ),
        # Llama 3.1 70B: 80 layers × 8 KV heads × 128 × 2 × 2 B = 320 KiB, no window: shown as is
        (
            "serve llama 3.1 70b with vllm, 16k context, 50 concurrent users on H100",
            "320 KiB per token",
            "268 GB",
        ),
    ],
)
def test_kv_line_multiplies_out(question: str, per_token: str, total_gb: str) -> None:
    line = _kv_line(ask(question, None, "text")[0])
    assert per_token in line and line.endswith(total_gb), line
    kib = float(re.search(r"([\d.]+) KiB", line).group(1))
    context = 16 * 1024
    users = 500 if "oss" in question else 50
    assert kib * 1024 * context * users / 1e9 == pytest.approx(float(total_gb.split()[0]), rel=0.01)
