"""Session 50, part leftovers: last session's review leftovers (issue 24 item 4), both languages.

1. A card's memory followed by 'each' ('4 nodes, 32x H200 GPUs each with 141GB', normalized '32x h200 141gb
   each'): the 'each' is the memory's (bot.parse.fixed_patterns.MEMORY_EACH, read with the card in
   bot.parse.gpus), so 32 cards shared by 4 nodes stay 32 (more than one node holds: 8 SXM GPUs on an
   HGX/DGX baseboard, bot.parse.node_words.JI_KA_PER_NODE_MAX), as the plain '4 nodes, 32x H200' reads.
   Before, the 'each' made them each machine's: 128.
"""

from __future__ import annotations

import json

import pytest

from bot.cli import ask


def _answer(text: str) -> dict:
    return json.loads(ask(text, None, "json")[0])


def _ignored(a: dict) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in a["interpretation"]["ignored"]]


# 1. 'each' after a card's memory ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "We have 4 nodes, 32x H200 GPUs each with 141GB. Can we serve DeepSeek-V3?",
        "4 servers, 32 H200 GPUs with 141GB each: how fast does Llama-3-70B serve?",
        "4 nodes, 32 A100 80GB each, serving Llama-3-70B",
        "4 台机器，共 32 张 H200 141G，部署 DeepSeek-V3 够吗",
        "4 个节点，32 张 H200，每张 141G，部署 DeepSeek-V3",
    ],
)
def test_memory_each_is_not_each_machine(text: str) -> None:
    r = _answer(text)["request"]
    assert r["gpu_count"] == 32
    assert r["gpu_memory_gib"] in (141.0, 80.0)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("4 nodes, 32x H200 each, serve DeepSeek-V3", 128),  # the cards are each node's
        ("2 nodes, 8x H200 GPUs each with 141GB, serve DeepSeek-V3", 16),  # 8 a node: one baseboard
        ("4 台服务器，每台 8 张 H200 141G，部署 DeepSeek-V3", 32),
        ("4 台服务器，32 张 H200 每台，部署 DeepSeek-V3", 128),
    ],
)
def test_cards_each_machines_still_multiply(text: str, count: int) -> None:
    assert _answer(text)["request"]["gpu_count"] == count
