"""Session 29 fix c, after a fresh-user trial.

- (Withdrawn at merge: the 'N users' read-as-concurrent note made the first phone screen longer and named a
  used load as if unread; three earlier tests pinned its absence.)
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


def _ignored(text: str) -> list[tuple[str, str]]:
    """(text, reason) of each value the answer (``sizing-bot ask --format json``) names."""
    return [(i["text"], i["reason"]) for i in answer_json(text)["interpretation"]["ignored"]]


@pytest.mark.parametrize(
    ("text", "observed", "load"),
    [
        ("Llama-3.1-8B 部署在 A10 上，每张卡最多撑 30 个并发，要 150 并发要几张卡", "30", 150),
        ("Qwen2.5-7B 用 vLLM，单卡能扛的并发不到 40，要支持 300 并发需要几张 L40S", "40", 300),
        (
            "serve Qwen2.5-7B with vLLM, a single GPU tops out at 25 concurrent, "
            "we need 100 concurrent, how many A10?",
            "25",
            100,
        ),
    ],
)
def test_one_cards_observed_concurrency_is_not_a_second_load(text: str, observed: str, load: int) -> None:
    """One card's observed concurrency is named ``per_card_load`` (never 'repeated'), the other sized."""
    answer = answer_json(text)
    assert answer["request"]["concurrency"] == load
    assert (observed, "per_card_load") in _ignored(text)


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (
            "will a Jetson Orin 64GB run Qwen2.5-7B? and a Mac Studio M2 Ultra 192GB with Llama-3.1-70B Q4?",
            "Jetson Orin 64GB",
        ),
        (
            "Jetson Orin 32GB 跑 Qwen2.5-7B 行吗？另外 Mac Studio M2 Ultra 192GB 跑 Llama-3.1-70B Q4 呢？",
            "Jetson Orin 32GB",
        ),
    ],
)
def test_an_unknown_other_device_with_its_memory_is_not_asked_for_it(text: str, typed: str) -> None:
    """The other setup's device, not in the catalog, is named with the memory written after it
    (``unknown_other_device_memory``), never asked to write it, and its memory is no other setup's value."""
    ignored = _ignored(text)
    assert (typed, "unknown_other_device_memory") in ignored
    assert not [t for t, r in ignored if r == "unknown_other_device"]
    assert (typed.split()[-1].removesuffix("GB"), "other_setup") not in ignored


@pytest.mark.parametrize(
    ("text", "row"),
    [
        (
            "cheapest card to serve Qwen2.5-32B-Instruct-AWQ with vLLM for 30 concurrent users, 8k context",
            "• RTX 4090: 4 GPUs, ≈ 661 tokens/s in total",
        ),
        (
            "用 vLLM 部署 Qwen2.5-32B-Instruct-AWQ，30 并发，8k 上下文，哪种卡最便宜",
            "• RTX 4090：4 张，合计约 661 token/s",
        ),
    ],
)
def test_each_cheapest_option_holds_the_stated_load(text: str, row: str) -> None:
    """30 × 8K of KV cache (32 GB at 256 KiB a token) cannot sit beside 19 GB of weights on one 24 GB
    RTX 4090: its option row is the count that holds the load, the same 4 as 'how many RTX 4090 …' sizes
    (before: '1 GPU, ≈ 24 tokens/s in total', a personal card's count of one)."""
    assert row in answer_json(text)["reply"]
    alone = answer_json(
        "how many RTX 4090 to serve Qwen2.5-32B-Instruct-AWQ with vLLM for 30 concurrent, 8k context"
    )
    assert alone["report"]["inference"]["serving_gpus"] == 4
