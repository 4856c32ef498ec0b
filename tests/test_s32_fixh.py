"""Session 32 fix-after-trial (s32-fixh): sentences of our own, never corpus records, in both languages."""

from __future__ import annotations

import pytest

from bot.parse import parse

# -- item 1: a node count said after the GPUs per node (bot.parse.node_totals, count_forms) ----------------

NODES_AFTER = [
    ("H100 nodes, each with 8 GPUs, 4 nodes, serve Llama 3 70B", 32),
    ("A800 servers with 4 GPUs each, 3 servers: fine-tune Qwen2.5 7B", 12),
    ("4 RTX 4090 cards per node, 2 nodes, serve Qwen2.5 7B", 8),
    ("2 A100 80GB GPUs per machine, 5 machines, train a 7B model", 10),
    ("每个节点 8 张卡，一共 4 个节点，部署 Llama 3 70B", 32),
    ("每台机器 8 卡 A100，共 3 台，部署 Qwen2.5 72B", 24),
    ("8 GPUs per node, 4 nodes in total, serve Llama 3 70B", 32),
]


@pytest.mark.parametrize(("text", "count"), NODES_AFTER)
def test_node_count_after_size_multiplies(text: str, count: int) -> None:
    assert parse(text).request.gpu_count == count


MIXED = [
    ("two 8-GPU nodes and one 4-GPU node, serve Llama 3 70B", 20),
    ("3 8-GPU servers plus 2 4-GPU servers for Qwen2.5 72B inference", 32),
    ("两台 8 卡加一台 4 卡，部署 Qwen2.5 72B", 20),
    ("2 台 4 卡 + 1 台 8 卡 A800，部署 Qwen2.5 72B", 16),
]


@pytest.mark.parametrize(("text", "count"), MIXED)
def test_mixed_nodes_sum(text: str, count: int) -> None:
    assert parse(text).request.gpu_count == count


def test_two_nodes_of_eight_stays() -> None:
    # near miss: one machine kind, node count first
    assert parse("2 nodes with 8 GPUs each, serve Llama 3 70B").request.gpu_count == 16
    assert parse("两台 8 卡，部署 Qwen2.5 72B").request.gpu_count == 16
