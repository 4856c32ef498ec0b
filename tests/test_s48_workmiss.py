"""Session 48 workmiss (issue 24 item 4, two stages in one message): training asked beside serving, in a
question of its own ('训练 7B 模型最低要多少显存？70B 模型放在 8 张 H100 上推理…', zh38-033) or after a
word between the two stages ('also for inference, or only for training?', en43-014), is named as another
setup when serving is sized (docs/design.md §8: never dropped in silence); a bare training word is the
tuning when a model is named with its size, also a size before a versioned name ('the 3B BB3')."""

from __future__ import annotations

import json

import pytest

from bot.parse.stage_pairs import coordinated_stage, trained_stage

NAMED = [
    # (normalized text, stage sized, the other stage named)
    ("will it need this much memory also for inference, or only for training?", "inference", "pretrain"),
    ("how much vram for serving, or just for fine-tuning?", "inference", "finetune"),
    (
        "training the 7b model, how much gpu memory does it take? and serving a 70b on 8 h100s, how fast?",
        "inference",
        "pretrain",
    ),
    ("fine-tuning qwen2-7b: how many gpus? serving it: how many tokens per second?", "inference", "finetune"),
    (
        "训练 7b 模型(fp16)最低要多少显存?70b 模型放在 8 张 h100 上推理大概能生成多少 token/s?",
        "inference",
        "pretrain",
    ),
    ("微调 qwen2-7b 需要多少张卡?推理又能跑多快?", "inference", "finetune"),
    ("推理还是只有训练需要这么多显存?", "inference", "pretrain"),
    ("部署还是仅用于微调?", "inference", "finetune"),
]


@pytest.mark.parametrize(("text", "stage", "other"), NAMED)
def test_other_stage_named(text: str, stage: str, other: str) -> None:
    assert coordinated_stage(text, stage) == [(f"stage: {other}", "other_setup")]


NOT_NAMED = [
    # the training that made the served model, or a noun of the training: one job, nothing else asked
    ("训练好的模型推理要多少显存?", "inference"),
    ("训练后的模型部署需要几张卡?", "inference"),
    ("训练数据有 1 万条,部署需要多少显存?", "inference"),
    ("after training, how much memory does inference need?", "inference"),
    ("the training data is 10k samples; how much gpu memory to serve llama-2-7b?", "inference"),
    ("i fine-tuned qwen2-7b, how much memory to serve it?", "inference"),
    ("预训练模型推理需要多少显存?", "inference"),
]


@pytest.mark.parametrize(("text", "stage"), NOT_NAMED)
def test_no_other_stage(text: str, stage: str) -> None:
    assert coordinated_stage(text, stage) == []


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("training the 3b bb3 (blenderbot 3) model", "finetune"),  # a size before a versioned name
        ("the 7b llama2 chat model, train it", "finetune"),
        ("训练 7b 模型", "pretrain"),  # a size before a plain noun: no model named
        ("train a 3b model", "pretrain"),
        ("train the 3b bb3 model from scratch", "pretrain"),  # the pre-training's scale keeps it one
    ],
)
def test_trained_stage(text: str, stage: str) -> None:
    assert trained_stage(text) == stage


@pytest.mark.parametrize(
    ("text", "other"),
    [
        (
            "Training the 3B BB3 (BlenderBot 3) model in ParlAI fails with OOM on an NVIDIA A100 (40GiB): "
            "--batchsize 1, --fp16 True. Will it need this much memory also for inference, "
            "or only for training?",
            "finetune",
        ),
        (
            "训练 7B 模型（FP16）最低要多少显存？70B 模型放在 8 张 H100 上推理大概能生成多少 token/s？",
            "pretrain",
        ),
    ],
)
def test_whole_answer_names_the_other_stage(text: str, other: str) -> None:
    from bot.cli import ask

    out, _ = ask(text, None, "json")
    answer = json.loads(out)
    assert answer["request"]["stage"] == "inference"
    assert {"text": f"stage: {other}", "reason": "other_setup"} in answer["interpretation"]["ignored"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        # serving asked of a subject other than a pronoun (en42-028: 'Can vLLM run inference on this model?')
        ("we will fine-tune a 70b model. can vllm run inference on this model at that length?", True),
        ("i fine-tune qwen2-7b with lora on 2 a100. could the model be served on one l4?", True),
        ("i fine-tune qwen2-7b with lora on 2 a100; can sglang serve it too?", True),
        ("微调 qwen2-7b 用 2 张 a100,vllm 能不能部署?", True),
        ("微调完的模型能部署吗?", False),  # serving the tuned model: one job, named elsewhere
        ("i fine-tune qwen2-7b with lora on 2 a100, how long does it take?", False),
        ("微调 qwen2-7b 用 2 张 a100 要多久?", False),
    ],
)
def test_serving_asked_apart(text: str, named: bool) -> None:
    assert coordinated_stage(text, "finetune") == ([("stage: inference", "other_setup")] if named else [])


