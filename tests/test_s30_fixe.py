"""Session 30 fixe: a per-card ceiling beside the load asked ('one L40S handles 40, how many for 200?')."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("text", "load", "gpu"),
    [
        ("one L40S handles 40 concurrent; how many for 200 with Qwen2.5-14B?", 200, "L40S"),
        ("one H100 handles about 60 concurrent, how many to serve 300 with Llama-3-8B?", 300, "H100"),
        ("单卡 L40S 能扛 40 并发，要支持 300，Qwen2.5-14B 需要几张卡", 300, "L40S"),
    ],
)
def test_one_card_names_the_ceilings_card_not_the_count(text: str, load: int, gpu: str) -> None:
    """Item 2: 'one <card> handles N' is the card the ceiling is for; the count is asked, the load sized."""
    a = answer(text)
    assert a.report is not None
    assert a.report.request.concurrency == load
    assert a.parsed.request.gpu_count is None
    assert a.report.request.gpu.startswith(gpu)
    assert ("40" if "40" in text else "60", "per_card_load") in a.parsed.unused_numbers
