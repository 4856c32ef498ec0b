"""Prefill and decode share the GPUs: a request rate is sized so both fit in a copy's second (s19-fxc 2).

Trial 19b E4: 'serve Qwen2.5-32B-Instruct at 50 QPS, 1000 tokens in, 300 out per request. How many H100s?'
50 × 1,000 = 50,000 prompt tokens/s × 2 × 32.5B FLOPs ≈ 3.3 PFLOP/s of prefill; one TP 8 copy of H100s
computes 8 × 989.4 TFLOPS × 0.675 (prefill MFU fitted on MLPerf Inference v4.1) ≈ 5.3 PFLOP/s: ≈ 61 % of
each second. Decoding 50 × 300 = 15,000 tokens/s at 706 sequences (≈ 24,156 tokens/s when decoding alone)
takes ≈ 62 %. vLLM's chunked prefill runs both in the same steps, so the copy needs 123 % of a second:
two copies (16 GPUs), where before prefill was checked alone (61 % < 100 %) and the answer said 8.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.serving_speed import FITTED

QUESTIONS = [
    (
        "We need to serve Qwen2.5-32B-Instruct at 50 QPS, 1000 tokens in, 300 out per request. "
        "How many H100s?",
        "Prefill and decode share the GPUs",
    ),
    (
        "我们要部署 Qwen2.5-32B-Instruct，50 QPS，每个请求输入 1000 token，输出 300 token，需要几张 H100？",
        "预填充和解码共用同一批卡",
    ),
]


@pytest.mark.parametrize(("question", "said"), QUESTIONS)
def test_prefill_and_decode_together_size_the_copies(question: str, said: str) -> None:
    a = answer(question)
    inf = a.report.inference
    (note,) = [w for w in a.report.warnings if w.code == "prefill_decode_share"]
    p = note.params
    assert p["prefill_tokens_per_s"] == 50_000 and p["target_tokens_per_s"] == 15_000
    peak = catalog.gpu("H100-SXM5-80GB").peak_flops_16bit
    linear = 50_000 * 2 * 32.5e9 / (8 * peak * FITTED.prefill_mfu)  # ≈ 0.608 of a second, no attention
    assert linear < p["prefill_share"] < 1.05 * linear
    assert 0.55 < p["decode_share"] < 0.7  # 15,000 ÷ ≈ 24,156 tokens/s
    assert p["prefill_share"] + p["decode_share"] > 1  # neither alone fills the second
    assert (p["load_gpus"], p["replicas"], p["per_copy"], p["gpus"]) == (8, 2, 8, 16)
    assert inf.recommended_gpus == 16
    assert said in render(a, "text")


def test_a_rate_that_fits_keeps_its_count() -> None:
    """5 QPS: 5,000 prompt tokens/s ≈ 6 % and 1,500 tokens/s of decoding: the count stays, no note."""
    a = answer("serve Qwen2.5-32B-Instruct at 5 QPS, 1000 tokens in, 300 out per request. How many H100s?")
    assert not [w for w in a.report.warnings if w.code == "prefill_decode_share"]
    assert a.report.inference.recommended_gpus <= 8
