"""s39 fixs2: serving and comparison answers, continued (base s39-lead d3477062).

1. A list of models asked how many cards each needs ('Qwen2.5-7B、14B、32B 用 vLLM 部署各要几张 4090')
   is answered with the cards each needs, not with which is cheaper; cost leads only when it is asked.
   Worked by hand (bf16, 2 B per parameter; an RTX 4090's 24 GiB × vLLM's 0.90 less its 1.3 GB
   workspace ≈ 21.4 GiB usable): Qwen2.5-7B 7.6 B → 15.2 GB, one card; Qwen2.5-14B 14.8 B → 29.5 GB,
   more than one card, two; Qwen2.5-32B 32.8 B → 65.5 GB, more than two cards and TP 3 does not divide
   its 40 heads, four.
"""

from __future__ import annotations

import json

import pytest

from bot.parse import parse
from bot.parse.models_compared import asks_count
from tests.cli_run import ask_quietly


def _json(*args: str) -> dict:
    return json.loads(ask_quietly("--format", "json", *args))


def _text(*args: str) -> str:
    return ask_quietly("--format", "text", *args)


ZH = "Qwen2.5-7B、14B、32B 用 vLLM 部署各要几张 4090"
EN = "How many 4090s does each of Qwen2.5-7B, 14B and 32B need with vLLM?"


@pytest.mark.parametrize(
    "text",
    [
        "各要几张 4090",
        "分别需要多少张卡",
        "每个要几块显卡",
        "需要多少gpu",
        "how many gpus does each need",
        "how many 4090s each",
        "how many h100 cards",
    ],
)
def test_count_asked(text: str) -> None:
    assert asks_count(text)


@pytest.mark.parametrize(
    "text",
    [
        "哪个部署更划算",  # cost, no count
        "各要几张 4090，哪个更划算",  # count and cost: the cost line answers it
        "how many gpus each, and which is cheaper",
        "how many tokens/s each",  # a speed, not a count
        "which is faster",
        "几个用户并发",  # users, not cards
    ],
)
def test_count_not_asked(text: str) -> None:
    assert not asks_count(text)


@pytest.mark.parametrize(
    ("question", "first_line"),
    [
        (
            ZH,
            "按这个负载各需几张卡：Qwen2.5 7B 1 张 RTX 4090；Qwen2.5 14B 2 张 RTX 4090；"
            "Qwen2.5 32B 4 张 RTX 4090",
        ),
        (
            EN,
            "GPUs each needs for this load: Qwen2.5 7B 1 × RTX 4090; Qwen2.5 14B 2 × RTX 4090; "
            "Qwen2.5 32B 4 × RTX 4090",
        ),
    ],
)
def test_cards_each_lead(question: str, first_line: str) -> None:
    out = _text(question)
    assert out.splitlines()[0] == first_line
    assert "划算" not in out.splitlines()[0] and "Cheaper" not in out.splitlines()[0]


def test_cards_each_json() -> None:
    rows = _json(ZH)["report"]["compared_models"]
    assert [(r["model"], r["gpus_for_load"], r["min_gpus"]) for r in rows] == [
        ("Qwen2.5-7B", 1, 1),
        ("Qwen2.5-14B", 2, 2),
        ("Qwen2.5-32B", 4, 4),
    ]
    assert not any(r["chosen"] for r in rows)  # no one model named: the count of each answers


def test_cost_asked_keeps_cost() -> None:
    out = _text("Qwen2.5-7B、14B、32B 用 vLLM 部署哪个更划算，各要几张 4090")
    assert out.splitlines()[0].startswith("部署更划算的是 Qwen2.5 7B")
    assert "compared_count" not in parse("Qwen2.5-7B、14B、32B 用 vLLM 部署哪个更划算").notes


def test_two_models_each() -> None:
    out = _text("Qwen2.5-7B vs Qwen2.5-14B on 4090: how many cards does each need?")
    assert out.splitlines()[0] == (
        "GPUs each needs for this load: Qwen2.5 7B 1 × RTX 4090; Qwen2.5 14B 2 × RTX 4090"
    )
