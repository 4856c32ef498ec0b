"""A count of kinds of cards is not a count of cards (session 14 fresh-user trial #4: 'H20、L40S和A800三种卡
… 分别要几张' sized 3 of each). Each card's count is sized; the count of kinds is named (``gpu_kinds``)."""

from __future__ import annotations

import pytest

from bot.parse import parse

KINDS = [
    ("H20、L40S和A800三种卡，部署Llama-3.1-70B，32并发，分别要几张", "三"),
    ("用 3 种 GPU（H20、L40S、A800）部署 Llama-3.1-70B，32 并发，各要几张", "3"),
    ("H20、L40S、A800 三款卡部署 Llama-3.1-70B，32 并发，各几张？", "三"),
    ("部署Llama-3.1-70B，32并发，H20和L40S这两种卡各要几张", "两"),
    (
        "H20, L40S and A800 - three GPU types, serving Llama-3.1-70B at 32 concurrent, how many of each?",
        "three",
    ),
    ("Llama-3.1-70B serving, 32 concurrent, 3 kinds of cards: H20, L40S, A800 — how many of each?", "3"),
    ("Serving Llama-3.1-70B at 32 concurrent on these two cards: H20 and L40S, how many of each?", "two"),
]


@pytest.mark.parametrize(("question", "kinds"), KINDS)
def test_kinds_of_cards_are_no_count(question: str, kinds: str) -> None:
    res = parse(question)
    assert (res.request.stage, res.request.gpu, res.request.gpu_count, res.request.concurrency) == (
        "inference",
        "H20-96GB",
        None,
        32,
    )
    assert (kinds, "gpu_kinds") in res.unused_numbers


def test_a_count_of_cards_stays_a_count() -> None:
    assert parse("4张A100部署Llama-3.1-70B，32并发够吗").request.gpu_count == 4
    assert parse("serving Llama-3.1-70B on two A100 cards, 32 concurrent").request.gpu_count == 2
    assert parse("Llama-3.1-70B on these 2 A100s, 32 concurrent: enough?").request.gpu_count == 2
    assert parse("Can these two cards (RTX 4090) serve Qwen2.5-32B at 8 concurrent?").request.gpu_count == 2
