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


@pytest.mark.parametrize(
    ("text", "lang", "cards", "under", "gpu", "lines"),
    [
        (
            "L40S 单卡能扛的并发不到 40，要支持 200 并发需要几张卡",
            "zh",
            5,
            True,
            "L40S",
            ["按你实测的单卡 40 并发，200 并发需要 5 张 L40S（⌈200 ÷ 40⌉）。", "所以 5 张是下限"],
        ),
        (
            "每张 A100 最多撑 30 个并发，要支持 100 并发需要几张卡",
            "zh",
            4,
            True,
            "A100",
            ["按你实测的单卡 30 并发，100 并发需要 4 张 A100（⌈100 ÷ 30⌉）。", "所以 4 张是下限"],
        ),
        (
            "one L40S handles under 40 concurrent, how many for 200?",
            "en",
            5,
            True,
            "L40S",
            ["200 concurrent at your measured 40 per card: 5 × L40S (⌈200 ÷ 40⌉).", "so 5 is the least"],
        ),
        (
            "one H100 handles 60 concurrent; how many to serve 250?",
            "en",
            5,
            False,
            "H100",
            ["250 concurrent at your measured 60 per card: 5 × H100 (⌈250 ÷ 60⌉).", "no headroom"],
        ),
    ],
)
def test_a_ceiling_and_a_load_without_a_model_scale_the_measurement(
    text: str, lang: str, cards: int, under: bool, gpu: str, lines: list[str]
) -> None:
    """Item 1: no model named: ⌈load ÷ per card⌉ from the user's own figures, not the help."""
    from bot.cli import ask

    a = answer(text)
    assert a.report is None
    assert a.ceiling is not None
    assert (a.ceiling.cards, a.ceiling.under, a.ceiling.gpu) == (cards, under, gpu)
    out = render(a, "text")
    for line in lines:
        assert line in out
    assert ("Qwen2.5-14B" in out) and (
        "没有按模型估算" in out if lang == "zh" else "no model was sized" in out
    )
    assert ask(text, None, "text")[1] == 0  # not the help's exit 2


def test_a_model_named_is_still_sized_not_scaled() -> None:
    """With a model, the estimator sizes it (the ceiling stays a measurement named as not used)."""
    a = answer("L40S 单卡能扛的并发不到 40，要支持 200 并发，Qwen2.5-14B 需要几张卡")
    assert a.report is not None and a.ceiling is None
    assert a.report.request.concurrency == 200


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "Foo-A13B 部署需要几张卡",
            "名字里的 “A13B” 是每个 token 激活的参数量（混合专家 MoE），不是总参数量",
        ),
        ("Bar-A3B 推理要几张 4090", "名字里的 “A3B” 是每个 token 激活的参数量"),
        ("deploy Foo-A13B, how many GPUs", "“A13B” in its name is its active parameters per token"),
        ("serve Zed-A22B on H100s, how many?", "“A22B” in its name is its active parameters per token"),
    ],
)
def test_an_unknown_name_with_an_active_count_asks_for_the_total(text: str, line: str) -> None:
    """Item 3: '<Name>-A13B' unknown: A13B is the active count, the total is asked for."""
    a = answer(text)
    assert a.report is None
    out = render(a, "text")
    assert line in out
    assert "I don't know the size" not in out and "我不知道" not in out


def test_an_unknown_name_without_an_active_count_keeps_the_generic_ask() -> None:
    out = render(answer("deploy Foo-Bar, how many GPUs"), "text")
    assert "I don't know the size of “Foo-Bar”" in out
