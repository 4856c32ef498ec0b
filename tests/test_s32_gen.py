"""Session 32, general readers (s32-gen): sentences of our own, never corpus records, in both languages —
each reader must read its family of phrasings and must not misread its near misses."""

from __future__ import annotations

import pytest

from bot.parse import parse

# -- the GPUs of a machine, with the card's name between or other parts listed (bot.parse.node_shape) -----

PER_NODE = [
    ("Pre-training a 13B model on an A800 cluster with 8 A800 GPUs per node.", 8, 8),
    ("Pre-training a 13B model on 16 nodes with 8 GPUs and 8 NICs per node.", 128, 8),
    ("Megatron pre-training of a 30B model on H100 servers with 8 H100 GPUs and 8 IB NICs per node", 8, 8),
    ("Fine-tune Llama-3-70B on 2 nodes with 4 A100 GPUs and 256 GB RAM per node", 8, 4),
    ("Pre-train a 7B model on 2 machines with 4 A100 GPUs and 64 CPU cores per machine", 8, 4),
    ("预训练 13B，16 个节点，每个节点 8 张 A800 和 8 张 IB 网卡", 128, 8),
    ("预训练 13B，16 个节点，每个节点有 8 张 A800 GPU、2 颗 CPU", 128, 8),
    ("4 台服务器，每台 8 张 H100 和 8 张网卡，预训练 7B 要多久", 32, 8),
]


@pytest.mark.parametrize(("text", "count", "per"), PER_NODE)
def test_gpus_per_node_is_read(text: str, count: int, per: int) -> None:
    req = parse(text).request
    assert (req.gpu_count, req.gpus_per_node) == (count, per)


PER_NODE_NOT = [
    "Fine-tune Llama-3-70B on 8 GPUs and 2 nodes.",  # no 'per node': no machine size said
    "Pre-train a 7B model on 8 A100 GPUs with 2 TB of data per node",  # data per node, no GPU list
    "Serve Qwen2.5-72B on 8 H100, 2 replicas",
    "8 张 A100 预训练 7B，数据放在每个节点本地",
]


@pytest.mark.parametrize("text", PER_NODE_NOT)
def test_no_machine_size_from_other_words(text: str) -> None:
    assert parse(text).request.gpus_per_node is None


def test_a_count_the_machines_cannot_hold_is_another_count() -> None:
    """'7 per node on 8': the machines of 7 cannot hold the 8 whole (kept as before)."""
    req = parse("Pre-train a 7B model with 7 GPUs per node, 8 GPUs in all").request
    assert req.gpus_per_node is None


# -- 'train' a release named by its size tier is a fine-tuning (bot.parse.stage_hints.TIER_RELEASE_RE) ----

TIER_TRAINED = [
    "Is it possible to train the Whisper large model on one 24GB card?",
    "Can I train T5-large on a single 3090?",
    "How long to train bert-base-uncased on 2 V100?",
    "Training flan-t5-xl on 4 A100, how much memory?",
    "Train whisper-large-v3 on an RTX 4090: does it fit?",
    "训练 whisper large 模型需要多大显存？",
    "用一张 4090 训练 bert-base-chinese 要多久？",
    "在 8 张 A100 上训练 t5-large，显存够吗",
]


@pytest.mark.parametrize("text", TIER_TRAINED)
def test_tier_release_trained_is_finetuning(text: str) -> None:
    assert parse(text).request.stage == "finetune"


TIER_NOT = [
    "How many A100s to train a very large model with 1T tokens?",
    "Train a 7B base model on 2T tokens, how many H100?",
    "Can I train a small model on a 4090?",
    "How long to train the base model on 8 A100?",
    "Train a large language model from scratch on 1T tokens with 64 H100",
    "训练一个 large 模型需要多少卡？",
    "从头训练一个 small 模型，1000 亿 token，要几张 A100",
]


@pytest.mark.parametrize("text", TIER_NOT)
def test_no_release_in_tier_words(text: str) -> None:
    assert parse(text).request.stage == "pretrain"
