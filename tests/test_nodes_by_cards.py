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


@pytest.mark.parametrize(
    ("text", "per_node"),
    [
        (PRETRAIN.format("2机4卡"), 4),  # two machines of 4: 2 × 4 = 8 GPUs
        (PRETRAIN.format("2机16卡"), 8),  # 16 in total on two machines: 8 each
        (PRETRAIN.format("2机8卡"), 8),
        ("pretrain a 7B model on 1T tokens with 2 nodes of 4 H100 GPUs", 4),
        ("pretrain a 7B model on 1T tokens on 4x8 A100s", 8),
        (PRETRAIN.format("8张"), None),  # no machines said: the card's catalog node (8)
    ],
)
def test_gpus_per_node_stated_are_carried(capsys: pytest.CaptureFixture[str], text: str, per_node) -> None:
    """Issue 24/25 follow-up: the machines' size said with the count is the request's ``gpus_per_node``
    and the node the answer lays out (``report.hardware.gpus_per_node``; catalog default 8)."""
    data = ask_in_process(capsys, text)
    assert data["request"]["gpus_per_node"] == per_node
    assert data["report"]["hardware"]["gpus_per_node"] == (per_node or 8)
    said = [w["params"] for w in data["report"]["warnings"] if w["code"] == "machines_as_stated"]
    assert said == (
        [{"gpus_per_node": 4, "catalog_per_node": 8, "gpu": said[0]["gpu"]}] if per_node == 4 else []
    )


def test_two_machines_of_four_keep_tensor_parallel_inside_one(capsys: pytest.CaptureFixture[str]) -> None:
    """'2机4卡' with a 70B model: TP stays within a machine's 4 GPUs (Megatron-LM, Narayanan et al. 2021
    §3.3: tensor parallelism inside a node, data/pipeline parallelism across nodes), and the launcher
    launches 4 processes on each machine (torchrun --nproc-per-node 4)."""
    data = ask_in_process(capsys, "2机4卡 A100 训练 70B 模型 1000亿 token 要多久")
    plan = data["report"]["memory"]["plan"]
    assert data["request"]["gpu_count"] == 8 and plan["tp"] <= 4
    assert plan["tp"] * plan["pp"] * plan["dp"] == 8
    torchrun = "\n".join(r["text"] for r in data["report"]["recipes"])
    assert "--nproc-per-node 4" in torchrun and "--nproc-per-node 8" not in torchrun


def test_machine_size_bounds_the_tensor_parallel_degree() -> None:
    """Llama 3.1 405B on 64 A100 80GB: in 8-GPU nodes the plan takes TP 8; in machines of 4, TP 4 with
    the pipeline across machines (TP 4 × PP 2); in machines of 2, TP 2. The GPU-hours stay those of
    C = 6ND at the calibrated MFU: the node size changes the layout (and its memory)."""
    from estimator.models import SizingRequest, Stage
    from estimator.sizing import estimate

    def plan(per_node):
        req = SizingRequest(
            stage=Stage.pretrain,
            model="Llama-3.1-405B",
            tokens=1e11,
            gpu="A100-SXM4-80GB",
            gpu_count=64,
            gpus_per_node=per_node,
        )
        r = estimate(req)
        return r.gpu_spec.gpus_per_node, r.memory.plan.tp, r.memory.plan.pp

    assert plan(None) == (8, 8, 1)
    assert plan(4) == (4, 4, 2)
    assert plan(2)[:2] == (2, 2)
