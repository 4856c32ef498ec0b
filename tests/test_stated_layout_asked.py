"""A warning's number the answer never explains (trial s19b #3): 'how many at once?' on the user's TP 16 is
answered with the sequences their 16 GPUs hold (10 at 32K); the stated-layout note priced at the default 16
sequences ('16 sequences need 32 GPUs') is not said beside it. A load stated or assumed keeps the note."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render

Z2 = (
    "两台8卡H800，用 SGLang 部署 DeepSeek-V3（FP8），--tp 16，上下文 32k，KV cache 能放多少 token，"
    "最多跑多少并发？"
)
Z2_EN = (
    "Two 8x H800 nodes, SGLang serving DeepSeek-V3 FP8 with --tp 16, 32k context: "
    "how many concurrent requests at most?"
)


@pytest.mark.parametrize(
    ("question", "head", "note"),
    [
        (Z2, "16 张 H800：32K 上下文下最多约 10 条并发（TP=16）", "同时跑 16 条序列需要 32 张"),
        (Z2_EN, "16 × H800: up to 10 concurrent sequences at 32K context (TP=16)", "16 sequences at once"),
    ],
)
def test_asked_load_has_no_note_at_the_default_load(question: str, head: str, note: str) -> None:
    a = answer(question)
    text = render(a, "text")
    assert head in text.split("\n")[0]
    assert note not in text
    assert all(n.code != "stated_layout_needs_more" for n in a.report.warnings)


def test_a_stated_load_keeps_the_note() -> None:
    text = render(
        answer("两台8卡H800，用 SGLang 部署 DeepSeek-V3（FP8），--tp 16，上下文 32k，16 并发够吗？"), "text"
    )
    assert (
        "⚠️ 按你给的 TP 16 × PP 1，每份模型副本都占这么多卡：同时跑 16 条序列需要 32 张；"
        "不限定布局（TP 8 × PP 2）只需 16 张。" in text
    )
