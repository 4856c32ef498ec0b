"""s36-cik: tests the merged s36-lead tree failed, and the readers fixed for them.

- ZH_BOTH (bot/parse/count_choice.py, s36-gen/fixh) rewrote '4 卡和 8 卡都试过了' as a range before
  bot.parse.counts_tried could read the counts tried (failure in a later clause: '都试了，还是 OOM'), and
  '4 卡和 8 卡都不便宜' (不 before a quality, said of both options) as a range.
"""

import pytest

from bot.parse import parse
from bot.parse.counts_tried import COUNTS_FAILED


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("2 卡和 4 卡都试过了，还是爆显存，Qwen2.5-7B 全参微调要几张 A100", 2, 4),
        ("两张和四张 A100 也都试了，一样 OOM，训练 Llama-3-8B 要几张", 2, 4),
        ("单卡和双卡 A100 都 OOM，Qwen2-72B 推理", 1, 2),  # s36-fixh's form still the counts tried
    ],
)
def test_both_counts_tried_then_failed_are_the_counts_tried(text: str, lo: int, hi: int) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (lo, hi) and COUNTS_FAILED in p.notes


@pytest.mark.parametrize(
    "text",
    [
        "2 卡和 4 卡都不快，Qwen2.5-7B 全参用 A100 要多久",
        "一张和两张 H100 也不便宜，Llama-3-8B LoRA 要多久",
    ],
)
def test_a_quality_said_of_both_counts_is_no_tried_count(text: str) -> None:
    p = parse(text)
    assert p.request.gpu_count_max is None and COUNTS_FAILED not in p.notes


def test_both_counts_the_same_stays_the_range() -> None:
    p = parse("FooVL-28B 加载卡住，单卡 4090 48G 和双卡 4090 48G 都一样，需要几张卡？")
    assert (p.request.gpu_count, p.request.gpu_count_max) == (1, 2) and COUNTS_FAILED not in p.notes
