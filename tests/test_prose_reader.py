"""Issue 24, part U1: the prose reader — model names, card memory, counts, batch words, negation,
budgets and context lengths, each kind in both languages, through the CLI (``sizing-bot ask --format
json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import main


def ask(capsys: pytest.CaptureFixture[str], text: str, want_code: int = 0) -> dict[str, Any]:
    code = main(["ask", "--format", "json", text])
    data = json.loads(capsys.readouterr().out)
    assert code == want_code, data
    return data


def unread(data: dict[str, Any]) -> list[str]:
    return [i["text"] for i in data["interpretation"]["ignored"] if i["reason"] == "unread"]


# (sentence, request fields it must give). Catalog memory: A100-SXM4-40GB 40 GiB, RTX-4090 24 GiB.
CARD_MEMORY = [
    (
        "两张 RTX 4090 24G 做 Qwen2.5-7B 的 LoRA 微调够吗",
        {"gpu": "RTX-4090", "gpu_count": 2, "gpu_memory_gib": 24},
    ),
    (
        "Can one RTX 4090 24GB LoRA-tune Qwen2.5-7B?",
        {"gpu": "RTX-4090", "gpu_count": 1, "gpu_memory_gib": 24},
    ),
    ("6 张 A100 40G 全参微调 Llama-3.1-8B", {"gpu": "A100-SXM4-40GB", "gpu_count": 6, "gpu_memory_gib": 40}),
    (
        "full fine-tune Llama-3.1-8B on 6x A100 40G each",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 6, "gpu_memory_gib": 40},
    ),
    (
        "五台 A100 服务器（8×40G）预训练 13B 模型 500B token 要多久",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 40, "gpu_memory_gib": 40},
    ),
    (
        "How long to pretrain a 13B on 500B tokens with 12 DGX-A100 (8X40G)?",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 96, "gpu_memory_gib": 40},
    ),
    (
        "A800x4x80G 用 LoRA 对 Qwen2.5-14B 做 DPO，per_device_train_batch_size 2、"
        "gradient_accumulation_steps 4",
        {"gpu": "A800-80GB", "gpu_count": 4, "gpu_memory_gib": 80, "global_batch": 2 * 4 * 4},
    ),
    (
        "LoRA DPO of Qwen2.5-14B on A100x8x40G, per_device_train_batch_size 1, gradient_accumulation_steps 2",
        {"gpu": "A100-SXM4-40GB", "gpu_count": 8, "gpu_memory_gib": 40, "global_batch": 1 * 2 * 8},
    ),
    (
        "two H800 servers (8x80GB) to pretrain a 7B on 300B tokens",
        {"gpu": "H800-SXM5-80GB", "gpu_count": 16, "gpu_memory_gib": 80},
    ),
]


@pytest.mark.parametrize(("text", "want"), CARD_MEMORY)
def test_memory_beside_a_card_is_the_request_memory(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    data = ask(capsys, text)
    got = {k: data["request"][k] for k in want}
    assert got == want
    assert unread(data) == []  # the 8 and the 40 of "(8×40G)" are read, not left over


# (sentence, request fields, interpretation.unknown_model)
MODEL_NAMES = [
    # a name, a space, a size: unknown, named as typed, sized at the stated size (never swapped)
    ("fine-tune InternVL 76B on 8 H100", {"model": None, "params_total": 76e9}, "InternVL 76B"),
    ("用 4 张 A100 做 FooBar 13B 的 LoRA 微调", {"model": None, "params_total": 13e9}, "FooBar 13B"),
    # a size, then the name
    ("LoRA the 7B LLaVA on one A100 80GB", {"model": None, "params_total": 7e9}, "LLaVA 7B"),
    ("一张 4090 能 LoRA 微调 8B 的 InternVL2.5 吗", {"model": None, "params_total": 8e9}, "InternVL2.5 8B"),
    ("serve the 70B Llama3 on 4 H100", {"model": "Llama-3-70B", "params_total": 70.6e9}, None),
    ("部署 8B 的 Llama3 要几张 4090", {"model": "Llama-3-8B", "params_total": 8.03e9}, None),
    # an HF repo id with an organisation and an active size
    (
        "serve someorg/Foo-Linear-48B-A3B-Instruct-AWQ on 2 RTX 3090",
        {"model": None, "params_total": 48e9, "params_active": 3e9},
        "Foo-Linear-48B-A3B-Instruct-AWQ",  # s48 names: whole as typed (was "Foo-Linear-48B-A3B")
    ),
    (
        "用 vLLM 部署 someorg/Bar-MoE-30B-A3B，两张 A100",
        {"model": None, "params_total": 30e9, "params_active": 3e9},
        "Bar-MoE-30B-A3B",
    ),
    # a family named without a size: named, with its releases suggested; no size picked for the user
    (
        "How many GPUs to fine-tune StarCoder on my C code?",
        {"model": None, "params_total": None},
        "StarCoder",
    ),
    ("用 Bloom 做 LoRA 微调，一张 V100 够不够", {"model": None, "params_total": None}, "Bloom"),
    # a family with a short variant tag, a name called a model, a size in brackets
    ("MiniCPM-V 做 LoRA 微调，8 张 3090 够吗", {"model": None, "params_total": None}, "MiniCPM-V"),
    # s31: MiniMax-M1 joined the catalog (test_s31_catalog.py); an unknown name of its shape stays as typed
    ("Serve FooMax-M1 at 1M context on 8 H20", {"model": None, "params_total": None}, "FooMax-M1"),
    ("FooChat 模型做推理最低要什么显卡？", {"model": None, "params_total": None}, "FooChat"),
    ("How many GPUs did the BarNet3 pre-training take?", {"model": None, "params_total": None}, "BarNet3"),
    # s24: GPT-2 is in the catalog; gpt2-large = 774,030,080 parameters (HF gpt2-large config.json:
    # 50257 x 1280 + 1024 x 1280 + 36 x (12 x 1280^2 + 13 x 1280) + 2 x 1280)
    (
        "Training gpt2 large (774M) on one V100-32GB OOMs",
        {"model": "GPT-2-774M", "params_total": 774_030_080.0},
        None,
    ),
    ("Training foonet2 (774M) on one V100-32GB OOMs", {"model": None, "params_total": 774e6}, "foonet2"),
    ("用一张 V100 训练 FooLM（350M）会爆显存吗", {"model": None, "params_total": 350e6}, "FooLM"),
    # a family, its version, 的, its size; version 1 is the first, unversioned release
    ("LLaMA1 的 13B 用 8 张 A100 训练要多久", {"model": "LLaMA-13B", "params_total": 13e9}, None),
    ("How fast does llama1 13b train on 8 A100?", {"model": "LLaMA-13B", "params_total": 13e9}, None),
    ("llama3 的 8b 版本 LoRA 微调要几张 4090", {"model": "Llama-3-8B", "params_total": 8.03e9}, None),
    # words that are not names stay words
    ("DPO training of a 7B on 8 H100", {"model": None, "params_total": 7e9}, None),
    ("FSDP training of our model on 8 A100", {"model": None, "params_total": None}, None),
    ("two RTX 3090 with NVLink 70B QLoRA, enough?", {"model": None, "params_total": 70e9}, None),
    ("在 RunPod 上用 4 张 A100 微调 13B 模型", {"model": None, "params_total": 13e9}, None),
    ("LoRA 70B on 2 A100", {"model": None, "params_total": 70e9}, None),
    ("ZeRO-3 13B full fine-tune on 8 A100", {"model": None, "params_total": 13e9}, None),
    ("用 LLaMA Factory 微调 7B 模型，4 张 4090", {"model": None, "params_total": 7e9}, None),
    ("llama.cpp 跑 Llama-3-8B Q4_K_M，一张 4090", {"model": "Llama-3-8B", "params_total": 8.03e9}, None),
]


@pytest.mark.parametrize(("text", "want", "unknown"), MODEL_NAMES)
def test_model_names_as_people_type_them(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any], unknown: str | None
) -> None:
    data = ask(capsys, text, want_code=0 if want["params_total"] else 2)  # 2: no size to answer with
    got = {k: data["request"].get(k) for k in want}
    assert got == want
    assert data["interpretation"].get("unknown_model") == unknown


def test_a_family_without_a_size_suggests_its_releases(capsys: pytest.CaptureFixture[str]) -> None:
    main(["ask", "What GPU setup do I need to fine-tune StarCoder?"])
    out = capsys.readouterr().out
    assert "“StarCoder” comes in several sizes (StarCoder2-7B / StarCoder2-3B / StarCoder-15.5B)" in out
    main(["ask", "用 Bloom 做 LoRA 微调，一张 V100 够不够"])
    out = capsys.readouterr().out
    assert "“Bloom”有好几种尺寸（176B / 7.1B / 3B / 1.7B）" in out  # s30 fixc #3: one stem, sizes alone
    assert "没有你上一个问题" not in out  # a new question naming a model, not a lost follow-up


# several cards named: the one the user counts is sized, with its own memory; the others are alternatives
COUNTED_CARD = [
    ("作者说 V100 上大约要 31G。我只有两张 16G 的 T4，能微调 Qwen2.5-1.5B 吗", "T4", 2, 16, "V100-SXM2-32GB"),
    (
        "The paper used a V100; I only have two 16GB T4s. Can I fine-tune Qwen2.5-1.5B?",
        "T4",
        2,
        16,
        "V100-SXM2-32GB",
    ),
    ("一块 24G 的 4090 能 LoRA 微调 Qwen2.5-7B 吗？文档写要 2 个 A100", "RTX-4090", 1, 24, "A100-SXM4-80GB"),
]


@pytest.mark.parametrize(("text", "gpu", "count", "memory", "other"), COUNTED_CARD)
def test_the_counted_card_is_sized(
    capsys: pytest.CaptureFixture[str], text: str, gpu: str, count: int, memory: float, other: str
) -> None:
    data = ask(capsys, text)
    request = data["request"]
    assert (request["gpu"], request["gpu_count"], request["gpu_memory_gib"]) == (gpu, count, memory)
    main(["ask", text])
    out = capsys.readouterr().out
    assert other.split("-")[0] in out  # the other card is still named (an alternative row or note)


# context lengths in every phrasing, and the bits written after GPTQ
CONTEXT_AND_PRECISION = [
    ("想对 Qwen2.5-7B 做 64k 以上长上下文的 LoRA 微调，要几张 A100", {"seq_len": 65536}),
    ("用 16 张 H800 跑 Qwen2.5-7B 的 16K DPO 全参训练要多久", {"seq_len": 16384}),
    ("LoRA fine-tune Qwen2.5-7B on a 16k-length dataset with 4 A100", {"seq_len": 16384}),
    ("32k SFT of Qwen2.5-7B on 8 H100", {"seq_len": 32768}),
    # a count, not a length: 8,000 samples of 512 tokens on average, sequences up to 2,048 (s11 review 9)
    ("用 8K 条数据 SFT Qwen2.5-7B，4 张 A100", {"seq_len": 2048, "num_samples": 8000}),
    ("部署 Qwen2.5-14B-Instruct-GPTQ-Int8，一张 4090", {"precision": "int8"}),
    ("serve Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8 on one L4", {"precision": "int8"}),
    ("serve Qwen2.5-7B-Instruct-GPTQ-Int4 on one L4", {"precision": "int4"}),
]


@pytest.mark.parametrize(("text", "want"), CONTEXT_AND_PRECISION)
def test_context_lengths_and_gptq_bits(
    capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]
) -> None:
    data = ask(capsys, text)
    assert {k: data["request"][k] for k in want} == want


# the job's meaning in words: RL training tunes, 4-bit quantized training is QLoRA, a '-sft' name is a name
MEANING = [
    ("How many H100 did RL training of a 1.5B model take?", {"stage": "finetune"}),
    ("强化学习训练 7B 模型要几张 H100", {"stage": "finetune"}),
    ("Can I do 4-bit quantized training of Yi-34B on 4 RTX 3090?", {"stage": "finetune", "method": "qlora"}),
    ("Yi-34B 用 4bit 量化训练，4 张 24G 的卡能训吗", {"stage": "finetune", "method": "qlora"}),
    ("三张 3090 用 lmdeploy 跑 internlm2-chat-7b-sft 够吗", {"stage": "inference", "algorithm": None}),
    ("Serve internlm2-chat-7b-sft with lmdeploy on two RTX 3090", {"stage": "inference", "algorithm": None}),
    ("Llama-3-8B with TensorRT-LLM on one A100: what throughput should I expect?", {"stage": "inference"}),
    ("Llama-3-8B 用 TensorRT-LLM 在一张 A100 上能跑多快", {"stage": "inference"}),
]


@pytest.mark.parametrize(("text", "want"), MEANING)
def test_the_job_in_words(capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]) -> None:
    data = ask(capsys, text)
    assert {k: data["request"][k] for k in want} == want


# budgets in 万 / 千万 shorthand, in every position and both languages: the amount in yuan
BUDGETS = [
    ("预算1.5kw，预训练 7B 模型 1T token 够吗", 15_000_000),
    ("预算两千万，用 H100 预训练 13B 模型要多久", 20_000_000),
    ("用 H100 预训练 13B 模型 1T token，预算 800w 够吗", 8_000_000),
    ("budget 1.5kw to pretrain a 7B on 1T tokens with H100", 15_000_000),
    ("Pretrain a 13B on 1T tokens with H100s on a 300w budget?", 3_000_000),
]


@pytest.mark.parametrize(("text", "amount"), BUDGETS)
def test_budget_shorthand_is_yuan(capsys: pytest.CaptureFixture[str], text: str, amount: float) -> None:
    data = ask(capsys, text)
    assert (data["request"]["budget"], data["request"]["currency"]) == (amount, "CNY")


def test_a_named_currency_wins_over_the_shorthand(capsys: pytest.CaptureFixture[str]) -> None:
    data = ask(capsys, "budget $2M, how large a model can I pretrain on H100?")
    assert (data["request"]["budget"], data["request"]["currency"]) == (2_000_000, "USD")


# a card outside the catalog keeps its name and memory; a hosted notebook's card is one card
CARDS = [
    (
        "Can 4 MI50 GPUs of 16GB each serve Llama-3.1-8B?",
        {"gpu": "MI50-32GB", "gpu_count": 4, "gpu_memory_gib": 16},  # s48 cat: MI50 in the catalog now
    ),
    ("4 张 16G 的 MI50 能部署 Llama-3.1-8B 吗", {"gpu": "MI50-32GB", "gpu_count": 4, "gpu_memory_gib": 16}),
    ("在 colab 的 T4 上 LoRA 微调 Qwen2.5-1.5B 要多少显存", {"gpu": "T4", "gpu_count": 1}),
    ("LoRA-tune Qwen2.5-1.5B on a Colab T4: how much memory?", {"gpu": "T4", "gpu_count": 1}),
]


@pytest.mark.parametrize(("text", "want"), CARDS)
def test_cards_as_named(capsys: pytest.CaptureFixture[str], text: str, want: dict[str, Any]) -> None:
    data = ask(capsys, text)
    assert {k: data["request"][k] for k in want} == want


# one card's memory stated as "my VRAM is …", in GB or MiB; a fine-tuning tool means fine-tuning
MY_VRAM = [
    ("我的显存只有 8G，能 QLoRA 微调 Baichuan2-7B 吗", 8.0),
    ("显存只有 12000MiB，能 QLoRA 微调 Llama-3-8B 吗", 11.72),
    ("My GPU has 12288 MiB of VRAM; can I QLoRA Llama-3-8B?", 12.0),
    ("My VRAM is only 8GB: can I QLoRA Baichuan2-7B?", 8.0),
]


@pytest.mark.parametrize(("text", "gib"), MY_VRAM)
def test_my_vram_is_one_cards_memory(capsys: pytest.CaptureFixture[str], text: str, gib: float) -> None:
    data = ask(capsys, text)
    assert (data["request"]["gpu_memory_gib"], data["request"]["gpu_count"]) == (gib, 1)
    assert data["interpretation"]["ignored"] == []


TOOL_STAGE = [
    ("Training a 70B on 4 nodes of A100 40GB with LLaMA-Efficient-Tuning: is 40GB enough?", "finetune"),
    ("用 axolotl 训练 Llama-3-8B，8 张 A100 要多久", "finetune"),
    ("用 LLaMA-Factory 的 api.py 部署 Qwen2-7B，单张 4090 够吗", "inference"),
    ("pretrain a 1B model on 100B tokens with LLaMA-Factory on 8 H100", "pretrain"),
]


@pytest.mark.parametrize(("text", "stage"), TOOL_STAGE)
def test_a_fine_tuning_tool_means_fine_tuning(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    assert ask(capsys, text)["request"]["stage"] == stage
