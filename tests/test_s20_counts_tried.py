"""Two counts tried, both failed (s20-fixb item 3): 'tried on 4 and on 8 H100s, both OOM', '4卡和8卡都试过，
都OOM', 'tried 4 H100s and then 8, both OOM', '试了 4 张 A100 然后 8，都 OOM' — both counts are the failed
ones (gpu_count 4 up to gpu_count_max 8, note gpu_counts_failed): the OOM note names both and the count
sized is above the larger. Sentences of our own."""

from __future__ import annotations

import pytest

from bot.core.pipeline import Context, answer
from bot.parse import parse
from bot.parse.counts_tried import COUNTS_FAILED
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Qwen2.5-32B LoRA: tried on 4 and on 8 H100s, both OOM. How many do I need?",
            "4 and 8",
        ),
        ("Qwen2.5-32B 全参微调，4卡和8卡都试过，都OOM，要几张 A100", "4 张和 8 张"),
        ("Llama-3-70B LoRA: I tried 4 H100s and then 8, both OOM", "4 and 8"),
        ("Qwen2.5-32B 全参微调，试了 4 张 A100 然后 8，都 OOM", "4 张和 8 张"),
        ("OOM on both 4 and 8 A100s when fine-tuning Qwen2.5-32B fully", "4 and 8"),
    ],
)
def test_both_counts_failed(text: str, said: str) -> None:
    parsed = parse(text)
    assert (parsed.request.gpu_count, parsed.request.gpu_count_max) == (4, 8)
    assert COUNTS_FAILED in parsed.notes
    a = answer(text, Context())
    assert a.report.memory.min_gpus > 8  # the fewest that fit is above the larger count tried
    assert said in render(a, "text")


def test_a_count_after_that_works_is_no_failed_pair() -> None:
    parsed = parse("Qwen2.5-32B LoRA: tried 2 A100 and then 4, 4 works fine")
    assert COUNTS_FAILED not in parsed.notes
