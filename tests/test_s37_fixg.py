"""Session 37 fixg: comparisons a second trial found wrong (Traditional comparison words, ...)."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.models_compared import FASTER_ASKED


@pytest.mark.parametrize(
    "text",
    [
        "Qwen3-30B-A3B 和 Qwen3-32B 哪個比較快？用 H20 部署",
        "Qwen3-30B-A3B 和 Qwen3-32B 哪个比较快？用 H20 部署",
        "Qwen3-30B-A3B 跟 Qwen3-32B 哪個較快？用 H20 部署",
        "Qwen3-30B-A3B and Qwen3-32B, which is faster on an H20?",
    ],
)
def test_traditional_which_is_faster_compares_the_two_models(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ("Qwen3-32B",)
    assert FASTER_ASKED in p.notes
    assert not [n for n in p.unused_numbers if n[1] == "other_setup"]


@pytest.mark.parametrize(
    "text", ["Qwen3-30B-A3B 還是 Qwen3-32B？用 H20 部署", "Qwen3-30B-A3B 还是 Qwen3-32B？用 H20 部署"]
)
def test_traditional_or_sets_the_models_side_by_side(text: str) -> None:
    p = parse(text)
    assert p.compared_models == ("Qwen3-32B",)
    assert FASTER_ASKED not in p.notes  # no speed word: cost decides


@pytest.mark.parametrize(
    "text",
    ["Qwen3-30B-A3B 和 Qwen3-32B 要用哪個卡？", "Qwen3-30B-A3B 和 Qwen3-32B 要用哪个卡？"],
)
def test_which_card_in_traditional_is_not_a_model_comparison(text: str) -> None:
    assert parse(text).compared_models == ()
