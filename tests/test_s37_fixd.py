"""s37 fixd (issue 24 item 4): counts, lengths and launch lines read in every phrasing.

1. Nodes × cards per node in every phrasing (bot/parse/node_words.py's node and 'each' words: 台节点, 每个,
   单机, 台 DGX; bot/parse/chat_forms.py: a total spread over N machines, what each machine holds said
   first): 2 machines of 8 are 16 cards, 8 per node.
2. A bare k-length after a load said by its users or requests ('64 users 8k') is the context, the same rule
   as after a concurrency (words.BARE_CONTEXT_LEFT_RE).
3. Megatron-LM MoE flags build a MoE model (megatron_shape); a model beside a launch line is named
   'launch_line_model'.
4. An image size written with '*' and a per-card image count in a batch phrase (chat_forms).

Every sentence here was written for this part (none from a corpus).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask
from bot.parse import parse


def _req(text: str) -> dict[str, Any]:
    return parse(text).request.model_dump()


def _answer(text: str, lang: str | None = None) -> dict[str, Any]:
    out, _ = ask(text, lang, "json", None)
    return json.loads(out)


NODES_ZH = [
    "2 台节点，每台 8 张 H100 训练 7B",
    "2 个节点，每个 8 卡 H100 全参微调 7B",
    "2 台机器，每台 8 卡 A100，训练 13B 要多久",
    "2 台服务器，每台 8 张 A800，微调 70B",
    "两台节点，单机 8 卡 H800，预训练 7B",
    "2 台机器各 8 卡 H100，微调 Llama 3 8B",
    "2 个节点各 8 张 A100 训练 7B",
    "每台机器8卡，共2台，H100，训练 13B",
    "每台服务器 8 张 A100，一共 2 台，微调 7B",
    "2 台 H100 服务器，每台 8 张卡，训练 7B",
    "16 张卡分布在 2 个节点上，H100，训练 7B",
    "2 节点 × 8 卡 H100 训练 7B",
    "2 台 8 卡 H100 机器训练 7B",
    "两个节点，每个节点 8 张 H100，训练 7B",
    "2 台机器，单机 8 张 A100，全参微调 13B",
    "我们有 2 台服务器，每台装了 8 张 H100，能训练 7B 吗",
    "2台节点 每台8张卡 H100 训练7B",
    "2 台 DGX，每台 8 张 H100，训练 7B",
    "H100 两台节点，每台 8 张，微调 7B",
    "16 张 H100 分布在 2 台机器上，训练 7B",
]
NODES_EN = [
    "two nodes of 8 H100, train a 7B model",
    "2x8 H100 to pretrain 7B",
    "2 machines with 8 GPUs each, H100, fine-tune 7B",
    "16 cards over 2 nodes, H100, train 7B",
    "16 H100 across 2 nodes, train 7B",
    "2 nodes, 8 H100 per node, full finetune 13B",
    "2 servers with 8 A100s each, fine-tune llama 3 70b",
    "two 8-GPU H100 servers, pretrain 7B",
    "2 nodes x 8 GPUs (H100), train 7B",
    "we have 2 boxes, each with 8 H100s, can we train 7B",
    "8 GPUs per node, 2 nodes, H100, train 7B",
    "two machines, 8x H100 each, finetune 7B",
    "2 hosts x 8 A100 80GB, train 13B",
    "a cluster of 2 nodes with 8 H100 each, train 7B",
    "2 H100 nodes with 8 GPUs each, train 7B",
    "each node has 8 H100, and we have 2 nodes, train 7B",
    "2 nodes each with 8 A100, train 7B",
    "2 servers, each has 8 H100 cards, train 7B",
    "two nodes of eight H100s, train 7B",
    "16 gpus spread over 2 nodes, H100, train 7B",
]


@pytest.mark.parametrize("text", NODES_ZH + NODES_EN)
def test_two_machines_of_eight_are_sixteen_cards_eight_per_node(text: str) -> None:
    """2 machines × 8 cards each = 16 cards, 8 per node (or 16 stated in all over 2: 16 / 2 = 8)."""
    req = _req(text)
    assert (req["gpu_count"], req["gpus_per_node"]) == (16, 8)
    assert [u for u in parse(text).unused_numbers if u[0] in ("2", "8", "16")] == []


@pytest.mark.parametrize(
    ("text", "count", "per_node"),
    [
        ("16 张卡部署在 4 台服务器，训练 7B", 16, 4),  # 16 / 4
        ("every server holds 8 A100 GPUs; there are 4 servers, train 13B", 32, 8),  # 4 × 8
        ("2 台机器共 16 张 H100，训练 7B", 16, None),  # a total: the 16 stated
        ("2 台 DGX H100 训练 7B", 16, None),  # a DGX H100 holds 8 (its user guide)
    ],
)
def test_other_node_counts(text: str, count: int, per_node: int | None) -> None:
    req = _req(text)
    assert (req["gpu_count"], req["gpus_per_node"]) == (count, per_node)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("8 张卡的节点，H100，训练 7B", 8),  # one node of 8
        ("2 台机器里有一台坏了，8 张 H100，训练 7B", 16),  # as before this part (unchanged on purpose)
        ("a node with 8 GPUs, H100, train 7B", 8),
        ("each node has 8 GPUs, H100, train 7B", 8),  # no machine count: 8
        ("12 H100 across 8 nodes train 7B", 12),  # not shared evenly: the total alone, as before
    ],
)
def test_node_phrasings_that_must_not_change(text: str, count: int) -> None:
    req = _req(text)
    assert req["gpu_count"] == count and req["gpus_per_node"] is None


@pytest.mark.parametrize(
    ("text", "seq", "load"),
    [
        ("serve llama 3 70b on H100, 32 concurrent users 32k", 32768, 32),
        ("serve 70b, 64 users 8k", 8192, 64),
        ("部署 70b，64 个用户 8k", 8192, 64),
        ("部署 qwen2.5 72b，32 并发 32k，H100", 32768, 32),
        ("serve 70b, 32 requests at once 32k", 32768, 32),
    ],
)
def test_a_bare_k_length_after_a_load_is_the_context(text: str, seq: int, load: int) -> None:
    """'32k' is 32 × 1024 = 32,768 (a binary k in a context: estimator's seq_value)."""
    req = _req(text)
    assert (req["seq_len"], req["concurrency"]) == (seq, load)
    assert not [u for u in parse(text).unused_numbers if u[0].endswith("k")]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("serve 70b for 64 users 8k requests per day", "volume_not_load"),  # a daily volume, not a length
        ("serve 70b, 64 users 8k daily", "users_not_load"),  # daily users
    ],
)
def test_a_k_number_that_names_another_quantity_is_no_context(text: str, reason: str) -> None:
    p = parse(text)
    assert p.request.seq_len is None and ("8k", reason) in p.unused_numbers


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("I want 128K tokens, serving llama 3 8b on A100", "seq_len", 131072),
        ("部署 llama 3 8b，我想要 128K tokens", "seq_len", 131072),
        ("train 7b, I want 128K tokens", "tokens", 128000),  # training: a token amount
        ("fine-tune 7b on 128K tokens of dataset, A100", "tokens", 128000),
    ],
)
def test_a_token_amount_on_a_serving_question_is_the_context(text: str, field: str, value: int) -> None:
    assert _req(text)[field] == value


