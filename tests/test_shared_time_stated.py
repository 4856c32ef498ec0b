"""With a GPU count stated, a request rate's prefill and decode share those GPUs' time (s20 #4): the check
sums both shares per copy, as the no-count path does (tests/test_prefill_decode_share.py), and says which
part is the larger, never prefill alone and then decode alone.

Llama-3.1-8B (8.03B) on 4 H100s at 20 req/s, 2,000 tokens in and 300 out: 20 × 2,000 = 40,000 prompt
tokens/s, each 2 × 8.03e9 FLOPs, ≈ 6.4e14 FLOP/s against 4 × 989.4 TFLOPS × 0.675 (the fitted prefill
MFU) ≈ 2.67e15: ≈ 24 % of each second (a little more with attention); decoding 20 × 300 = 6,000 tokens/s
takes target ÷ the aggregate at the load held (≈ 5,843 tokens/s: ≈ 103 %), so ≈ 127 % in all: ⌈4 × 1.27⌉
= 6 copies of one GPU."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Llama-3.1-8B on 4 H100s, 20 req/s, 2,000 in / 300 out", "decode is the larger part"),
        ("4 张 H100 部署 Llama-3.1-8B，每秒 20 个请求，输入 2000 token，输出 300 token", "其中解码占得更多"),
    ],
)
def test_prefill_and_decode_are_summed_on_the_stated_gpus(question: str, said: str) -> None:
    a = answer(question)
    assert a.report.request.prompt_tokens == 2000  # '2,000 in / 300 out' with a rate: the prompt (s20)
    (note,) = [w for w in a.report.warnings if w.code == "prefill_decode_short"]
    p = note.params
    assert (p["prefill_tokens_per_s"], p["target_tokens_per_s"], p["load_gpus"]) == (40_000, 6_000, 4)
    assert 0.23 < p["prefill_share"] < 0.27 and 1.0 < p["decode_share"] < 1.1
    assert p["limit"] == "decode" and (p["replicas"], p["per_copy"], p["gpus"]) == (6, 1, 6)
    assert not [w for w in a.report.warnings if w.code in ("prefill_short", "throughput_short")]
    assert said in render(a, "text")


def test_both_within_the_second_have_no_note() -> None:
    """2 req/s: 4,000 prompt tokens/s and 600 output tokens/s, far under the 4 GPUs' second."""
    a = answer("Llama-3.1-8B on 4 H100s, 2 req/s, 2,000 in / 300 out")
    codes = {w.code for w in a.report.warnings}
    assert not codes & {"prefill_decode_short", "prefill_short", "throughput_short"}
