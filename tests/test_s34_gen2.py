"""Session 34, part gen2 (branch s34-gen2, issue 24): the largest kinds of working misses left, each read as a
way of writing in both languages and tested through the CLI (``sizing-bot ask --format json``):

- **a version typed apart after a model's name** ('MiniCPM-V 2.6', 'FooChat v2', 'MiniCPM-Llama3-V 2.5 做
  LoRA 微调'): part of the name (bot.parse.model_names.spaced_version), never a quantity ('FooChat 2.5
  hours') nor a tool's version ('vLLM 0.6', 'CUDA 12.1', 'Ubuntu 22.04', 'Transformers 4.37');
- **a bare version after a size** ('OpenLLaMA 3B v2'): the version of the name before the size, never a
  model called 'v2'; one name typed twice ('OpenLLaMA 3B (open_llama_3b_v2)') is one model;
- **a hyphen-joined name after a preposition opening a sentence** ('In Video-LLaVA …', 'For Foo-VL, …',
  '在 Foo-VL 中'): the model named as typed; never 'In Use-case', 'With Flash-Attention 2',
  'In DeepSpeed-Chat', 'In RTX-4090 terms' (bot.parse.verb_names.PREP_JOINED_RE);
- **a model inside a job script's file name** ('sh finetune_cogagent_lora.sh', 'python train_foovlm.py'):
  named as typed; never a plain word or a tool ('finetune_lora.sh', 'train_model.py', 'run_deepspeed.sh')
  (bot.parse.script_names);
- **a training run by its settings alone, of a named model no catalog has** (a batch size and gradient
  accumulation of 'Video-LLaVA'): a fine-tuning of that model, as a 'train' of a release is; a size said
  alone, training tokens, 'from scratch' or a 'train' / '训练' word (a release's training reproduced) leave
  the stage as it was
  (bot.parse.stage_steps.StageSteps.named_model_trained).

Each reader has sentences it must read and sentences it must leave as they were. The sentences are written
for these tests (none is from the real-question corpus)."""

from __future__ import annotations

import json
from typing import Any

import pytest


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    """The JSON answer of ``sizing-bot ask --format json TEXT``."""
    from bot.cli import main

    assert main(["ask", "--format", "json", text]) in (0, 2)
    return json.loads(capsys.readouterr().out)


def unknown(answer: dict[str, Any]) -> str | None:
    return answer["interpretation"]["unknown_model"]


def ignored(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(i["text"], i["reason"]) for i in answer["interpretation"]["ignored"]]


# -- a version typed apart -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("MiniCPM-V 2.6 部署要几张卡", "MiniCPM-V 2.6"),
        ("How much VRAM does MiniCPM-V 2.6 need?", "MiniCPM-V 2.6"),
        ("fine-tune FooChat v2 on two 4090s", "FooChat v2"),
        ("FooChat 1.5 微调要多少显存", "FooChat 1.5"),
        ("MiniCPM-Llama3-V 2.5 做 LoRA 微调，两张 4090", "MiniCPM-Llama3-V 2.5"),
    ],
)
def test_version_typed_apart_is_the_names(capsys: pytest.CaptureFixture[str], text: str, name: str) -> None:
    answer = ask(capsys, text)
    assert unknown(answer) == name
    assert not [t for t, _ in ignored(answer) if t == name.rsplit(" ", 1)[1].lstrip("v")]  # not 'unread'


def test_version_typed_apart_keeps_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "MiniCPM-Llama3-V 2.5 做 LoRA 微调，两张 4090")
    assert answer["request"]["method"] == "lora"
    assert answer["request"]["stage"] == "finetune"
    assert answer["request"]["gpu_count"] == 2


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("fine-tune FooChat 2.5 hours on 4090", "FooChat"),  # a quantity, not a version
        ("CUDA 12.1 做 LoRA 微调要多少显存", None),
        ("用 vLLM 0.6 部署要几张卡", None),
        ("Ubuntu 22.04 部署要几张 4090", None),
        ("PyTorch 2.1 训练要几张卡", None),
        ("Transformers 4.37 微调 FooLM 要多少显存", "FooLM"),
    ],
)
def test_tool_versions_and_quantities_are_no_names(
    capsys: pytest.CaptureFixture[str], text: str, name: str | None
) -> None:
    assert unknown(ask(capsys, text)) == name


