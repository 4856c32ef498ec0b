"""s41-lists: a list of node counts ('2, 4 or 8 nodes of 8 H100', '2 或 4 个节点，每个节点 8 张 A800') is
read once, each item × the GPUs per node, and answered with a row per count (report.per_value). Issue 24
item 4; the record en37-030 (huggingface/trl#5713: '2, 4 or 8 p5.48xlarge nodes (8x H100 SXM5 each)')."""

from __future__ import annotations

import pytest

from bot.parse import parse
from bot.parse.value_list import node_list
from tests.real_questions import answer_json

READS = [
    # (text, gpu_count, gpu_count_max, rows)
    ("Fine-tune Qwen2.5-7B on 2, 4 or 8 nodes of 8 H100, 10B tokens: how long?", 16, 64, [16, 32, 64]),
    (
        "We want to train Qwen3-30B-A3B with TRL on 2, 4 or 8 p5.48xlarge nodes (8x H100 SXM5 each).",
        16,
        64,
        [16, 32, 64],
    ),
    ("2 或 4 个节点，每个节点 8 张 A800，全参微调 Qwen2.5-7B，10B token 要多久", 16, 32, [16, 32]),
    ("在 2、4 或 8 台 8 卡 H100 节点上微调 Qwen2.5-7B，10B token 要几天", 16, 64, [16, 32, 64]),
]


@pytest.mark.parametrize(("text", "low", "high", "rows"), READS)
def test_node_list_is_read_as_gpu_rows(text: str, low: int, high: int, rows: list[int]) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max, p.request.gpus_per_node) == (low, high, 8)
    assert not [u for u in p.unused_numbers if u[0] in ("2", "4") and u[1] == "unread"]
    got = [r["value"] for r in answer_json(text)["report"]["per_value"] if r["setting"] == "gpu_count"]
    assert got == rows


NOT_A_NODE_LIST = [
    # a list that is not of nodes, beside nodes: the count stays the nodes' GPUs
    ("Fine-tune Llama-3.1-8B on 8 H100 nodes, 2 or 3 days?", None),
    ("3 台机器，每台 8 张 4090，2、4 天能训完 Qwen2.5-7B 吗", None),
    # a version and a size in GB are no node counts
    ("Llama 3.1 on 2 nodes of 8 A100 40/80GB", None),
    ("1-2 天内用 2 台 8 卡 A800 训完 Qwen2.5-7B 吗", None),
]


@pytest.mark.parametrize(("text", "expected"), NOT_A_NODE_LIST)
def test_other_lists_are_not_node_lists(text: str, expected: object) -> None:
    assert node_list(text.lower(), 16) is expected or node_list(text.lower(), 64) is expected
    assert parse(text).node_counts == []


def test_node_list_needs_a_whole_per_node_count() -> None:
    # 64 GPUs read for the last of '2, 4 or 8 nodes': 8 per node; 20 is no whole multiple of 8
    assert node_list("on 2, 4 or 8 nodes", 64) == (8, [2, 4, 8])
    assert node_list("on 2, 4 or 8 nodes", 20) is None
    assert node_list("on 2, 4 or 8 days", 64) is None
    assert node_list("在 2、4 或 8 台机器上", 64) == (8, [2, 4, 8])
