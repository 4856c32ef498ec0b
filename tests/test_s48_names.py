"""Session 48, part names (issue 24 item 4; docs/design.md §8: an unknown GPU, model or runtime is named as
typed, never swapped). Sentences written for these tests, in both languages:

1. an unknown model is named whole as typed: its size, its active part ('-A3B'), its release words
   ('-Instruct', '-Chat-v2'), its format suffix ('-AWQ', '-GPTQ-Int4', '-FP8') up to the space or punctuation
   that ends it (bot/parse/bare_size.py ``whole_name``); a format suffix is also the weights' precision where
   it is one; a word after a space, a Chinese word, a full stop, or the parts of a file name around a model
   ('finetune_foovlm_lora.sh') are not its name;
2. a name no catalog entry takes ('CodeLlama2-13b', 'Mistral2-7b') is named as typed and its size used; a
   catalog name with a typo the bot corrects ('Qwen2.5-7b-instrcut') stays the catalog model;
3. an architecture word (RWKV, Mamba) is never a runtime or a training tool; ChatRWKV stays a runtime; both
   stages asked apart ('for training? … for inference') → the one not sized named as another setup.
"""

from __future__ import annotations

import pytest

from tests.real_questions import answer_json


# 1 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "name", "active"),
    [
        (
            "Serve Qwen3-Next-80B-A3B-Instruct on 2 H100s with 32k context, how many concurrent requests?",
            "Qwen3-Next-80B-A3B-Instruct",
            3e9,
        ),
        ("Qwen3-Next-80B-A3B 部署要几张 4090", "Qwen3-Next-80B-A3B", 3e9),
        ("部署 Zephyrix-13B-Chat-v2，2 张 A100，50 并发", "Zephyrix-13B-Chat-v2", None),
        ("How much VRAM does Zephyrix-13B-Instruct need for inference?", "Zephyrix-13B-Instruct", None),
        ("微调 Zephyrix-13B-Base 要几张 A100？", "Zephyrix-13B-Base", None),
        (
            "Fine-tune Foo-Linear-48B-A3B-Chat on 8 H100, how long for 1B tokens?",
            "Foo-Linear-48B-A3B-Chat",
            3e9,
        ),
    ],
)
def test_an_unknown_model_is_named_whole_as_typed(question: str, name: str, active: float | None) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["params_active"] == active
    assert f"“{name}”" in answer["reply"]


@pytest.mark.parametrize(
    ("question", "name", "precision"),
    [
        ("Serve Foo-13B-AWQ on one RTX 4090", "Foo-13B-AWQ", "int4"),  # AWQ: 4-bit weights
        ("部署 Foo-13B-GPTQ-Int4 要多少显存", "Foo-13B-GPTQ-Int4", "int4"),
        ("Serve Qwen3-Next-80B-A3B-Instruct-FP8 on 2 H100", "Qwen3-Next-80B-A3B-Instruct-FP8", "fp8"),
        ("用 8 张 B200 部署 Kimi-K2.6-NVFP4", "Kimi-K2.6-NVFP4", "nvfp4"),
    ],
)
def test_a_format_suffix_is_named_and_read(question: str, name: str, precision: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["precision"] == precision


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How much VRAM does Zephyrix-13B need for inference?", "Zephyrix-13B"),
        ("FooBar-42B 模型部署要几张卡", "FooBar-42B"),
        ("部署 FooBar-42B模型要几张卡", "FooBar-42B"),
        ("Serve FooBar-42B. How many H100 for 20 users?", "FooBar-42B"),
        ("Serve FooBar-42B, 20 users, on H100s", "FooBar-42B"),
        ("部署 FooBar-42B，20 个用户并发", "FooBar-42B"),
        ("I run python train_barchat.py on 4 A100s, how much memory per GPU?", "barchat"),
        ("用 llama3_lora_sft.yaml 微调，4 张 4090 够吗？", "llama3"),
    ],
)
def test_words_after_an_unknown_model_are_not_its_name(question: str, name: str) -> None:
    assert answer_json(question)["interpretation"]["unknown_model"] == name


