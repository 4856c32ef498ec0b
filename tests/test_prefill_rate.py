"""A request rate's prompts are checked against the plan's prefill throughput (session 19, s19-fix item 5).

'serve Llama-3-70B on 4 H100s, 20 req/s, 2,000 tokens in and 200 out': 20 × 2,000 = 40,000 prompt tokens
a second to prefill. Prefill is compute-bound, 2·N FLOPs a token (Kaplan et al. 2020, forward pass): on
TP 4 × H100 (989 dense BF16 TFLOPS each) at the fitted prefill MFU 0.675, 2 × 70.6e9 × 2,000 tokens take
≈ 0.106 s without attention, ≈ 0.108 s with it: ≈ 18,574 tokens/s, under half the need: 3 copies (12
GPUs). 2 req/s (4,000 tokens/s) is prefilled: no note.

s20 #4: prefill and decode share the same GPUs' time (vLLM's chunked prefill), so with a count stated the
check sums both shares per copy as the no-count path does (s19): prefill 40,000 ÷ ≈ 18,574 ≈ 2.15 of each
second, decoding 4,000 tokens/s ≈ 1.0: ⌈2.15 + 1.0⌉ = 4 copies of TP 4 (16 GPUs), prefill the larger part
(the note ``prefill_decode_short``, before ``prefill_short`` with 3 copies from prefill alone).
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.serving_speed import FITTED


def _prefill(question: str):  # type: ignore[no-untyped-def]
    a = answer(question)
    return a, [w for w in a.report.warnings if w.code == "prefill_decode_short"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("serve Llama-3-70B on 4 H100s, 20 req/s, 2,000 tokens in and 200 out", "prefill is the larger part"),
        (
            "4 张 H100 部署 Llama-3-70B，每秒 20 个请求，输入 2000 token，输出 200 token",
            "预填充占得更多",
        ),
    ],
)
def test_a_rate_whose_prompts_exceed_prefill_is_named(question: str, said: str) -> None:
    a, (note,) = _prefill(question)
    p = note.params
    assert (p["prefill_tokens_per_s"], p["target_tokens_per_s"], p["load_gpus"]) == (40_000, 4_000, 4)
    peak = catalog.gpu("H100-SXM5-80GB").peak_flops_16bit
    linear_only = 2000 / (2 * 70.6e9 * 2000 / (peak * FITTED.prefill_mfu * 4))  # ≈ 18.9K tokens/s
    assert 40_000 / linear_only <= p["prefill_share"] < 40_000 / (0.95 * linear_only)  # ≈ 2.15 of a second
    assert 0.9 < p["decode_share"] <= 1.0 and p["limit"] == "prefill"
    assert (p["replicas"], p["per_copy"], p["gpus"]) == (4, 4, 16)  # ⌈2.15 + 1.0⌉ = 4 copies of TP 4
    assert not [w for w in a.report.warnings if w.code in ("prefill_short", "throughput_short")]
    assert said in render(a, "text")


def test_a_rate_prefill_holds_has_no_note() -> None:
    _, notes = _prefill("serve Llama-3-70B on 4 H100s, 2 req/s, 2,000 tokens in and 200 out")
    assert notes == []
