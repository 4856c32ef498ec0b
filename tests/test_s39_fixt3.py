"""s39 fixt3: serving layouts a second fresh-user trial found wrong.

1. On the user's count, among the layouts that hold the stated load, the one decoding the most tokens a
   second at that load wins (NVLink cards), not the most copies: Qwen2.5-72B bf16 (145.4 GB) on 8 × H20
   at 50 users is TP 8, never TP 2 × 4 at ≈ 1,224 tokens/s, below 4 × H20's TP 4 (≈ 1,718).
   TP 8's room: 8 × 85.5 GiB usable (0.9 × 96 GB less nothing) = 734.5 GB, less the weights and 8 × 4.5 GB
   of vLLM workspace = 553 GB, ÷ (320 KiB × 4,096 = 1.342 GB) = 412 sequences.
2. 'How many at once' on a count that holds no full-context sequence: the layout beyond it is sized for one
   sequence, never the assumed team of 16. DeepSeek-R1-Distill-Qwen-32B GPTQ int4 (19.2 GB) at 128K on
   L20 (42.8 GiB usable): one sequence is 32 GiB of KV, so 2 GPUs; their room 2 × 42.8 GiB − 17.9 GiB −
   2 × 1.3 GB workspace ≈ 65 GiB ÷ 32 GiB = 2 sequences (not "16 GPUs: up to 16").
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator.serving_layout import Layout, layout_on


def _text(question: str) -> str:
    return render(answer(question), "text")


@pytest.mark.parametrize(
    ("question", "head", "line"),
    [
        (
            "deploy Qwen2.5-72B on 8 H20, 50 concurrent",
            "Qwen2.5 72B bf16 inference on 8 × H20: fits (TP=8)",
            "• On 8 GPUs: up to 412 concurrent sequences at 4K context",
        ),
        (
            "部署Qwen2.5-72B，8张H20，并发50",
            "Qwen2.5 72B bf16 推理，8 张 H20：放得下（TP=8）",
            "• 8 张卡：4K 上下文下最多约 412 条并发",
        ),
    ],
)
def test_more_cards_never_decode_slower_than_fewer(question: str, head: str, line: str) -> None:
    a = answer(question)
    out = render(a, "text")
    assert out.splitlines()[0] == head and line in out
    assert "TP=2 × 4" not in out and "TP=2 × 4 个副本" not in out
    four = answer(question.replace("8 H20", "4 H20").replace("8张H20", "4张H20"))
    assert four.report.inference.tp == 4 and four.report.inference.replicas == 1
    more, fewer = a.report.inference.decode_tokens_per_s, four.report.inference.decode_tokens_per_s
    assert more.aggregate > fewer.aggregate  # the same 50 users: 8 cards are not slower than 4


def test_the_layout_is_rated_at_the_load_only_among_those_holding_it() -> None:
    """layout_on with a rate: the faster of the layouts that hold the load wins; without one (or on PCIe
    cards), the most copies, as before."""
    from estimator import catalog

    spec, h20 = catalog.model("Qwen2.5-72B"), catalog.gpu("H20-96GB")
    weights, kv_seq = 145.4e9, 320 * 1024 * 4096
    faster_tp = lambda lay: SimpleNamespace(aggregate=100.0 * lay.tp)  # noqa: E731
    faster_copies = lambda lay: SimpleNamespace(aggregate=100.0 * lay.replicas)  # noqa: E731
    assert layout_on(8, weights, kv_seq, spec, h20, concurrency=50, speed=faster_tp) == Layout(8, 1, 1)
    assert layout_on(8, weights, kv_seq, spec, h20, concurrency=50, speed=faster_copies) == Layout(2, 1, 4)
    assert layout_on(8, weights, kv_seq, spec, h20, concurrency=50) == Layout(2, 1, 4)
    # 300 users: TP 2 × 4 holds 84 and TP 4 × 2 holds 302, so only TP 4 and TP 8 are rated
    assert layout_on(8, weights, kv_seq, spec, h20, concurrency=300, speed=faster_copies) == Layout(4, 1, 2)


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("serve Qwen2.5-32B on 8 L40S", "Qwen2.5 32B bf16 inference on 8 × L40S: fits (TP=2 × 4 replicas)"),
        ("8 张 L40S 部署 Qwen2.5-32B", "Qwen2.5 32B bf16 推理，8 张 L40S：放得下（TP=2 × 4 个副本）"),
    ],
)
def test_pcie_cards_keep_copies(question: str, head: str) -> None:
    assert _text(question).splitlines()[0] == head


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "DeepSeek-R1-Distill-Qwen-32B GPTQ int4, one L20, 128k context, how many concurrent requests?",
            "On 2 GPUs: up to 2 concurrent sequences at 128K context",
        ),
        (
            "部署 DeepSeek-R1-Distill-Qwen-32B，GPTQ int4，单卡 L20，128k 上下文，能跑几个并发",
            "2 张卡：128K 上下文下最多约 2 条并发",
        ),
    ],
)
def test_how_many_at_once_never_sizes_the_assumed_load(question: str, said: str) -> None:
    a = answer(question)
    first = render(a, "text").splitlines()[0]
    assert said in first and "16" not in first.split("97,152")[-1]
    assert (a.report.inference.serving_gpus, a.report.inference.max_concurrency) == (2, 2)


@pytest.mark.parametrize(
    ("question", "head"),
    [
        (
            "deploy Qwen2.5-7B on one L40S, how many concurrent requests at 32k context?",
            "Qwen2.5 7B bf16 inference on 1 × L40S: up to 14 concurrent sequences at 32K context (TP=1)",
        ),
    ],
)
def test_how_many_at_once_on_a_count_that_holds_it_is_unchanged(question: str, head: str) -> None:
    assert _text(question).splitlines()[0] == head
