"""'N机M卡' and other nodes × cards phrasings (issue 24 item 4): the GPU count through ``sizing-bot ask``.

Rule under test (bot.parse.node_words.ji_ka_count): M ≤ 8 is the cards in each machine (an HGX/DGX
baseboard, an Atlas 800T A2 and a 4U PCIe server hold 8), so '2机8卡' = 2 × 8 = 16; M above 8 is the total
('2机16卡' = 16). The plan of 16 A100 (8 per node: the A100 SXM4 catalog entry's gpus_per_node) uses all 16.
"""

from __future__ import annotations

import pytest

from tests.cli_run import ask_in_process

PRETRAIN = "7B模型训练1万亿token {} A100要多久"


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        (PRETRAIN.format("2机8卡"), 16),
        (PRETRAIN.format("2台8卡"), 16),
        (PRETRAIN.format("两机八卡"), 16),
        (PRETRAIN.format("双机8卡"), 16),  # 双机: two machines (双卡 stays two cards)
        (PRETRAIN.format("2个节点8卡"), 16),
        (PRETRAIN.format("2机16卡"), 16),
        (PRETRAIN.format("4机32卡"), 32),
        (PRETRAIN.format("2机4卡"), 8),
        ("pretrain a 7B model on 1T tokens with 2 nodes of 8 A100 GPUs", 16),
    ],
)
def test_nodes_times_cards_count(capsys: pytest.CaptureFixture[str], text: str, gpus: int) -> None:
    data = ask_in_process(capsys, text)
    assert data["request"]["gpu_count"] == gpus
    memory = data["report"]["memory"]
    assert memory["plan_gpus"] == gpus
    plan = memory["plan"]
    assert plan["tp"] * plan["pp"] * plan["dp"] == gpus


def test_two_machines_of_eight_reach_the_plan(capsys: pytest.CaptureFixture[str]) -> None:
    """'2机8卡': 16 A100 in two 8-GPU nodes; 1T tokens × 6 × 7B = 4.2e22 FLOPs at 40 % of 312 TFLOPS is
    93,483 A100-hours, so 16 cards take 93,483 / 16 / 24 ≈ 243 days (the design's seed example)."""
    data = ask_in_process(capsys, PRETRAIN.format("2机8卡"))
    assert data["report"]["hardware"]["gpus_per_node"] == 8
    assert round(data["report"]["gpu_hours"]["likely"]) == 93_483
    assert data["report"]["days"]["gpus"] == 16
    assert round(data["report"]["days"]["likely"]) == 243
