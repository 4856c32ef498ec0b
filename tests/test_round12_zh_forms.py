"""Round 12 of the real questions, Chinese (issue 24; tests/data/real_questions/zh_r12.json): kinds of
writing the r12work half showed the parser missing, each read for its whole axis — pipeline parallelism
under each of its Chinese names and as a degree or a stage count ('管道并行 2', '管线并行度 2', '2 个流水线
阶段', 'PP degree 2', '2 pipeline stages') — tested in both languages through the CLI (``sizing-bot ask
--format json``). The sentences are written for these tests (none is from the real-question corpus)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli_run import ask_in_process, ignored_pairs


def ask(capsys: pytest.CaptureFixture[str], text: str) -> dict[str, Any]:
    return ask_in_process(capsys, text)


def req(data: dict[str, Any], key: str) -> Any:
    return data["request"].get(key)


ignored = ignored_pairs


@pytest.mark.parametrize(
    ("text", "tp", "pp"),
    [
        ("用 vLLM 管道并行 2、张量并行 4，在 8 卡 4090 上部署 Qwen2.5-72B 够吗", 4, 2),
        ("8 张 A800 预训练 Llama-3-70B，管线并行度为 2，张量并行 4，要多久", 4, 2),
        ("16 张 H100 训练 Qwen2.5-72B，切成 4 个流水线阶段，张量并行度 4", 4, 4),
        ("SGLang 流水并行 2 张量并行 2，4 卡 L40S 部署 Qwen2.5-32B", 2, 2),
        ("8 A100s, 2 pipeline stages and TP 4, pre-training Llama-3-70B: how long?", 4, 2),
        ("PP degree 2, TP degree 4 on 8 H100s to serve Qwen2.5-72B", 4, 2),
        ("serving Llama-3.1-70B on 8 L40S with a pipeline parallel degree of 2 and tp 4", 4, 2),
    ],
)
def test_pipeline_parallelism_under_each_of_its_names(
    capsys: pytest.CaptureFixture[str], text: str, tp: int, pp: int
) -> None:
    """A pipeline-parallel degree under its Chinese names (流水线并行, 流水并行, 管道并行, 管线并行), said as
    a degree ('PP degree 2') or as the pipeline's stage count ('2 pipeline stages', '2 个流水线阶段'):
    before, '管道并行 2' and '2 pipeline stages' were named unread and 'TP degree 4' dropped."""
    data = ask(capsys, text)
    assert (req(data, "tp"), req(data, "pp")) == (tp, pp)


@pytest.mark.parametrize(
    ("text", "tool", "params"),
    [
        ("用 X-R1 训练 3B 模型，4 块 3090，训练时 vllm 报显存不足，怎么办", "X-R1", 3e9),
        ("用 VLM-R1 在 8 张 A800 上训练 Qwen2.5-7B，显存够吗", "VLM-R1", 7.61e9),
        ("用 R1-V 在 8 张 A100 上训练一个 2B 模型需要多久", "R1-V", 2e9),
        ("用 open-r1 做 GRPO，在 8 张 H100 上训练 Qwen2.5-1.5B 要多久", "Open-R1", 1.54e9),
        ("Training a 3B model with X-R1 on 4 RTX 3090s, the vLLM step runs out of memory", "X-R1", 3e9),
        ("We train Qwen2.5-7B with Video-R1 on 8 A100s: enough memory?", "Video-R1", 7.61e9),
        ("Fine-tuning a 1.5B model with Search-R1 on 2 L40S, how long per epoch?", "Search-R1", 1.5e9),
    ],
)
def test_a_project_named_after_r1_is_no_deepseek_r1(
    capsys: pytest.CaptureFixture[str], text: str, tool: str, params: float
) -> None:
    """A codebase named after DeepSeek-R1 ('X-R1', 'VLM-R1', 'R1-V', 'open-r1') is an RL post-training tool,
    named as typed: the model sized is the one named, the job a fine-tuning whose vLLM is the rollout engine
    (before, each was sized as serving or training DeepSeek-R1, 671B, and the model named was dropped)."""
    data = ask(capsys, text)
    assert req(data, "model") != "DeepSeek-R1"
    assert req(data, "params_total") == pytest.approx(params, rel=0.02)
    assert req(data, "stage") == "finetune"
    assert (f"training_tool: {tool}", "no_field") in ignored(data)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ("用 8 张 H20 部署 DeepSeek-R1 满血版够吗", "inference"),
        ("ds-r1 在 4 张 H100 上跑得动吗", "inference"),
        ("r1-awq 用 sglang 部署在 8 张 H20 上", "inference"),
        ("用 OpenRLHF 训练完之后，用 vllm 部署 Qwen2.5-7B 需要几张 4090", "inference"),
        ("Serving DeepSeek-R1 on 16 H100s with SGLang: how many requests at once?", "inference"),
        ("部署 Skywork-R1V-38B 要几张 A100", "inference"),
    ],
)
def test_deepseek_r1_itself_and_a_served_model_stay(
    capsys: pytest.CaptureFixture[str], text: str, stage: str
) -> None:
    """Guards: DeepSeek's own names ('DeepSeek-R1', 'ds-r1', 'r1-awq') are still DeepSeek-R1, and a model
    served after an RL run is still served."""
    data = ask(capsys, text)
    assert req(data, "stage") == stage
    if "r1" in text.lower() and "r1v" not in text.lower():
        assert req(data, "model") == "DeepSeek-R1"
    assert ("training_tool: R1-V", "no_field") not in ignored(data)


@pytest.mark.parametrize(
    ("text", "count", "memory"),
    [
        ("8 卡 80G 全参微调 Qwen2.5-14B 要多久", 8, 80),
        ("4 卡 24G 微调 Qwen2.5-7B 够吗", 4, 24),
        ("4 张 24G 做 LoRA 微调 Qwen2.5-14B 行不行", 4, 24),
        ("我们是 2 台 8卡80G 的机器，训练 Qwen2.5-72B", 16, 80),
        ("2 卡 48G 部署 Qwen2.5-32B 够吗", 2, 48),
    ],
)
def test_a_count_then_a_memory_is_each_card_s(
    capsys: pytest.CaptureFixture[str], text: str, count: int, memory: int
) -> None:
    """'8 卡 80G', '4 张 24G': a count of cards then a memory, no card named, is each card's memory (before,
    the memory was left unread and the job sized on the default card, 4 × A100 80GB for '4 卡 24G')."""
    data = ask(capsys, text)
    assert (req(data, "gpu_count"), req(data, "gpu_memory_gib")) == (count, memory)


def test_a_count_then_no_card_s_memory_is_left_to_the_total_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Guard: '2 卡 160G' (no card has 160 GB) is not read as each card's memory."""
    data = ask(capsys, "2 卡 160G 部署 Qwen2.5-72B 够吗")
    assert req(data, "gpu_memory_gib") != 160


