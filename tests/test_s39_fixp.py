"""s39 fixp: reading the user's stack and counts right (issue 24 items 3–4; base main 9fbe2148).

1. A launcher (torchrun / accelerate / deepspeed) beside a pasted DeepSpeed config is a DeepSpeed run at
   the config's ZeRO stage and offload: not "plain PyTorch DDP" (that reading is for a launch with nothing
   that shards, :mod:`bot.parse.ddp_launch`), one reading in every line.
2. A card named in a how-many question ('用3090 多少张', 'with 3090, how many?') is the card type asked
   about, not the user's one card: ``count_asked``, no ``gpu_count``.
4. 'Which needs fewer cards' of two models: the cards each needs (and the sequences each holds on the
   user's cards), about the same when the difference is within the estimate's memory band.
"""

from __future__ import annotations

import json

import pytest

from bot.parse import parse
from tests.cli_run import ask_quietly

DS_JSON = (
    '{"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 16, "bf16": {"enabled": true},\n'
    ' "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}'
)
"""The DeepSpeed config of the trial (/tmp/t38b/ds.json): ZeRO-2, optimizer offloaded to the CPU."""


def _json(*args: str) -> dict:
    return json.loads(ask_quietly("--format", "json", *args))


def _ignored(data: dict) -> dict[str, str]:
    return {i["text"]: i["reason"] for i in data["interpretation"]["ignored"]}


# --- 1. a launcher with a DeepSpeed config -------------------------------------------------------


@pytest.mark.parametrize(
    "prose",
    [
        "用 torchrun --nproc_per_node=8 全参微调 Llama 3.1 8B，6亿 token，8 张 A800，要多久",
        "torchrun --nproc_per_node 8: full fine-tune Llama 3.1 8B on 600M tokens, 8 x A800, how long?",
        "用 accelerate launch 全参微调 Llama 3.1 8B，6亿 token，8 张 A800",
        "python -m torch.distributed.launch --nproc_per_node 8, full fine-tune Llama 3.1 8B, 600M tokens, "
        "8 A800",
    ],
)
def test_launcher_with_deepspeed_config_is_deepspeed(prose: str) -> None:
    data = _json(f"{prose}\n{DS_JSON}")
    req = data["request"]
    assert req["training_tool"] != "PyTorch DDP"
    assert (req["zero_stage"], req["offload"], req["batch_size"]) == (2, True, 2)  # the config's settings
    ignored = _ignored(data)
    assert "launcher_ddp" not in ignored.values()
    assert ignored.get("training_tool: DeepSpeed") == "settings_applied"
    reply = data["reply"]
    assert "DDP" not in reply
    head = reply.splitlines()[0]
    assert "ZeRO-2" in head  # DeepSpeed's stage named in the headline
    plan = data["report"]["memory"]["plan"]
    assert (plan["dp"], plan["zero_stage"], plan["offload"]) == (8, 2, True)


def test_launcher_alone_stays_plain_ddp() -> None:
    """Must not misread: torchrun of a script with nothing that shards is still plain DDP (s32)."""
    data = _json("用 torchrun --nproc_per_node=8 全参微调 Llama 3.1 8B，6亿 token，8 张 A800，要多久")
    assert data["request"]["training_tool"] == "PyTorch DDP"
    assert "PyTorch DDP" in data["reply"].splitlines()[0]


def test_fsdp_words_beside_launcher_not_ddp() -> None:
    """A launch the prose says shards (FSDP) stays what it was: no DDP reading (s32's SHARDS_RE)."""
    data = _json("torchrun --nproc_per_node 8 with FSDP full fine-tune Llama 3.1 8B on 600M tokens, 8 x A800")
    assert data["request"]["training_tool"] != "PyTorch DDP"


# --- 2. a card named in a how-many question ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "LoRA 微调 Qwen2.5-7B，用3090 多少张",
        "LoRA 微调 Qwen2.5-7B，用3090多少张",
        "全参微调 Qwen2.5-7B 用 A100 要几张",
        "部署 Qwen2.5-72B，A100 需要多少块",
        "LoRA fine-tune Qwen2.5-7B with 3090s, how many",
        "LoRA Qwen2.5-7B with 3090, how many?",
        "full fine-tune Llama 3 8B on H100s how many do I need",
        "full fine-tune Llama 3 8B on H100 how many do I need",
    ],
)
def test_card_in_how_many_question_is_asked_about(text: str) -> None:
    req = parse(text).request
    assert req.gpu is not None
    assert req.gpu_count is None
    assert req.count_asked is True


