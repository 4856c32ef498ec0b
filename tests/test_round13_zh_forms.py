"""Round 13 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r13.json): kinds of writing
the r13work half showed the parser missing, each read for its whole axis and tested in both languages through
the CLI (``sizing-bot ask --format json``):

- a training codebase named by its repository's name in a tool's place ('用 chatglm_rlhf 训练', '采用
  Pai-Megatron-Patch 微调', '复现 Logic-RL 的 7B 模型', 'with my-sft-trainer'): named as typed, the job a
  fine-tuning, never a model of that name nor the known tool inside the name (bot.parse.codebases);
- a memory said with a verdict and no card ('24G 不够', '24G 够吗', '16G 够不够用', '24GB is not enough',
  'Is 24GB enough'): one card of that memory (bot.parse.memory_forms.NOT_ENOUGH_RE, IS_ENOUGH_RE);
- a model served and trained in one breath ('InternVL2-Llama3-76B 的推理和训练', 'inference and training of
  Llama 3 8B'): the training named is its tuning (bot.parse.stage_pairs.NAMED_MODEL_RE);
- a card's laptop variant named after it ('3050Ti Laptop 4G VRAM', 'RTX 4060 laptop GPU with 8GB VRAM',
  'RTX 4070 Max-Q 8GB'): one card with that memory (bot.parse.hardware_specs.CARD_LAPTOP_RE).

The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("用 chatglm_rlhf 训练 ChatGLM3-6B 的 Reward 模型，单卡 3090 够吗", "chatglm_rlhf"),
        ("一块 4090 能复现 Logic-RL 的 7B 模型吗", "logic-rl"),
        ("基于 my_dpo_trainer 训练 Qwen2.5-7B 需要多少显存", "my_dpo_trainer"),
        ("using my-sft-trainer to fine-tune Llama-3-8B on 2 A100s", "my-sft-trainer"),
        ("Can I reproduce tiny-grpo-zero with a 3B model on one RTX 4090?", "tiny-grpo-zero"),
        ("with foo_rlhf on 8 H100s, training a 7B reward model: enough memory?", "foo_rlhf"),
    ],
)
def test_codebase_named_by_its_repository(capsys: pytest.CaptureFixture[str], text: str, tool: str) -> None:
    """A hyphen- or underscore-joined name with a training word after a tool verb is a training codebase:
    named as typed and as not used, the job a fine-tuning; before, 'chatglm_rlhf' was read as a model,
    'Pai-Megatron-Patch' as Megatron-LM, '复现 Logic-RL 的 7B 模型' as serving a 7B."""
    data = ask(capsys, text)
    assert (f"training_tool: {tool}", "no_field") in ignored_pairs(data)
    assert req(data, "stage") == "finetune"
    assert req(data, "training_tool") != "Megatron-LM"
    assert (data.get("interpretation") or {}).get("unknown_model") is None


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("用 llama-factory 微调 Qwen2-7B，lora_rank 64", "llama-factory"),  # a known tool: its own name
        ("用 simple_grpo 训练 Qwen2.5-7B 要几张卡", "simple_grpo"),  # the tool table names it (simple_GRPO)
        ("用 Qwen2-7B-GRPO 部署需要几张 4090", "qwen2-7b-grpo"),  # a model made with GRPO (a size in it)
        ("lora_rank 设成 64，zero_stage 3，训练 Qwen2-7B", "lora_rank"),  # config keys, no tool verb
        ("fine-tuning with lora_rank 16 on Qwen2-7B", "lora_rank"),  # a key after 'with'
        ("fine-tune Llama-2-7B with lora_r 16 on one A100", "lora_r"),  # LLaMA-Factory-style key
        ("using peft-lora to fine-tune Qwen2-7B", "peft-lora"),  # method words only
        ("用 DeepSeek-R1 部署需要几张 H20", "deepseek-r1"),  # a model (R1 codebases: the tool table's)
    ],
)
def test_not_a_codebase(capsys: pytest.CaptureFixture[str], text: str, word: str) -> None:
    """Known tools, sized model names and config keys are no codebase (never named as one)."""
    data = ask(capsys, text)
    assert (f"training_tool: {word}", "no_field") not in ignored_pairs(data)


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("Yi-6B 推理直接爆显存，24G 不够", 24),
        ("Qwen2-7B 推理，24G 够吗", 24),
        ("Qwen2-7B 推理，16G 够不够用", 16),
        ("部署 Qwen2-7B，12G 完全不够", 12),
        ("Qwen2-7B inference: 24GB is not enough", 24),
        ("Qwen2-7B inference, 16gb wasn't enough", 16),
        ("Is 24GB enough to serve Qwen2-7B?", 24),
    ],
)
def test_memory_with_a_verdict_is_one_card(
    capsys: pytest.CaptureFixture[str], text: str, memory: int
) -> None:
    """A memory with a verdict and no card named is one card of that memory; before, '24G 不够' and '24GB is
    not enough' were named unread and the job sized on the default 80 GB card."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") == memory
    assert req(data, "gpu_count") == 1


@pytest.mark.parametrize(
    "text",
    [
        "内存 64G 不够，Qwen2-7B 推理",
        "Qwen2-7B 推理，64GB of RAM is not enough",
        "权重 15G 够吗，部署 Qwen2-7B",
    ],
)
def test_host_memory_verdict_is_no_card(capsys: pytest.CaptureFixture[str], text: str) -> None:
    """The host's memory or the weights' size with a verdict is no card's memory."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") not in (64, 15)


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("InternVL2-Llama3-76B 的推理和训练分别需要多大的显存？", "finetune"),
        ("Qwen2.5-7B 推理和训练各要几张卡", "finetune"),
        ("inference and training of Llama 3 8B, how many GPUs", "finetune"),
        ("serving or training Qwen2-72B: how many A100s each?", "finetune"),
        ("训练和推理一个 7B 模型需要多少卡", "pretrain"),  # no model named: the weak hint stands
    ],
)
def test_named_model_served_and_trained(capsys: pytest.CaptureFixture[str], text: str, other: str) -> None:
    """Training a model named with its size, asked beside serving it, is its tuning (named as the other
    setup); before it was named as a pre-training."""
    data = ask(capsys, text)
    assert req(data, "stage") == "inference"
    assert (f"stage: {other}", "other_setup") in ignored_pairs(data)


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("3050Ti Laptop 4G VRAM 能跑 Qwen2-1.5B 吗", 4),
        ("RTX 4060 Laptop 8G 显存能跑 Qwen2-7B 吗", 8),
        ("3050Ti 笔记本版 4G 显存，跑 Qwen2-1.5B 够吗", 4),
        ("my RTX 4060 laptop GPU with 8GB VRAM, can it run Qwen2-7B", 8),
        ("RTX 4070 Max-Q 8GB: can it run Qwen2-7B?", 8),
        ("an RTX 3080 Mobile with 16GB, enough for Qwen2-7B at fp16?", 16),
    ],
)
def test_laptop_card_named_after(capsys: pytest.CaptureFixture[str], text: str, memory: int) -> None:
    """A card's laptop variant named after it is the laptop's one card, with the memory said; before,
    'Laptop' after an unknown card left it unread (sized on the default card) and 'laptop GPU with 8GB
    VRAM' was read as a total of unknown cards."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") == memory
    assert req(data, "gpu_count") == 1
    assert "A100" not in str(req(data, "gpu"))
