"""Session 48, round 44 en (issue 24): readers for what r44work en missed at its freeze, each tested on
sentences of our own (must-read and must-not-misread), in both languages where the other has the phrasing.

- a project built on MLX and named after it ('in mlx-llm', 'with mlx-vlm';
  github.com/riccardomusmeci/mlx-llm, github.com/Blaizzy/mlx-vlm): named as typed, never swapped for MLX; MLX
  itself, ml-explore's mlx-examples, the mlx-community checkpoints and a '-MLX-4bit' checkpoint stay MLX
  (bot.parse.unknown_tools.MLX_PROJECT_RE);
- FastChat (github.com/lm-sys/FastChat: fastchat/train/train.py fine-tunes, fastchat.serve serves) a
  fine-tuning tool when a training word is said and no serving word ('How can I train with a 3090 in
  FastChat?'); running or serving with it stays serving (bot.parse.stack_words.SERVE_AND_TUNE_TOOLS);
- a named fine-tune of a known base with its size ('vicuna-13b', bot.parse.fine_tunes.FAMILIES) trained: a
  fine-tuning, as 'train Qwen2.5-32B' is; a pre-training said with its scale or stage word stays one
  (bot.parse.fine_tunes.RELEASE_RE in bot.parse.stage_hints.tuning_only_stage);
- a process noun between the job and 'of' ('the fine-tuning process of LSceneLLM', 'the training stage of
  FooNet'): the model named as typed (bot.parse.verb_names.AFTER_JOB_RE); never 'the fine-tuning process of my
  own data';
- ChatRWKV (github.com/BlinkDL/ChatRWKV) named as a serving engine not modelled.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], dict[str, Any], list[str | None]]:
    answer = answer_json(text)
    interpretation = answer.get("interpretation") or {}
    return answer["request"], interpretation, [i.get("text") for i in interpretation.get("ignored") or []]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        (
            "With Llama 3 8b instruct in mlx-llm on an M1 with 32G, 17,000 input tokens run out of memory.",
            "runtime: mlx-llm",
        ),
        ("Serving Qwen2-VL-7B with mlx-vlm on an M2 Max 64GB: how long a context fits?", "runtime: mlx-vlm"),
        ("用 mlx-vlm 在 M2 Ultra 192G 上部署 Qwen2-VL-7B，上下文能开多大？", "runtime: mlx-vlm"),
    ],
)
def test_a_project_named_after_mlx_is_named_as_typed(text: str, typed: str) -> None:
    _, _, named = _ask(text)
    assert typed in named
    assert "runtime: MLX" not in named


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Mistral 7B on an M1 Pro with 16 GB using mlx-examples gets stuck generating.", "runtime: MLX"),
        (
            "lmstudio-community/Qwen3.8-27B-MLX-4bit on a Mac Studio M1 Max 64GB: 16384 context?",
            "runtime: MLX",
        ),
        ("Fine-tuning a 7B with LoRA in MLX on a Mac with 64GB.", "training_tool: mlx-lm"),
        ("在 M2 Ultra 192G 上用 MLX 部署 Qwen2.5-32B，32k 上下文够吗？", "runtime: MLX"),
    ],
)
def test_mlx_itself_stays_mlx(text: str, typed: str) -> None:
    _, _, named = _ask(text)
    assert typed in named
    assert not any(n and n.startswith("runtime: mlx-") and n != "runtime: mlx-lm" for n in named)


@pytest.mark.parametrize(
    "text",
    [
        "How can I train with a GPU 3090 in FastChat? I get OutOfMemoryError: CUDA out of memory.",
        "Training Vicuna-7B with FastChat on 4 A100 40GB runs out of memory.",
        "在 FastChat 里用一张 3090 训练会 OOM，怎么办？",
    ],
)
def test_training_in_fastchat_is_a_fine_tuning(text: str) -> None:
    request, _, _ = _ask(text)
    assert request["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "Running vicuna-13b with FastChat on two RTX 3070 GPUs with 8GB each runs out of memory.",
        "I train vicuna with FastChat and then serve it with FastChat on an A100: how many users?",
        "用 FastChat 部署 vicuna-13b，一张 A100 40G 能支持多少并发？",
    ],
)
def test_serving_with_fastchat_stays_serving(text: str) -> None:
    request, _, _ = _ask(text)
    assert request["stage"] == "inference"


@pytest.mark.parametrize(
    "text",
    [
        "I have tried training vicuna-13b on 8xA100(40G), but it results in an OOM error.",
        "Can I train wizardlm-13b on two RTX 4090s?",
        "我在 8 张 A100 40G 上训练 vicuna-13b 会 OOM。",
    ],
)
def test_training_a_named_fine_tune_is_a_fine_tuning(text: str) -> None:
    request, _, _ = _ask(text)
    assert request["stage"] == "finetune"
    assert request["model"] in ("Llama-2-13B", "LLaMA-13B")  # FAMILIES: Vicuna v1.5 / WizardLM → Llama 2 13B


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("Pre-training a 13B model from scratch, the size of vicuna-13b, on 64 A100s: how long?", "pretrain"),
        ("Training a 13B model on 1T tokens with 64 H100s, like vicuna-13b's base.", "pretrain"),
        ("Serving vicuna-13b on one A100 40G: how many users at once?", "inference"),
        ("从零预训练一个 13B 模型（和 vicuna-13b 一样大），64 张 A100 要多久？", "pretrain"),
    ],
)
def test_a_named_fine_tune_beside_another_job_keeps_that_job(text: str, stage: str) -> None:
    request, _, _ = _ask(text)
    assert request["stage"] == stage


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("How much GPU memory is needed for the fine-tuning process of LSceneLLM?", "LSceneLLM"),
        ("How much memory does the training stage of FooNet take on 8 A100s?", "FooNet"),
        ("LSceneLLM 的微调过程需要多少显存？", "LSceneLLM"),
    ],
)
def test_a_process_noun_between_the_job_and_its_model(text: str, typed: str) -> None:
    _, interpretation, _ = _ask(text)
    assert interpretation["unknown_model"] == typed


@pytest.mark.parametrize(
    "text",
    [
        "How much GPU memory is needed for the fine-tuning process of my own data?",
        "The training process of the model crashed on 4 A100s; how much memory does it need?",
        "我自己数据的微调过程需要多少显存？",
    ],
)
def test_a_process_of_no_name_names_no_model(text: str) -> None:
    _, interpretation, _ = _ask(text)
    assert interpretation["unknown_model"] is None


@pytest.mark.parametrize(
    "text",
    [
        "There are 2 GPUs on my PC but ChatRWKV can't load the model on both: can I run the 14B model?",
        "用 ChatRWKV 在一张 3090 上跑 7B 模型需要多少显存？",
    ],
)
def test_chatrwkv_is_named_as_an_engine(text: str) -> None:
    _, _, named = _ask(text)
    assert "runtime: ChatRWKV" in named


def test_chatting_names_no_chatrwkv() -> None:
    _, _, named = _ask("I chat with my RWKV model on 2 RTX 3090s: how much memory for a 14B?")
    assert "runtime: ChatRWKV" not in named