@pytest.mark.parametrize(
    "text",
    [
        "我有一张3090，LoRA 微调 Qwen2.5-7B 要多久",
        "单卡3090 能 LoRA Qwen2.5-7B 吗",
        "can I LoRA Qwen2.5-7B on my 3090",
    ],
)
def test_one_owned_card_stays_one(text: str) -> None:
    req = parse(text).request
    assert req.gpu == "RTX-3090"
    assert req.gpu_count == 1
    assert not req.count_asked


@pytest.mark.parametrize(
    "text",
    [
        "租一张 A100 一小时要多少块钱",  # money, not cards
        "SDXL 在 4090 上每秒能出多少张图",  # images, not cards
    ],
)
def test_how_many_of_something_else_is_no_count_ask(text: str) -> None:
    assert not parse(text).request.count_asked


def test_how_many_3090_answers_the_count_in_both_languages() -> None:
    """'用3090 多少张' answers the count it needs, as '要几张' and the English question do — never
    "1 张 RTX 3090 显存放不下" of a card the user did not say they own."""
    zh = _json("全参微调 Qwen2.5-7B 序列长度4096 12.3亿 token 用3090 多少张")
    zh2 = _json("全参微调 Qwen2.5-7B 序列长度4096 12.3亿 token 用3090 要几张")
    en = _json("full fine-tune Qwen2.5-7B, seq 4096, 1.23B tokens, with 3090s, how many")
    assert zh["request"]["gpu_count"] is None and zh["request"]["count_asked"] is True
    assert "1 张 RTX 3090" not in zh["reply"].splitlines()[0]
    counts = {d["report"]["memory"]["min_gpus"] for d in (zh, zh2, en)}
    assert len(counts) == 1 and counts.pop() > 1  # 7.6B × 16 B of model states never fit 24 GiB
    assert zh["reply"].splitlines()[0] == zh2["reply"].splitlines()[0]


# --- 4. which needs fewer cards ------------------------------------------------------------------

FEWER_ZH = "Qwen2.5-72B 和 Llama-3.3-70B 哪个部署更省卡？4张A100 80G，并发32"
FEWER_EN = "Qwen2.5-72B vs Llama-3.3-70B, which needs fewer GPUs to serve? 4x A100 80G, 32 concurrent"


@pytest.mark.parametrize("text", [FEWER_ZH, FEWER_EN])
def test_fewer_cards_about_the_same(text: str) -> None:
    """Both models keep 80 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 327,680 B of KV cache a token, so a
    4K sequence 1,342,177,280 B; both need 4 × A100 80G for 32 sequences (TP a power of two: 2 cards hold
    the weights but few sequences). On the user's 4 they hold 116 and 119: 3 sequences × 1.34 GB = 4.0 GB,
    within the band from vLLM's 0.90 to 0.95 of 4 × 80 GiB (0.05 × 343.6 GB = 17.2 GB): about the same —
    not 'cheaper per million tokens'."""
    data = _json(text)
    rows = data["report"]["compared_models"]
    assert [r["gpus_for_load"] for r in rows] == [4, 4]
    assert [r["max_concurrency"] for r in rows] == [116, 119]
    assert not any(r["chosen"] for r in rows)
    assert data["report"]["inference"]["kv_bytes_per_sequence"] == 327_680 * 4096
    head = data["reply"].splitlines()[0]
    assert ("差不多" if "张" in text else "About the same") in head
    assert "116" in head and "119" in head
    assert "百万" not in head and "million" not in head


def test_fewer_cards_names_the_one_needing_fewer() -> None:
    """Qwen2.5-32B (64 layers × 8 KV heads × 128 × 2 × 2 B = 256 KiB a token) holds 32 sequences of 4K on
    2 × A100 80G; Llama-3.3-70B's 141 GB of weights need 4 at TP a power of two for that load."""
    data = _json("Qwen2.5-32B or Llama-3.3-70B, which needs fewer GPUs to serve? A100 80G, 32 concurrent")
    rows = data["report"]["compared_models"]
    assert [(r["model"], r["gpus_for_load"], r["chosen"], r["why"]) for r in rows] == [
        ("Qwen2.5-32B", 2, True, "fewer_gpus"),
        ("Llama-3.3-70B", 4, False, None),
    ]
    assert data["reply"].startswith("Fewer GPUs: Qwen2.5 32B needs 2 × A100 80G")


def test_which_is_cheaper_still_on_cost() -> None:
    """Must not misread: '哪个部署更划算' asks the cost: answered per million output tokens, as before."""
    data = _json("Qwen2.5-72B 和 Llama-3.3-70B 哪个部署更划算？4张A100 80G，并发32")
    chosen = [r for r in data["report"]["compared_models"] if r["chosen"]]
    assert len(chosen) == 1 and chosen[0]["why"] == "cheaper"
