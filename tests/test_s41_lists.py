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
    assert parse(text).node_counts == ()


def test_node_list_needs_a_whole_per_node_count() -> None:
    # 64 GPUs read for the last of '2, 4 or 8 nodes': 8 per node; 20 is no whole multiple of 8
    assert node_list("on 2, 4 or 8 nodes", 64) == (8, [2, 4, 8])
    assert node_list("on 2, 4 or 8 nodes", 20) is None
    assert node_list("on 2, 4 or 8 days", 64) is None
    assert node_list("在 2、4 或 8 台机器上", 64) == (8, [2, 4, 8])


RANGES = [
    # (text, setting, rows): a range's two ends each a row, the setting named beside it, both languages
    ("serve Qwen2.5-7B on one A100 at concurrency 4 to 64", "concurrency", [4, 64]),
    ("serve Qwen2.5-7B on one A100, concurrency from 4 up to 64", "concurrency", [4, 64]),
    ("一张 A100 部署 Qwen2.5-7B，并发 4 到 64", "concurrency", [4, 64]),
    ("一张 A100 部署 Qwen2.5-7B，并发 4-64", "concurrency", [4, 64]),
    # s42: a range of lengths is sized at its longer end, the shorter named (tests/test_s42_lists.py)
    ("用 8 张 A100 微调 Qwen2.5-7B，batch size 1-8", "batch_size", [1, 8]),
]


@pytest.mark.parametrize(("text", "setting", "rows"), RANGES)
def test_a_range_gets_a_row_per_end(text: str, setting: str, rows: list[int]) -> None:
    a = answer_json(text)
    got = [r["value"] for r in a["report"]["per_value"] if r["setting"] == setting]
    assert got == rows
    # each end answered in its row: neither named as not used any more
    ends = {
        (f"{v // 1024}k" if v < 1 << 20 else f"{v >> 20}m") if setting == "seq_len" else str(v) for v in rows
    }
    assert not [i for i in a["interpretation"]["ignored"] if i["text"].split(":")[-1].strip() in ends]


NOT_RANGES = [
    # days, a version, dates, one card's memories, a request volume: no rows
    "用 8 张 A100 微调 Llama-3.1-8B，1-2 天能完成吗",
    "Fine-tune Llama 3.1 8B on 8 A100 40/80GB, 2024-05-01 to 2024-06-01",
    "serve Qwen2.5-7B on one A100, 10k-50k requests a day",
    "Fine-tune Qwen2.5-7B on 8 H100 for 2 to 3 epochs",
    "微调 Qwen2.5-7B，8 张 H100，训练 2 到 3 个 epoch",
]


@pytest.mark.parametrize("text", NOT_RANGES)
def test_other_ranges_get_no_rows(text: str) -> None:
    a = answer_json(text)
    assert not (a.get("report") or {}).get("per_value")


@pytest.mark.parametrize(
    "text",
    [
        "Pre-train Qwen2.5-7B on up to 256 nodes with 4x A100 per node, scaling from 32 to 1,024 GPUs",
        "在 256 个节点（每个节点 4 张 A100）的集群上预训练 Qwen2.5-7B，从 32 到 1024 张卡扩展",
    ],
)
def test_a_gpu_range_topped_by_the_nodes_is_that_range(text: str) -> None:
    # en37-031 (huggingface/nanotron: '256 nodes with 4x A100 …, from 32 to 1,024 GPUs'): 256 × 4 = 1,024
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (32, 1024)
    assert not [u for u in p.unused_numbers if u[0] == "32"]


def test_nodes_without_a_gpu_range_keep_their_count() -> None:
    for text in (
        "train Qwen2.5-7B on 256 nodes with 4x A100 per node, 2 to 3 days",
        "256 个节点，每个节点 4 张 A100，训练 Qwen2.5-7B 要 2 到 3 天吗",
    ):
        p = parse(text)
        assert (p.request.gpu_count, p.request.gpu_count_max) == (1024, None)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        # zh12-008 (QwenLM/Qwen): '=1，4 台 8 卡' is a setting then a clause, no list of node counts
        ("全量微调 Qwen-14B：per_device_train_batch_size=1，4 台 8 卡 80G，每张卡显存 60-70G", 32),
        # zh2-010 (LLaMA-Factory): 'zero3，16 台机器每台 8 张' is ZeRO-3 then 16 nodes
        ("DPO 训练 Qwen2-72B，用 deepspeed zero3，16 台机器每台 8 张共 128 张 A800", 128),
        ("Full fine-tune Qwen-14B with batch_size=1, 4 nodes of 8 A100 80G", 32),
    ],
)
def test_a_setting_before_a_node_count_is_no_list(text: str, count: int) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max, p.node_counts) == (count, None, ())


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        # en18-002 (verl): a count range on one node, its max already read: kept, never a traceback
        ("How can I train an 8B model with GRPO in verl on one node of 4 or 8 A100 80G?", 4, 8),
        ("我用 2x16 和 3x16 华为 910B 的卡，以 grpo 方式训练 qwen2.5-32B 模型", 32, 48),
    ],
)
def test_a_count_range_beside_nodes_is_kept(text: str, low: int, high: int) -> None:
    p = parse(text)
    assert (p.request.gpu_count, p.request.gpu_count_max) == (low, high)
    assert answer_json(text)["request"]["gpu_count"] == low


MEMORY_RANGES = [
    # en35-021 (PowerInfer): 'consumer cards with 16-22GB of VRAM': a row per memory, neither named
    ("Can I run Qwen2.5-32B on consumer cards with 16-22GB of VRAM?", [16, 22]),
    ("16 到 24G 显存的卡能跑 Qwen2.5-14B 吗", [16, 24]),
]


@pytest.mark.parametrize(("text", "rows"), MEMORY_RANGES)
def test_a_memory_range_gets_a_row_per_end(text: str, rows: list[int]) -> None:
    a = answer_json(text)
    assert [r["value"] for r in a["report"]["per_value"] if r["setting"] == "gpu_memory_gib"] == rows
    assert not [i for i in a["interpretation"]["ignored"] if i["text"] in {str(v) for v in rows}]


@pytest.mark.parametrize(
    "text",
    ["serve Qwen2.5-14B on one 4090 with 64-128GB RAM", "一张 4090 部署 Qwen2.5-14B，机器有 16-32G 内存"],
)
def test_a_host_memory_range_gets_no_rows(text: str) -> None:
    assert not (answer_json(text).get("report") or {}).get("per_value")


@pytest.mark.parametrize(
    "text", ["Fine-tune Qwen2.5-7B on 2–8 A100, 10B tokens", "用 2 到 8 张 A100 微调 Qwen2.5-7B"]
)
def test_a_count_range_gets_no_rows(text: str) -> None:
    # the rows' gate admits a range (bot.parse.value_list.LISTED_NUMBERS), but a count range is one range the
    # headline sizes (gpu_count to gpu_count_max), no row per end
    a = answer_json(text)
    assert (a["request"]["gpu_count"], a["request"]["gpu_count_max"]) == (2, 8)
    assert not a["report"]["per_value"]
