"""Session 43 part fixread: reading faults left from earlier sessions (issue 24 items 2 and 4).

Item 1: a node shape written as two products with no machine word ('2 x 8x H100', '2× 8×A100', '2x8xH100'):
N nodes of M cards, N × M GPUs with M per node (as '2 x 8x H100 nodes' and '两台 8 卡 H800' already were);
before, the 8 was sized and the 2 left unread (or, glued, no count was read at all). '8x H100' alone stays 8
cards, and a plain '4 x 8 A100s' stays 32.
"""

from __future__ import annotations

import pytest

from bot.parse import parse

NODE_SHAPES = [
    ("We have 2 x 8x H100. How long to fine-tune Llama 3 70B on 1B tokens?", "H100-SXM5-80GB", 16, 8),
    ("2 x 8xH100, serve Llama 3 70B for 50 users", "H100-SXM5-80GB", 16, 8),
    ("2× 8×A100: full fine-tune of Llama 3 70B, how long?", "A100-SXM4-80GB", 16, 8),
    ("2x8xH100 fine-tune llama 3 70b on 1B tokens", "H100-SXM5-80GB", 16, 8),
    ("3 x 4x L40S serving Qwen2.5 32B", "L40S", 12, 4),
    ("我们有 2 x 8x H800，微调 Llama 3 70B 要多久", "H800-SXM5-80GB", 16, 8),
    ("两台 8 卡 H800 能全参微调 Llama 3 70B 吗", "H800-SXM5-80GB", 16, 8),
    ("手上 2×8×A100，部署 Qwen2.5 72B 给 50 人用", "A100-SXM4-80GB", 16, 8),
]


@pytest.mark.parametrize(("question", "gpu", "count", "per_node"), NODE_SHAPES)
def test_two_products_name_nodes_of_cards(question: str, gpu: str, count: int, per_node: int) -> None:
    p = parse(question)
    assert p.request.gpu == gpu
    assert p.request.gpu_count == count and p.request.gpus_per_node == per_node
    assert not [n for n, _ in p.unused_numbers if n in ("2", "3")]  # the node count is read, not left


ONE_PRODUCT = [
    ("8x H100: fine-tune Llama 3 70B, how long?", 8),
    ("4 x 8 A100s for pretraining a 7B model", 32),
    ("用 8x H800 微调 Llama 3 70B 要多久", 8),
    ("H100 x 8 跑 Llama 3 70B 推理", 8),
]


@pytest.mark.parametrize(("question", "count"), ONE_PRODUCT)
def test_one_product_stays_its_cards(question: str, count: int) -> None:
    p = parse(question)
    assert p.request.gpu_count == count
