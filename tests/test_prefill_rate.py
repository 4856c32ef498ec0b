"""A request rate's prompts are checked against the plan's prefill throughput (session 19, s19-fix item 5).

'serve Llama-3-70B on 4 H100s, 20 req/s, 2,000 tokens in and 200 out': 20 × 2,000 = 40,000 prompt tokens
a second to prefill. Prefill is compute-bound, 2·N FLOPs a token (Kaplan et al. 2020, forward pass): on
TP 4 × H100 (989 dense BF16 TFLOPS each) at the fitted prefill MFU 0.675, 2 × 70.6e9 × 2,000 tokens take
≈ 0.106 s without attention, ≈ 0.108 s with it: ≈ 18,574 tokens/s, under half the need: 3 copies (12
GPUs). 2 req/s (4,000 tokens/s) is prefilled: no note.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.serving_speed import FITTED


def _prefill(question: str):  # type: ignore[no-untyped-def]
    a = answer(question)
    return a, [w for w in a.report.warnings if w.code == "prefill_short"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("serve Llama-3-70B on 4 H100s, 20 req/s, 2,000 tokens in and 200 out", "Prefill is the limit"),
        (
            "4 张 H100 部署 Llama-3-70B，每秒 20 个请求，输入 2000 token，输出 200 token",
            "预填充（prefill）是瓶颈",
        ),
    ],
)
def test_a_rate_whose_prompts_exceed_prefill_is_named(question: str, said: str) -> None:
    a, (note,) = _prefill(question)
    p = note.params
    assert (p["rate"], p["prompt"], p["prefill_tokens_per_s"]) == (20, 2000, 40_000)
    peak = catalog.gpu("H100-SXM5-80GB").peak_flops_16bit
    linear_only = 2000 / (2 * 70.6e9 * 2000 / (peak * FITTED.prefill_mfu * 4))  # ≈ 18.9K tokens/s
    assert 0.95 * linear_only < p["prefill_capacity"] <= linear_only  # attention makes it a little slower
    assert (p["replicas"], p["per_copy"], p["gpus"]) == (3, 4, 12)  # ⌈40,000 ÷ 18,574⌉ = 3 copies of TP 4
    assert said in render(a, "text")


def test_a_rate_prefill_holds_has_no_note() -> None:
    _, notes = _prefill("serve Llama-3-70B on 4 H100s, 2 req/s, 2,000 tokens in and 200 out")
    assert notes == []