def test_catalog_release_with_a_version_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "用 vLLM 0.6 部署 Qwen2.5-7B")
    assert answer["request"]["model"] == "Qwen2.5-7B"
    assert unknown(answer) is None


# -- a bare version after a size; one name typed twice --------------------------------------------------


def test_bare_version_after_size_is_no_name(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(
        capsys, "If I want to fine-tune OpenLLaMA 3B v2 (open_llama_3b_v2), how much VRAM will I need?"
    )
    assert unknown(answer) == "OpenLLaMA 3B"
    assert answer["request"]["params_total"] == 3e9
    # the path names the same model: never listed as another setup
    assert not [t for t, r in ignored(answer) if t.startswith("model:")]


def test_name_after_size_still_read(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "fine-tune the 7B LLaVA on A100")
    assert unknown(answer) == "LLaVA 7B"
    assert answer["request"]["params_total"] == 7e9


# -- a hyphen-joined name after a preposition -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (
            "In Video-LLaVA one video is sampled as 8 images. How much VRAM for inference on one A100?",
            "Video-LLaVA",
        ),
        ("For Qwen-VL-Chat, how much VRAM does inference need?", "Qwen-VL-Chat"),
        ("在 Foo-VL 中，一张图片占多少 token？微调要几张 A100", "Foo-VL"),
        ("What does it take? In Bar-Omni, audio and video share one model.", "Bar-Omni"),
    ],
)
def test_name_after_preposition(capsys: pytest.CaptureFixture[str], text: str, name: str) -> None:
    assert unknown(ask(capsys, text)) == name


@pytest.mark.parametrize(
    "text",
    [
        "In Use-case terms, how much VRAM for a 7B?",
        "With Flash-Attention 2, how much VRAM does a 7B need?",
        "In DeepSpeed-Chat, how many A100s for RLHF?",
        "In RTX-4090 terms, how many cards for a 70B?",
        "In Python, how much memory does a 7B need for inference?",
        "With DeepSpeed ZeRO-3, how much memory does a 7B full fine-tune need on 8 A100?",
    ],
)
def test_preposition_before_tool_card_or_word_names_no_model(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert unknown(ask(capsys, text)) is None


# -- a model inside a job script's file name -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("用官方示例 sh finetune_foovlm_lora.sh 在 8 卡 A10 上微调，出现 OOM", "foovlm"),
        ("I run python train_barchat.py on 4 A100s, how much memory per GPU?", "barchat"),
    ],
)
def test_model_in_script_name(capsys: pytest.CaptureFixture[str], text: str, name: str) -> None:
    answer = ask(capsys, text)
    assert unknown(answer) == name
    assert answer["request"]["model"] is None