# 2 ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "name", "params"),
    [
        ("用 3 张 3090 LoRA 微调 CodeLlama2-13b，batch 1 还是显存不足", "CodeLlama2-13b", 13e9),
        ("微调 Mistral2-7b 要几张 4090", "Mistral2-7b", 7e9),
        ("Fine-tune Mistral2-7b on 2 A100, how long for 10k samples?", "Mistral2-7b", 7e9),
        ("How much memory to serve CodeLlama2-13b?", "CodeLlama2-13b", 13e9),
        ("部署 Baichuan3-13B 需要多少显存", "Baichuan3-13B", 13e9),
    ],
)
def test_a_name_no_catalog_entry_takes_is_named(question: str, name: str, params: float) -> None:
    answer = answer_json(question)
    assert answer["request"]["model"] is None
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["params_total"] == params


@pytest.mark.parametrize(
    "question",
    [
        "Qwen2.5-7b-instrcut 部署要几张卡",
        "serve Qwen2.5-7b-instrcut on one 4090",
        "部署 Qwen2.5-7B-Instruct-AWQ",
    ],
)
def test_a_catalog_name_with_a_typo_or_suffix_stays_corrected(question: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["model"] == "Qwen2.5-7B"
    assert answer["interpretation"]["unknown_model"] is None


# 3 ---------------------------------------------------------------------------------------------------
def _items(answer: dict) -> list[str]:
    return [i["text"] for i in answer["interpretation"]["ignored"] or []]


@pytest.mark.parametrize(
    ("question", "name", "stage"),
    [
        ("How much VRAM does RWKV need for inference?", "RWKV", "inference"),
        ("How much VRAM does Mamba need for training?", "Mamba", "pretrain"),
        ("How much memory does xLSTM need for pretraining on 8 H100?", "xLSTM", "pretrain"),
        ("RWKV 推理需要多少显存", "RWKV", "inference"),
        ("Mamba 推理要多少显存", "Mamba", "inference"),
        ("RWKV 模型微调需要几张 4090？", "RWKV", "finetune"),
    ],
)
def test_an_architecture_is_the_model_never_a_runtime(question: str, name: str, stage: str) -> None:
    answer = answer_json(question)
    assert answer["interpretation"]["unknown_model"] == name
    assert answer["request"]["stage"] == stage
    assert not any(t.startswith(("runtime:", "training_tool:")) for t in _items(answer))


@pytest.mark.parametrize(
    ("question", "runtime", "model"),
    [
        ("ChatRWKV 跑 14B 模型需要多少显存", "ChatRWKV", None),
        ("用 ChatRWKV 部署 RWKV-7 14B 要几张卡", "ChatRWKV", "RWKV-7 14B"),
        ("How much VRAM does RWKV-Runner need to serve a 7B model?", "RWKV-Runner", None),
        ("用 RWKV-Runner 跑 7B 模型要多少显存", "RWKV-Runner", None),
    ],
)
def test_a_program_named_after_an_architecture_stays_a_runtime(question: str, runtime: str, model) -> None:
    answer = answer_json(question)
    assert f"runtime: {runtime}" in _items(answer)
    assert answer["interpretation"]["unknown_model"] == model


@pytest.mark.parametrize(
    ("question", "sized", "other"),
    [
        (
            "How much VRAM does RWKV need for training? Are we talking 1060 size (6gb), 3090 size (20gb), or "
            "a6000+ size (40+gb)? Same question for inference. And can it run on CPU reasonably?",
            "inference",
            "pretrain",
        ),
        ("How much VRAM does Mamba need for fine-tuning? And for inference?", "finetune", "inference"),
        ("Fine-tune Llama-3-8B on 2 A100. And for inference, how many?", "finetune", "inference"),
        ("训练 RWKV 需要多少显存？推理呢？", "inference", "pretrain"),
        ("训练 Mamba 要多少显存？部署呢？", "inference", "pretrain"),
    ],
)
def test_both_stages_asked_apart_name_the_other(question: str, sized: str, other: str) -> None:
    answer = answer_json(question)
    assert answer["request"]["stage"] == sized
    assert f"stage: {other}" in _items(answer)


@pytest.mark.parametrize(
    "question",
    [
        "How much memory for inference of the model I fine-tuned?",
        "How much VRAM does Llama-3-8B need for inference after training?",
        "How much VRAM do I need for training data loading and inference on one A100?",
        "训练好的 Mamba 模型推理要多少显存",
    ],
)
def test_one_stage_with_the_other_as_its_past_names_no_other(question: str) -> None:
    assert not any(t.startswith("stage:") for t in _items(answer_json(question)))