@pytest.mark.parametrize(
    ("text", "sized", "other"),
    [
        # two stages, each on its own cards (bot.parse.stage_rigs): the other block's stage is named too
        (
            "只做推理的话单张 RTX 4090（24GB）跑 Llama-3-8B 够吗？"
            "要做 LoRA 微调是不是得双 4090 或者一张 A100 40GB？",
            "inference",
            "finetune",
        ),
        (
            "We pretrain a 7B on 1T tokens on 64 H800, then SFT it on 8 A100 with 1B tokens. "
            "How long does the SFT take?",
            "finetune",
            "pretrain",
        ),
        (
            "先用64张H800预训练7B模型1万亿token，再在8张A100上SFT 10亿token，SFT要多久？",
            "finetune",
            "pretrain",
        ),
    ],
)
def test_stage_rigs_name_the_other_stage(text: str, sized: str, other: str) -> None:
    from bot.parse import parse

    parsed = parse(text)
    assert parsed.request.stage == sized
    assert (f"stage: {other}", "other_setup") in parsed.unused_numbers


@pytest.mark.parametrize(
    ("text", "per"),
    [
        # a machine's size with no unit of its own beside the cards named (en38-013: 'Gaudi2 (8 per node')
        ("on gaudi2 (8 per node, 734gb host memory)", 8),
        ("h100 nodes, 8 per node", 8),
        ("a100 servers (4 each machine)", 4),
        ("h800 集群,每个节点 8 张", 8),
        ("a800 机器每台机器有 4 块", 4),
        # not a machine's size: a price, a bandwidth, a count of one, a CPU core count beyond any node's GPUs
        ("the cluster costs $2 per node-hour", None),
        ("400 gbps per node", None),
        ("2 hours per node", None),
        ("1 per node", None),
        ("128 per node", None),
        ("每个节点 2tb 内存", None),
    ],
)
def test_bare_per_node(text: str, per: int | None) -> None:
    from bot.parse.node_shape import bare_per_node

    assert bare_per_node(text) == per


@pytest.mark.parametrize(
    "text",
    [
        "I run Llama-3.1-70B with vLLM on Gaudi2 (8 per node) with --tensor-parallel-size 2. "
        "How many Gaudi2 do I need for 128k?",
        "I serve Llama-3.1-70B with vLLM on H100 nodes, 8 per node. How many nodes for 128k context?",
        "Fine-tuning Llama-3.1-70B on H100 nodes (8 each node): how many nodes for 3 days?",
    ],
)
def test_per_node_read_when_the_count_is_asked(text: str) -> None:
    from bot.parse import parse

    parsed = parse(text)
    assert parsed.request.gpus_per_node == 8 and parsed.request.gpu_count is None
    assert ("8", "unread") not in parsed.unused_numbers


def test_per_node_no_count_said_keeps_the_count() -> None:
    from bot.parse import parse

    parsed = parse("Fine-tuning Llama-3.1-70B on 16 H100, 8 per node: how long for 1B tokens?")
    assert parsed.request.gpu_count == 16 and parsed.request.gpus_per_node == 8


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        # counts tried one after another (en31-005): each count between the range's ends gets its row too
        (
            "Deploying Qwen2.5-7B-Instruct with vLLM on L4: on 1 card it failed, on 2 cards it failed, "
            "on 4 cards it succeeded. How many L4 does it need?",
            [1, 2, 4],
        ),
        (
            "Serving Qwen2.5-7B with vLLM on L4: 1 card OOMs, 2 cards OOM, 4 cards work. How many L4?",
            [1, 2, 4],
        ),
        ("用 vLLM 在 L4 上部署 Qwen2.5-7B：1 张卡 OOM，2 张卡也 OOM，4 张卡可以。到底要几张？", [1, 2, 4]),
        # a count said after the range of something else is no row
        ("Serve Qwen2.5-7B on 4 or 8 L4 with vLLM; another service already uses 6 GPUs.", [4, 8]),
        ("用 vLLM 在 4 张或 8 张 L4 上部署 Qwen2.5-7B，另一个服务已经占了 6 张卡", [4, 8]),
        # no count written between the ends: the two ends alone
        ("Serve Qwen2.5-7B on 4 or 8 L4 with vLLM.", [4, 8]),
        ("用 vLLM 在 4 张或 8 张 L4 上部署 Qwen2.5-7B", [4, 8]),
    ],
)
def test_counts_between_the_ends_get_rows(text: str, rows: list[int]) -> None:
    from bot.cli import ask

    answer = json.loads(ask(text, None, "json")[0])
    got = [r.get("value") for r in (answer.get("report") or {}).get("per_value") or []]
    assert got == rows