MEG = "torchrun --nproc_per_node 8 pretrain_gpt.py "
MIXTRAL = (
    MEG + "--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 "
    "--group-query-attention --num-query-groups 8 --swiglu --num-experts 8 --moe-router-topk 2 "
    "--untie-embeddings-and-output-weights --disable-bias-linear --padded-vocab-size 32000 "
    "--seq-length 4096 --max-position-embeddings 32768 --micro-batch-size 1 --global-batch-size 256 --bf16"
)
QWEN_MOE = (
    MEG + "--num-layers 24 --hidden-size 2048 --ffn-hidden-size 5632 --num-attention-heads 16 --swiglu "
    "--num-experts 60 --moe-router-topk 4 --moe-ffn-hidden-size 1408 "
    "--moe-shared-expert-intermediate-size 5632 "
    "--untie-embeddings-and-output-weights --disable-bias-linear --padded-vocab-size 151936 "
    "--seq-length 4096 --micro-batch-size 1 --global-batch-size 256 --bf16"
)


def test_a_megatron_moe_line_builds_mixtral_8x7b() -> None:
    """Mixtral-8x7B-v0.1's config.json (32 layers, hidden 4096, 8 experts of 14336, top-2, GQA 8, vocab
    32000, untied): 46,702,792,704 parameters (its safetensors index; Mistral's blog: 46.7B total, 12.9B
    active). By hand: attention 32 × 4096 × (4096 + 1024 + 1024 + 4096) = 1,342,177,280; experts 32 × 8 ×
    3 × 4096 × 14336 = 45,097,156,608; routers 32 × 4096 × 8 = 1,048,576; norms 65 × 4096 = 266,240;
    embeddings 2 × 32000 × 4096 = 262,144,000: 46,702,792,704. Active: 2 of 8 experts: 12,879,925,248."""
    answer = _answer(MIXTRAL + " 要训练多久")
    req = answer["request"]
    assert req["params_total"] == 46_702_792_704
    assert req["params_active"] == 12_879_925_248
    used = answer["stack_config"]["used"]
    assert used["--num-experts"] == used["--moe-router-topk"] == "architecture"
    assert not [i for i in answer["interpretation"]["ignored"] if "expert" in i["text"] or "moe" in i["text"]]


