"""Session 50's review of the merged readers (issue 24 item 4): the counts and numbers they must keep, in both
languages, with values from ``sizing-bot ask --format json``."""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _json(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _ignored(d: dict) -> list[str]:
    return [item["text"] for item in d["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    "text",
    [
        "A100 和 H100 各两张卡，能全参微调 Qwen2.5-7B 吗",
        "I have an H100 and an A100, two cards each, can I full fine-tune Qwen2.5-7B?",
    ],
)
def test_a_count_of_each_card_is_not_the_number_of_cards_listed(text: str) -> None:
    """'各两张' / 'two cards each': two of each card (listed_cards stands aside), never 1, the 2 unread."""
    d = _json(text)
    assert d["request"]["gpu_count"] == 2
    assert not any(t in ("2", "two", "两") for t in _ignored(d))


@pytest.mark.parametrize(
    "text",
    [
        "手上有 RTX 4070、RTX 4090 和 A100 三块卡，能跑 Qwen2.5-7B 推理吗",
        "I have an RTX 4090 and an A100, two cards",
    ],
)
def test_the_number_of_cards_listed_is_still_one_of_each(text: str) -> None:
    d = _json(text)
    assert d["request"].get("gpu_count") in (None, 1)


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("Our server has 16 x 64GB DDR4 RDIMMs and no GPU, can llama.cpp run DeepSeek-R1 Q4_K_M?", 1024),
        ("服务器配了 8 条 64G 内存，没有显卡，用 llama.cpp 跑 yi-1.5-9b-chat.Q4_K_M.gguf 速度怎么样", 512),
    ],
)
def test_memory_modules_counted_are_read_and_not_named_unread(text: str, gib: int) -> None:
    """The module count and one module's size make the host memory: neither is named as not read."""
    d = _json(text)
    assert d["request"]["host_memory_gib"] == gib
    assert _ignored(d) == []


@pytest.mark.parametrize(
    ("text", "per_day", "tokens"),
    [
        ("日请求 100 万，每次 1000 token，部署 Qwen2.5-7B 要几张 4090", 1_000_000, 1000),
        ("日请求量约 50 万，每个请求 2000 tokens，部署 Qwen2.5-7B 要几张 4090", 500_000, 2000),
    ],
)
def test_daily_requests_keep_the_tokens_of_a_request(text: str, per_day: int, tokens: int) -> None:
    d = _json(text)
    assert d["request"]["requests_per_day"] == per_day
    assert d["request"]["tokens_per_request"] == tokens


def test_a_chinese_numeral_before_wan_is_never_read_as_its_tail() -> None:
    """'五十万日请求' is 500,000, never '十万' (100,000) with the 五 left: not read at all, named as typed."""
    d = _json("五十万日请求，部署 Qwen2.5-7B 要几张 4090")
    assert d["request"].get("requests_per_day") in (None, 500_000)


def test_a_single_card_asked_about_is_never_named_as_an_earlier_setup() -> None:
    d = _json("单卡 4090 能跑 Qwen2.5-14B 推理吗？之后可能扩到 4 张卡")
    assert "单卡 (1)" not in _ignored(d)
    d = _json("单张 A100-80G 全参微调 Qwen2.5-7B 溢出了，后来起了 8 张卡，要跑多久？")
    assert d["request"]["gpu_count"] == 8 and "单张 (1)" in _ignored(d)
