"""Session 50, branch s50-r46zh: the readers round 46's Chinese working half needed (issue 24 items 2 and 4),
each tested on sentences of its own in both languages, what must be read and what must not be misread.

1. A setting's value after a planning or testing word ('batch_size 打算测 1、4、8', 'the batch size I tested
   is 4'): the words join a key to its value (bot.parse.generic_values._FILLER_ZH, _FILLER), and a list
   written with commas alone ('1、4、8', normalized to '1, 4, 8') is a list: each later item named as that
   setting's other value (never unread), as a list ended by 'or'/'and' already was.
2. A list's later item after its key ('max_length 2048 或 4096、batch_size 1 或 9'): the 9 is batch_size's
   other value (bot.parse.keyed_values._LIST_TAIL), no longer unread because the 1 before it ends the clause.
3. A count of requests a day written as one noun ('百万级日请求', '日请求 100 万', '1 million daily requests',
   'daily requests of 200k'): the request's requests_per_day (bot.parse.request_volume.DAY_REQUESTS_RE).
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _ignored(answer: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in answer["interpretation"]["ignored"]}


@pytest.mark.parametrize(
    "text",
    [
        "微调 Qwen2.5-7B，batch_size 打算测 4，要多少显存？",
        "微调 Qwen2.5-7B，batch size 准备用 4，要多少显存？",
        "Fine-tuning Qwen2.5-7B, the batch size I tested is 4, how much memory?",
    ],
)
def test_a_planned_or_tested_value_is_read(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["batch_size"] == 4
    assert "4" not in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen3-1.7B，batch_size 打算测 1、4、8，输入长度 512，要多少显存？",
        "Serving Qwen3-1.7B on vLLM, batch size tested: 1, 4 and 8, how much memory?",
    ],
)
def test_each_item_of_a_listed_setting_is_named(text: str) -> None:
    ignored = _ignored(_answer(text))
    assert all(ignored.get(f"batch_size: {v}") for v in (1, 4, 8)), ignored
    assert not any(why == "unread" for why in ignored.values()), ignored


@pytest.mark.parametrize(
    "text",
    [
        "微调 Qwen2.5-7B，测了 3 次，batch_size 4，要多少显存？",
        "Fine-tuning Qwen2.5-7B on 8 A100s, we tested it 3 times, batch size 4, how much memory?",
    ],
)
def test_a_test_word_joins_no_other_number(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["batch_size"] == 4
    assert "batch_size: 3" not in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "用 vLLM 部署 Qwen3-1.7B，batch_size 1、4、8，要多少显存？",
        "微调 Qwen2.5-7B，在 1、2、4 张 A100 上分别要多久？",
    ],
)
def test_a_comma_list_read_already_keeps_its_reading(text: str) -> None:
    answer = _answer(text)
    ignored = _ignored(answer)
    assert not any(t.startswith("batch_size: ") and why.endswith("_only") for t, why in ignored.items())
    assert not any(why == "unread" for why in ignored.values()), ignored


@pytest.mark.parametrize(
    "text",
    [
        "两张 A100 80G 微调 Qwen2.5-7B，max_length 2048 或 4096、batch_size 1 或 9，显存一直打满",
        "Fine-tuning Qwen2.5-7B on two A100 80G, max_length 2048 or 4096, batch_size 1 or 9, memory full",
        "两张 A100 80G 微调 MiniCPM-V，max_length 2048 或 4096、batch_size 1 或 9，显存一直打满",
        "Fine-tuning MiniCPM-V on two A100 80G, max_length 2048 or 4096, batch_size 1 or 9, memory full",
    ],
)
def test_a_lists_later_item_after_its_key_is_named(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["batch_size"] == 1
    per_value = (answer["report"] or {}).get("per_value") or []
    rows = {r["value"] for r in per_value if r["setting"] == "batch_size"}
    assert _ignored(answer).get("batch_size: 9") == "other_setup" or rows == {1, 9}
    assert "9" not in _ignored(answer)


@pytest.mark.parametrize(
    "text",
    [
        "两张 A100 80G 微调 Qwen2.5-7B，batch_size 4，训练 2 个 epoch，要多久？",
        "Fine-tuning Qwen2.5-7B on two A100 80G, batch_size 4, 2 epochs, how long?",
    ],
)
def test_a_number_after_a_list_less_clause_is_no_other_value(text: str) -> None:
    answer = _answer(text)
    assert answer["request"]["batch_size"] == 4 and answer["request"]["epochs"] == 2
    assert not any(t.startswith("batch_size: ") for t in _ignored(answer))


@pytest.mark.parametrize(
    ("text", "per_day"),
    [
        ("单张 RTX 4090 部署 Qwen2.5-7B，要扛百万级日请求，够吗？", 1_000_000),
        ("一张 RTX 4090 部署 Qwen2.5-7B，日请求 100 万，要几张卡？", 1_000_000),
        ("部署 Qwen2.5-7B 做客服，日请求量约 50 万，要几张 4090？", 500_000),
        ("Serving Qwen2.5-7B on one RTX 4090 with 1 million daily requests, how many cards?", 1_000_000),
        ("Serving Qwen2.5-7B on one RTX 4090 with daily requests of 200k, how many cards?", 200_000),
    ],
)
def test_daily_requests_as_one_noun_are_read(text: str, per_day: int) -> None:
    answer = _answer(text)
    assert answer["request"]["requests_per_day"] == per_day
    assert not any(why == "unread" for why in _ignored(answer).values())


@pytest.mark.parametrize(
    "text",
    [
        "微调 Qwen2.5-7B，训练数据 100 万条，日志请求不算，要几张卡？",
        "一张 4090 部署 Qwen2.5-7B，日志里有 100 万条请求记录，上下文 4096，要几张卡？",
        "Fine-tuning Qwen2.5-7B on 1 million samples from our daily logs, how many A100s?",
    ],
)
def test_no_daily_request_count_is_misread(text: str) -> None:
    assert _answer(text)["request"].get("requests_per_day") is None