@pytest.mark.parametrize(
    ("text", "memory", "seen"),
    [
        ("4 台 8 卡 80G 全量微调 Qwen-14B，每张卡显存 60-70G，正常吗", 80, ("60", "70")),
        ("8 张 80G 的 A800 训练 Qwen2.5-14B，每张卡显存大概 60-70G", 80, ("60", "70")),
        ("4 张 4090 部署 Qwen2.5-32B-AWQ，每张卡显存用到 20-22G", 24, ("20", "22")),
        ("8 A100 80GB, memory per GPU is 60-70GB while fully fine-tuning Llama-3-8B", 80, ("60", "70")),
        ("On 4 nodes of 8x 80GB H100s the VRAM is 60-70GB on each card for Qwen-14B", 80, ("60", "70")),
        ("2 RTX 4090s serving Qwen2.5-14B, memory around 20-22GB per card", 24, ("20", "22")),
    ],
)
def test_a_memory_said_as_a_range_is_measured(
    capsys: pytest.CaptureFixture[str], text: str, memory: int, seen: tuple[str, str]
) -> None:
    """A memory said as a range ('每张卡显存 60-70G', 'memory per GPU is 60-70GB') is measured on the run: a
    card's memory is one exact figure (before, '每张卡显存 60-70G' sized a 60 GB card and dropped the 80)."""
    data = ask(capsys, text)
    assert req(data, "gpu_memory_gib") in (None, memory)
    assert data["report"]["hardware"]["memory_gib"] == pytest.approx(memory, abs=1)
    assert {(v, "observed") for v in seen} <= set(ignored(data))
