"""Count words around a node (s20-fixb item 7): 'I rented an H100 per node on 4 nodes' (read as A100 × 100:
the digits of 'H100' were taken for the cards per node), 'one GPU per node, 4 nodes', 'a single A100 per
node across 2 nodes', '4 nodes with an H100 each', '每个节点一张 A100，共 4 个节点', '8卡机箱', 'an 8-GPU
chassis': nodes × cards per node, an article 'an' is 1. Sentences of our own."""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


@pytest.mark.parametrize(
    ("text", "gpu", "count", "per_node"),
    [
        (
            "I rented an H100 per node on 4 nodes to fine-tune Llama-3-8B",
            "H100-SXM5-80GB",
            4,
            1,
        ),
        ("Training Llama-3-8B full FT with one GPU per node, 4 nodes of H100", "H100-SXM5-80GB", 4, 1),
        ("a single A100 per node across 2 nodes, LoRA Llama-3-8B", "A100-SXM4-80GB", 2, 1),
        ("4 nodes with an H100 each, fine-tune Llama-3-8B", "H100-SXM5-80GB", 4, 1),
        ("8 H100 per node across 4 nodes, pretrain 7B on 1T tokens", "H100-SXM5-80GB", 32, 8),
        ("每个节点一张 A100，共 4 个节点，微调 Llama-3-8B", "A100-SXM4-80GB", 4, 1),
        ("每台机器两张 A800，一共 3 台，LoRA 微调 Qwen2.5-14B", "A800-80GB", 6, 2),
        ("租了一台 8卡机箱 的 H100，预训练 7B 模型 100B token", "H100-SXM5-80GB", 8, 8),
        ("We have an 8-GPU chassis of A100s for Qwen2.5-72B inference", "A100-SXM4-80GB", 8, None),
    ],
)
def test_nodes_times_cards_per_node(text: str, gpu: str, count: int, per_node: int | None) -> None:
    req = answer_json(text)["request"]
    assert (req["gpu"], req["gpu_count"]) == (gpu, count)
    assert req["gpus_per_node"] == per_node


def test_a_word_count_needs_a_card() -> None:
    # 'a copy per node' names no card: never '4 nodes of 1 copy gpus'
    req = answer_json("we run a copy per node on 4 nodes of A100 serving Llama-3-8B")["request"]
    assert req["gpus_per_node"] != 1
