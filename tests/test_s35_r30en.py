"""Session 35, round 30 English (issue 24): readers for what round 30's working half missed, each as the
general way people write it, with sentences of our own (must read and must not misread).

- vLLM's KV-cache start-up error pasted ("the model's max seq len (8192) is larger than the maximum number
  of tokens that can be stored in KV cache (6048)"): the engine's limit is the served ``max_model_len``,
  and in a training question (an RL rollout engine's) it is named as no field; the tokens the cache held
  and the log's "# GPU blocks" are named as observed, never left unread (bot.parse.configs.limits).
- Every layer on the GPU with its count ("all 81/81 layers offloaded to the GPUs", "81/81 层全部放到显卡上"):
  the count is the ``-ngl`` said, kept as ``gpu_layers`` (llama.cpp counts the output layer: every one).
- A model name glued to a family's word after the project's own ("TinyLLaVA", "CCA-LLaVA", "Video-LLaMA"):
  a model of its own, named as typed (bot.parse.coined_names), never a tool ("ExLlamaV2", "llama.cpp").
- A run said to go "without (any) problems/issues" is a setup that ran (bot.parse.structure's tried cues,
  as "no problems" and "没问题" were): its count is named when another card count is the one asked about.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _ask(text: str) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    answer = answer_json(text)
    interpretation = answer["interpretation"]
    return answer["request"], interpretation, interpretation.get("ignored") or []


def _named(ignored: list[dict[str, Any]], text: str, reason: str) -> bool:
    return any(item["text"] == text and item["reason"] == reason for item in ignored)


# --- vLLM's KV-cache error ---------------------------------------------------------------------------

KV_ERROR = (
    "the model's max seq len (32768) is larger than the maximum number of tokens that can be stored in "
    "KV cache (13360)"
)


def test_kv_error_in_a_serving_question_is_the_engine_limit_and_the_cache_held() -> None:
    request, _, ignored = _ask(f"Serving Qwen2-7B with vLLM on one T4 fails: ValueError: {KV_ERROR}.")
    assert request["stage"] == "inference"
    assert request["max_model_len"] == 32768
    assert _named(ignored, "KV cache: 13360 tokens", "observed")
    assert not any(item["reason"] == "unread" for item in ignored)


def test_kv_error_pasted_into_a_chinese_question() -> None:
    request, _, ignored = _ask(f"用 vLLM 部署 Qwen2-7B，一张 T4 报错 {KV_ERROR}，怎么办？")
    assert request["max_model_len"] == 32768
    assert _named(ignored, "KV cache: 13360 tokens", "observed")


def test_kv_error_in_a_training_question_names_the_rollout_engine_limit() -> None:
    request, _, ignored = _ask(
        "Running Llama-3 70B PPO with OpenRLHF, vLLM fails: '# GPU blocks: 378', the model's max seq len "
        "(8192) is larger than the maximum number of tokens that can be stored in KV cache (6048)."
    )
    assert request["stage"] == "finetune" and request["algorithm"] == "ppo"
    assert request.get("max_model_len") is None
    assert request["seq_len"] != 8192  # the rollout engine's limit is no training sequence
    assert _named(ignored, "max_model_len: 8192", "no_field")
    assert _named(ignored, "KV cache: 6048 tokens", "observed")
    assert _named(ignored, "GPU blocks: 378", "observed")


def test_a_kv_cache_said_without_the_error_is_not_read_as_it() -> None:
    _, _, ignored = _ask("Serving Llama-3-8B with vLLM on an L4, the KV cache is full at 8192 tokens")
    assert not any(item["text"].startswith("KV cache:") for item in ignored)


# --- every layer on the GPU, counted ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I have 4 A30 cards with Ollama. deepseek-r1-70b runs with all 81/81 layers offloaded to the GPUs.",
        "Ollama 跑 deepseek-r1-70b，4 张 A30，81/81 层全部放到显卡上，速度还行",
    ],
)
def test_every_layer_on_the_gpu_keeps_its_count(text: str) -> None:
    request, _, ignored = _ask(text)
    assert request["gpu_layers"] == 81
    assert request["offload"] is False
    assert not any(item["reason"] == "unread" and item["text"] == "81" for item in ignored)


def test_a_partial_split_is_still_the_layers_on_the_gpu() -> None:
    request, _, _ = _ask("llama.cpp with Llama-2-70b q4_0 on a 3090, 40/81 layers on the GPU")
    assert request["gpu_layers"] == 40 and request["offload"] is True


def test_a_fraction_that_is_no_layer_count_is_not_read_as_layers() -> None:
    request, _, _ = _ask(
        "llama.cpp, Llama-2-70b q4_0 on a 3090, everything fits on the GPU, 2/3 of the time is prefill"
    )
    assert request.get("gpu_layers") is None


# --- a name glued to a family's word ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("How long does each TinyLLaVA pretrain and finetune take on 8x A100 (40G)?", "TinyLLaVA"),
        ("Fine-tuning (instruction tuning) CCA-LLaVA on 3X3090 reports out of memory.", "CCA-LLaVA"),
        ("Can I fine-tune Video-LLaMA on 2 A100 80GB?", "Video-LLaMA"),
        ("在 3 张 3090 上微调 CCA-LLaVA 显存不够", "CCA-LLaVA"),
        ("TinyLLaVA 预训练和微调在 8 张 A100 40G 上要多久？", "TinyLLaVA"),
    ],
)
def test_a_name_glued_to_a_family_word_is_named_as_typed(text: str, name: str) -> None:
    request, interpretation, _ = _ask(text)
    assert interpretation["unknown_model"] == name
    assert request.get("model") is None  # not sized as the family


@pytest.mark.parametrize(
    "text",
    [
        "ExLlamaV2 on two 3090s, how fast for a 70B at 4.65bpw?",
        "Ollama on a 4090, how much VRAM for a 32B?",
        "llama.cpp on a 3060 with a 13B q4_K_M",
        "Using LLaMA-Factory to fine-tune a 7B on one 4090",
        "LlamaIndex with a 7B on a 3090, enough VRAM?",
        "fine-tuning tinyllava on a 3090",  # all in lower case: no proper name written
    ],
)
def test_software_and_lower_case_words_are_no_glued_name(text: str) -> None:
    _, interpretation, _ = _ask(text)
    assert interpretation["unknown_model"] is None


@pytest.mark.parametrize(
    "text",
    [
        "现在有四块 3080Ti，用 Chinese-Vicuna 推理 7B 可以跑起来，换成 13B 推理报 oom。",
        "I have four 3080Ti; using Chinese-Vicuna to serve 13B runs out of memory.",
    ],
)
def test_a_glued_name_beside_a_size_is_left_to_the_sized_reader(text: str) -> None:
    """'用 Chinese-Vicuna 推理 13B': the name and the size asked with it (bot.parse.bare_size) are the model
    (round 24's zh24-020): the name as typed, sized at the size of the setup asked about."""
    request, interpretation, _ = _ask(text)
    assert interpretation["unknown_model"] == "Chinese-Vicuna"
    assert request["params_total"] == 13e9


# --- a run said to go 'without problems' is a setup that ran, not the one asked about ------------------


@pytest.mark.parametrize(
    ("text", "ran"),
    [
        (
            "The gpt-oss-20b fine-tuning demo runs without problems on two or four H100 cards, but the "
            "tutorial suggests it should run on a single H100. Is a memory trick left out?",
            "two",
        ),
        (
            "Fine-tuning gpt-oss-20b runs without any issues on 4 H100 cards, but it should fit on one H100.",
            "4",
        ),
    ],
)
def test_a_count_that_ran_without_problems_is_named_and_the_single_card_sized(text: str, ran: str) -> None:
    request, _, ignored = _ask(text)
    assert request["gpu_count"] == 1
    assert _named(ignored, ran, "other_setup")


def test_one_setup_said_to_run_without_problems_keeps_its_count() -> None:
    request, _, _ = _ask("Serving Llama-3-8B on 2 L4 without problems; how many users can it take?")
    assert request["gpu_count"] == 2
