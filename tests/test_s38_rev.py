"""Session 38 review (s38-rev): the merge's new readers that misread sentences of our own, fixed, each with
must-read and must-not-misread sentences in both languages where the form exists in both.

- a stage verb negated by an auxiliary or after its subject ('I could not fine-tune it', 'why can I not
  train') is still the job's stage; a stage ruled out ('inference, not training') is still never the job;
- a batch's 'total' that counts something else ('total 8 GPUs', 'total 1000 steps', '共 8 张卡', 'total
  10000 samples') is no global batch, and the GPU count it carries is still read;
- a count of memory parts after the cores ('4 memory controllers', '4 内存条') is no host RAM size;
- 'program size 24MB' holds no memory key ('ram size').
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.real_questions import answer_json


def _req(text: str) -> dict[str, Any]:
    return answer_json(text)["request"]


@pytest.mark.parametrize(
    "text",
    [
        "I could not fine-tune Llama 3 8B on my RTX 4090, it runs out of memory",
        "Why can I not train Qwen2.5 7B on two 3090s?",
        "We did not fine-tune Llama 3 8B before: how many A100 for a full fine-tune?",
    ],
)
def test_negated_verb_keeps_its_stage(text: str) -> None:
    assert _req(text)["stage"] == "finetune"


@pytest.mark.parametrize(
    "text",
    [
        "I'm asking about inference, not training: Llama 3 70B on 2 A100",
        "Llama 3 70B on 2 A100, I am not training, only serving",
        "Llama 3 70B 用 2 张 A100，是推理，不是训练",
    ],
)
def test_stage_ruled_out_is_still_not_the_job(text: str) -> None:
    assert _req(text)["stage"] == "inference"


@pytest.mark.parametrize(
    ("text", "gpus", "batch"),
    [
        ("bs 4, total 8 GPUs, SFT Llama 3 8B on H100", 8, 4),
        ("SFT Qwen2.5 7B on H100, batch 4，共 8 张卡", 8, 4),
        ("batch size 8, total 1000 steps, full fine-tune Qwen2.5 7B on 8 A100", 8, 8),
        ("bs 4, total 2 epochs, SFT Qwen2.5 7B on 8 A100", 8, 4),
    ],
)
def test_total_of_other_things_is_no_global_batch(text: str, gpus: int, batch: int) -> None:
    req = _req(text)
    assert req["global_batch"] is None
    assert (req["gpu_count"], req["batch_size"]) == (gpus, batch)


def test_total_samples_is_the_dataset() -> None:
    req = _req("SFT Qwen2.5 7B on 8 A100, bs 4, total 10000 samples")
    assert (req["global_batch"], req["num_samples"], req["batch_size"]) == (None, 10000.0, 4)


@pytest.mark.parametrize(
    ("text", "micro", "total"),
    [
        ("LoRA Llama 3 8B, batch size 1 (16 in total) on a 4090", 1, 16),
        ("full fine-tune Qwen2.5 7B on 8 H100, bs 32, total 256", 32, 256),
        ("SFT Qwen2.5 7B 用 4 张 A100，batch 4（总共 64）", 4, 64),
    ],
)
def test_batch_total_still_read(text: str, micro: int, total: int) -> None:
    req = _req(text)
    assert (req["batch_size"], req["global_batch"]) == (micro, total)


@pytest.mark.parametrize(
    "text",
    [
        "16 cores and 4 memory controllers, Qwen2.5 7B inference on a 4090",
        "32核，4 内存条，4090 跑 Qwen2.5 7B 推理",
    ],
)
def test_memory_parts_are_no_host_ram(text: str) -> None:
    assert _req(text)["host_memory_gib"] is None


@pytest.mark.parametrize(
    ("text", "gib"),
    [
        ("server with 64 cores, 512 RAM and 4 A100, serve Llama 3 70B", 512.0),
        ("96核、768内存，4 张 A100 部署 Llama 3 70B", 768.0),
    ],
)
def test_cores_then_memory_still_read(text: str, gib: float) -> None:
    assert _req(text)["host_memory_gib"] == gib


def test_size_word_needs_a_memory_word_of_its_own() -> None:
    from bot.parse.size_words import drop_size_word

    assert drop_size_word("program size 24mb") == "program size 24mb"
    assert drop_size_word("vram size 24gb") == "vram 24gb"
    assert drop_size_word("显存大小 24g") == "显存 24g"