@pytest.mark.parametrize(
    "text",
    [
        "bash finetune_lora.sh on 2 4090s OOMs",
        "python train_tokenizer.py then train_model.py on 8 A100",
        "sh run_deepspeed.sh 在 8 卡上训练",
        "bash train_full.sh 在 4 卡 A100 上 OOM",
    ],
)
def test_script_name_without_a_model(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert unknown(ask(capsys, text)) is None


def test_catalog_model_beside_a_script_is_sized(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "sh finetune_foovlm_lora.sh 微调 Qwen2.5-7B，8 卡 A10")
    assert answer["request"]["model"] == "Qwen2.5-7B"
    assert unknown(answer) is None


# -- the stage of a named model's training run ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "In Video-LLaVA one video is 2048 visual tokens. You used a batch size of 256 with 4 x A100 80G,"
        " so how much gradient accumulation did you use?",
        "FooLM-7B, global batch 512, gradient accumulation 8, full recompute on 64 H100: memory per GPU?",
    ],
)
def test_named_model_training_run_is_a_fine_tuning(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "A 7B with global batch 512 and gradient accumulation 8 on 64 H100, full recompute: memory?",
        "FooLM-7B, global batch 512, gradient accumulation 8, 2T tokens on 64 H100: how long?",
        "从头训练 FooLM-7B，8 张 H100 要多久",
        "训练一个 7B 模型，global batch 512，8 张 H100，显存够吗",
        "We want to reproduce the Foo-LM training, global batch 512 on 8 H100: how many hours?",
        "复现 Foo-LM 的训练，global batch 512，4 卡 A100 够吗",
    ],
)
def test_size_alone_tokens_or_scratch_stay_pretraining(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["stage"] == "pretrain"


def test_gradient_accumulation_in_chinese_is_a_training_word(capsys: pytest.CaptureFixture[str]) -> None:
    # the Chinese twin of 'gradient accumulation' (bot.parse.lexicon.TRAIN_RE): a training run, never serving
    answer = ask(capsys, "Foo-VL 的 batch size 256、梯度累积 4，4 张 A100 80G 每张要多少显存？")
    assert answer["request"]["stage"] == "finetune"
    assert unknown(answer) == "Foo-VL"


def test_serving_without_a_training_word_stays_serving(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        ask(capsys, "Foo-VL 的 batch size 16，4 张 A100 80G 部署每张要多少显存？")["request"]["stage"]
        == "inference"
    )


# -- a name, its stage, then a list of sizes -----------------------------------------------------------


def test_sizes_listed_after_a_stage_phrase_are_the_names(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "Foo-LLaMA 微调阶段 7B 和 13B 各要几张 A100？")
    assert unknown(answer) == "Foo-LLaMA 7B"
    assert answer["request"]["params_total"] == 7e9
    assert ("model: Foo-LLaMA 13B", "other_setup") in ignored(answer)


def test_one_size_after_a_stage_phrase(capsys: pytest.CaptureFixture[str]) -> None:
    answer = ask(capsys, "Bar-GLM 预训练阶段 13B 要几张 A100？")
    assert unknown(answer) == "Bar-GLM 13B"
    assert answer["request"]["params_total"] == 13e9


@pytest.mark.parametrize(
    "text",
    [
        "Bar-GLM 预训练阶段用了 16 张 A100，要多久？",  # a count, not a size
        "Bar-GLM 和 7B、13B 的模型比，预训练要几张 A100？",  # no stage phrase between
    ],
)
def test_no_size_list_without_the_stage_phrase(capsys: pytest.CaptureFixture[str], text: str) -> None:
    answer = ask(capsys, text)
    assert not (unknown(answer) or "").endswith("13B")
    assert not [t for t, _ in ignored(answer) if t.startswith("model: Bar-GLM ")]


# -- a second card of the same kind, named apart ---------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "PPO of Llama-2-7B OOMs on an A100, with the reward model on a separate A100. How much memory?",
        "I fine-tune Qwen2.5-7B on an A100 and keep the reward model on another A100: does it fit?",
        "Qwen2.5-7B 全参微调在一张 A100 上 OOM，奖励模型放在另一张 A100 上，要多少显存？",
    ],
)
def test_another_card_of_the_same_kind_adds_one(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["gpu_count"] == 2


@pytest.mark.parametrize(
    "text",
    [
        "Qwen2.5-7B 在一张 A100 上推理，换成另一张 A100 呢？",  # switched to, not added
        "Serving Llama-2-7B on an A100; would another A100 instead help?",
        "Serving Llama-2-7B on an A100 with another 4 GB free",  # memory, not a card
        "Qwen2.5-7B 在一张 A100 上推理，另一张 H100 上跑 embedding，要多少显存？",  # another kind of card
    ],
)
def test_card_switched_or_of_another_kind_adds_none(capsys: pytest.CaptureFixture[str], text: str) -> None:
    assert ask(capsys, text)["request"]["gpu_count"] == 1
