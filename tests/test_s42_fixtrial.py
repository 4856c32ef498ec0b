"""s42 fixtrial: the s42 fresh-user trial's findings (/work/notes/s42/trial_report.md items 1-6, 9-16), each
read in both languages, with sentences that look alike but must not move."""

from __future__ import annotations

import pytest

from bot.cli import _ask
from bot.parse import parse


def _text(question: str) -> str:
    return _ask(question, None, "text")[0]


def _report(question: str):
    return _ask(question, None, "json")[2].report


# 1: a card name outside the catalog with a model number of letters + digits ('X9000', 'Foo X1') before a
# card word is named as typed, never a count of cards nor the default card in silence
@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("serve Qwen2.5-7B on an X9000 GPU, 5 users", "X9000"),
        ("部署 Qwen2.5-7B 到 X9000 显卡上，并发 5", "X9000"),
        ("serve Qwen2.5-7B on a Foo X1 GPU, 5 users", "Foo X1"),
        ("部署 Qwen2.5-7B 到 Foo X1 卡上，并发 5", "Foo X1"),
        ("serve MyLLM-13B on a <i>Foo X1</i> GPU, 5 users", "Foo X1"),
        ("用 2 张 Zeta Q7 显卡部署 Qwen2.5-7B", "Zeta Q7"),
    ],
)
def test_an_unknown_card_with_a_glued_model_number_is_named_as_typed(question: str, name: str) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu == name
    assert parsed.request.gpu_count in (None, 1, 2)  # never 9,000 cards from 'X9000'
    text = _text(question)
    assert f"“{name}”" in text and ("not in my catalog" in text or "不在我的目录中" in text)
    assert "9,000" not in text and "“9000”" not in text


def test_an_unknown_card_with_its_memory_is_sized_on_that_memory() -> None:
    for question, name in (
        ("I have an X9000 48GB GPU, serve Qwen2.5-7B", "X9000"),
        ("用 2 张 Foo X1 48G 显卡部署 Qwen2.5-7B", "Foo X1"),
    ):
        parsed = parse(question)
        assert parsed.unknown_gpu == name and parsed.request.gpu_memory_gib == 48
        assert parsed.request.gpu_count in (None, 1, 2)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("serve Qwen2.5-72B on 2 nodes x8 GPUs", 16),
        ("serve Qwen2.5-7B on A100 x8 GPUs", 8),
        ("serve Qwen2.5-7B on H100 SXM x8 GPUs", 8),
        ("serve Qwen2.5-7B on A100 80GB x8 GPUs", 8),
        ("部署 Qwen2.5-7B，A100 x4 卡", 4),
    ],
)
def test_a_count_after_a_card_or_a_machine_word_stays_a_count(question: str, count: int) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu is None and parsed.request.gpu_count == count