def test_a_megatron_moe_line_with_a_shared_expert_builds_qwen_moe() -> None:
    """Qwen1.5-MoE-A2.7B's shape (24 layers, hidden 2048, 60 experts of 1408, top-4, a shared expert of
    5632 = 4 × 1408): 14.3B total, 2.7B active (its model card: '14.3B parameters in total and 2.7B
    activated'); its q/k/v biases and shared-expert gate (Megatron: --add-qkv-bias) are left out here."""
    answer = _answer(QWEN_MOE + " how long to train?")
    req = answer["request"]
    assert req["params_total"] == pytest.approx(14.3e9, rel=2e-3)
    assert req["params_active"] == pytest.approx(2.69e9, rel=2e-3)
    used = answer["stack_config"]["used"]
    assert used["--moe-ffn-hidden-size"] == used["--moe-shared-expert-intermediate-size"] == "architecture"


@pytest.mark.parametrize(
    "line",
    [
        MIXTRAL.replace(" --swiglu", ""),  # a plain-MLP expert: no config family has it
        QWEN_MOE.replace("5632 --untie", "5000 --untie"),  # a shared size of no whole number of experts
    ],
)
def test_a_moe_line_left_unbuilt_keeps_its_flags_named(line: str) -> None:
    answer = _answer(line + " 要多久")
    assert answer["request"]["params_total"] is None
    assert {"text": "--num-experts: " + line.split("--num-experts ")[1].split()[0], "reason": "no_field"} in (
        answer["interpretation"]["ignored"]
    )


@pytest.mark.parametrize(
    ("lang", "wording"),
    [("en", "the launch line's shape gives the model"), ("zh", "模型以启动命令里的结构参数为准")],
)
def test_a_model_beside_a_launch_line_is_named_for_the_launch_line(lang: str, wording: str) -> None:
    """The text's own model is named, not used: the launch line's shape is sized (46.7B, as above)."""
    text = "Mixtral 8x7B pretraining: " + MIXTRAL + " on H100, how long?"
    answer = _answer(text, lang)
    assert answer["interpretation"]["ignored"] == [{"text": "Mixtral 8x7B", "reason": "launch_line_model"}]
    assert answer["request"]["params_total"] == 46_702_792_704
    out, _ = ask(text, lang, "text", None)
    line = next(x for x in out.splitlines() if "Mixtral 8x7B" in x and ("Not used" in x or "未使用" in x))
    assert wording in line and "config.json" not in line


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("微调 Qwen2-VL 7B，每张卡 2 张图片的 batch，8 张 A100", 2),
        ("微调 Qwen2-VL 7B，每卡 batch 2 张图，8 张 A100", 2),
        ("微调 Qwen2-VL 7B，单卡放 4 张图片一批，8 张 A100", 4),
        ("fine-tune qwen2-vl 7b, 2 images per GPU batch, 8 A100", 2),
        ("fine-tune qwen2-vl 7b, batch of 2 images per GPU, 8 A100", 2),
    ],
)
def test_a_per_card_image_count_in_a_batch_is_the_micro_batch(text: str, batch: int) -> None:
    req = _req(text)
    assert (req["batch_size"], req["num_samples"], req["gpu_count"]) == (batch, None, 8)


@pytest.mark.parametrize(
    "text",
    [
        "fine-tune qwen2-vl 7b on 20k images of 1024*1024 pixels, 8 A100",
        "fine-tune qwen2-vl 7b on 20k images of 1024x1024 pixels, 8 A100",
        "微调 qwen2-vl 7b，2 万张 1024*1024 的图片，8 张 A100",
        "微调 qwen2-vl 7b，2 万张 1024*1024 像素的图片，8 张 A100",
    ],
)
def test_images_of_a_size_written_with_a_star_are_counted(text: str) -> None:
    p = parse(text)
    assert (p.request.num_samples, p.request.gpu_count) == (20000, 8)
    assert p.unused_numbers == []


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("微调 qwen2-vl 7b，2 万张图片，8 张 A100，batch 16", "batch_size", 16),  # the data set, then a batch
        ("train 7b, max_seq_length 64 * 1024 tokens, 8 A100", "seq_len", 65536),  # a product of tokens
        ("2*8 H100 train 7b", "gpu_count", 16),  # nodes × cards
    ],
)
def test_other_stars_and_batches_unchanged(text: str, field: str, value: int) -> None:
    assert _req(text)[field] == value
