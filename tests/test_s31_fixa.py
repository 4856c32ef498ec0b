"""Session 31 fixa: defects a fresh-user trial found (each with the user's own sentences, both languages)."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse import parse
from bot.render.renderer import render


@pytest.mark.parametrize(
    ("text", "load", "per_card"),
    [
        ("一张 L40S 大概能带 40 个用户，我们要 200 个，要几张", 200, "40"),
        ("一块4090能跑20个并发，我需要 100 个，需要几张", 100, "20"),
        ("单卡 L40S 能扛 25 个用户，要撑 150，要几张", 150, "25"),
        ("one L4 serves 20 users, we need 200, how many L4s?", 200, "20"),
        ("one H100 handles about 50 users, how many for 400 of them?", 400, "50"),
    ],
)
def test_target_without_unit_takes_the_ceilings(text: str, load: int, per_card: str) -> None:
    """#1: a target after a per-card ceiling that drops the unit is the same unit, sized (was: unread)."""
    p = parse(text)
    assert p.request.concurrency == load
    assert (per_card, "per_card_load") in p.unused_numbers


@pytest.mark.parametrize(
    "text",
    [
        "一张 L40S 能带 40 个用户，我们要 200 个文档，要几张",
        "one L4 serves 20 users, we need 200 documents a day, how many?",
    ],
)
def test_target_with_another_noun_is_not_the_load(text: str) -> None:
    """#1 must-not: '40 个用户 … 200 个文档' — a different noun stays unread as load."""
    p = parse(text)
    assert p.request.concurrency != 200
    assert not any(why == "per_card_load" for _, why in p.unused_numbers)


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("一张 A100 能带 30 个用户，我们要 300 个，要几张", 10),
        ("one A100 handles 30 users, we need 300, how many?", 10),
    ],
)
def test_target_without_unit_answer_counts_cards(text: str, cards: int) -> None:
    """#1 end to end: ⌈300 ÷ 30⌉ = 10 × A100 (was: not understood, help text)."""
    from bot.core.ceiling_cards import ceiling_cards

    got = ceiling_cards(parse(text))
    assert got is not None
    assert (got.per_card, got.load, got.cards, got.gpu) == (30, 300, cards, "A100")


@pytest.mark.parametrize(
    ("text", "lead", "queue"),
    [
        (
            "two A10G serving Qwen2.5-14B with vLLM, 64 concurrent users at 8K, per-token latency?",
            "2 × A10G: ≈ 69 ms per token (≈ 14 (11–19) tokens/s per sequence)",
            "with 7 of the 64 running at once and 57 waiting in the queue",
        ),
        (
            "Qwen2.5-14B on two A10G with vLLM, 64 users at once at 8K, how many tokens/s per sequence?",
            "2 × A10G: ≈ 69 ms per token (≈ 14 (11–19) tokens/s per sequence)",
            "with 7 of the 64 running at once and 57 waiting in the queue",
        ),
        (
            "两张 A10G 用 vLLM 跑 Qwen2.5-14B，64 个并发，上下文 8K，每个 token 的延迟是多少",
            "2 张 A10G：每个 token 约 69 毫秒（每条序列约 14（11–19） token/s）",
            "64 条请求中 7 条同时运行、57 条排队等待",
        ),
    ],
)
def test_speed_asked_past_the_room_leads_with_the_speed(text: str, lead: str, queue: str) -> None:
    """#2: a per-token latency / speed asked with more sequences than the GPUs hold: the headline states
    the latency at the load that runs and the queue (was: 'no — room for 7 of the 64 …' first)."""
    first = render(answer(text)).splitlines()[0]
    assert lead in first and queue in first
    assert "no —" not in first and "不够" not in first


@pytest.mark.parametrize(
    "text",
    ["what latency per token for Llama 3.1 8B on one L4?", "单张 L4 跑 Llama 3.1 8B，每个 token 延迟多少"],
)
def test_latency_per_token_asks_the_speed(text: str) -> None:
    """#2: 'latency per token' / '每个 token 延迟' asks the decode speed (was: not read as asked)."""
    assert parse(text).asks_speed


def test_latency_said_first_token_is_not_the_speed() -> None:
    """Must-not: the first token's latency is the TTFT, not the decode speed."""
    p = parse("首 token 延迟多少, Llama 3.1 8B on one L4")
    assert p.asks_ttft and not p.asks_speed
