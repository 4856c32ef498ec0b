"""Session 50's fresh-user trial (/work/notes/s50/trial_report.md), its fixes, each in both languages with
must-read and must-not-misread sentences of our own:

1. 'Will it start?' on a pasted vLLM command is answered for the command as launched: its 16-bit weights,
   never FP8 swapped in (estimator.serving_capacity._fp8_holds_count; bot.core.start_only);
2. 'how many machines / servers / nodes' names the machines in a serving headline (``machines_asked``,
   bot.parse.machines_asked);
3. 'how much GPU memory does the KV cache take' leads with the memory, as its Chinese twin
   (bot.parse.memory_asked.ASKS_MEMORY_FOR_RE)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.cli import ask


def _json(question: str) -> dict[str, Any]:
    out, _ = ask(question, None, "json")
    return json.loads(out)


def _text(question: str) -> str:
    return ask(question, None, "text")[0]


# 1. a start question keeps the command's own weights --------------------------------------------------

START_EN = (
    "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 32768 --gpu-memory-utilization 0.85 "
    "--max-num-seqs 64 on one L4, will it start?"
)
START_ZH = (
    "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 32768 --gpu-memory-utilization 0.85 "
    "单卡 L4 能启动吗？"
)


@pytest.mark.parametrize("question", [START_EN, START_ZH])
def test_start_question_keeps_16_bit_weights(question: str) -> None:
    """16.1 GB of bf16 weights + 1.1 GB workspace leave 0.85 × 22.5 GiB − 16 GiB ≈ 3.1 GiB of KV cache on
    one L4, 25,776 tokens: vLLM refuses max_model_len 32,768. Before, the answer swapped in FP8 weights and
    said 'yes'."""
    a = _json(question)
    assert a["request"]["start_asked"] is True
    assert a["request"]["precision"] in (None, "bf16")
    assert a["report"]["feasible"] == "no"
    inf = a["report"]["inference"]
    assert inf["weight_format"] == "bf16"
    assert inf["kv_capacity_tokens"] < 32768


def test_start_question_no_and_no_load_in_text_en() -> None:
    text = _text(START_EN)
    head = text.splitlines()[0]
    assert "bf16" in head and "no — vLLM will not start" in head
    assert "fp8" not in head.lower() and "25,776" in head


def test_start_question_no_in_text_zh() -> None:
    head = _text(START_ZH).splitlines()[0]
    assert "bf16" in head and "无法启动" in head


@pytest.mark.parametrize(
    "question",
    [
        "Will vLLM start Llama-3.1-8B with max_model_len 8192 on one L4?",
        "单卡 L4 用 vLLM 跑 Llama-3.1-8B，max_model_len 8192 能启动吗？",
    ],
)
def test_start_question_that_starts_still_yes(question: str) -> None:
    """Must not misread: a length that starts in bf16 stays a yes in bf16."""
    a = _json(question)
    assert a["report"]["feasible"] != "no"
    assert a["report"]["inference"]["weight_format"] == "bf16"


@pytest.mark.parametrize(
    "question",
    [
        "Serve Llama-3.1-8B with vLLM on one L4 at 48k context, how many users fit?",
        "单卡 L4 用 vLLM 部署 Llama-3.1-8B，48k 上下文，最多支持多少并发？",
    ],
)
def test_capacity_question_keeps_fp8_swap(question: str) -> None:
    """Must not change: a 'how many at once' question (no start asked) keeps the FP8 answer on their card
    (trial s21 #4) — only the start-up check is the command as launched."""
    a = _json(question)
    assert not a["request"].get("start_asked")
    assert a["report"]["inference"]["weight_format"] == "fp8"


# 2. machines asked ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("公司要用 Qwen2.5-32B，30 并发，上下文 8k，用 L20 需要几台机器？", "1 台 8 卡"),
        ("部署 Qwen2.5-72B，64 并发 16k 上下文，H100 要多少台服务器？", "1 台 8 卡"),
        ("部署 Qwen2.5-72B，64 并发 16k 上下文，要买几台 H100 服务器？", "1 台 8 卡"),
        (
            "How many servers do I need to serve Qwen2.5-72B to 64 concurrent users at 16k context on H100s?",
            "one 8-GPU node",
        ),
        (
            "Serve Qwen2.5-32B on L40S for 30 concurrent users at 8k context: how many machines?",
            "one 8-GPU node",
        ),
    ],
)
def test_machines_asked_named_in_headline(question: str, said: str) -> None:
    a = _json(question)
    assert a["request"]["machines_asked"] is True
    assert a["request"]["gpu_count"] is None
    head = _text(question).splitlines()[0]
    assert said in head


def test_machines_asked_rounds_up_to_whole_nodes() -> None:
    """12 GPUs on 8-GPU nodes are 2 machines: ⌈12 ÷ 8⌉; unasked, 12 GPUs name no node (not whole)."""
    from types import SimpleNamespace

    from bot.render.serving_text import _serving_nodes

    def report(asked: bool) -> object:
        request = SimpleNamespace(gpu_count=None, machines_asked=asked)
        spec = SimpleNamespace(gpus_per_node=8, nvlink=True)
        return SimpleNamespace(inference=SimpleNamespace(recommended_gpus=12), request=request, gpu_spec=spec)

    assert _serving_nodes(report(True), "en").startswith("2 × 8-GPU nodes")
    assert _serving_nodes(report(True), "zh").startswith("2 台 8 卡")
    assert _serving_nodes(report(False), "en") == ""


@pytest.mark.parametrize(
    "question",
    [
        "需要几台H100才能部署 Qwen2.5-72B，64 并发？",
        "部署 Qwen2.5-72B 需要几张 H100，64 并发？",
        "How many GPUs per node do I need to serve Qwen2.5-72B with 64 concurrent users?",
        "How many H100s to serve Qwen2.5-72B to 64 concurrent users?",
    ],
)
def test_cards_asked_not_machines(question: str) -> None:
    """Must not misread: '几台H100' counts cards, 'GPUs per node' asks the GPUs, 'how many H100s' the GPUs."""
    assert not _json(question)["request"].get("machines_asked")


# 3. the KV cache's memory asked in English --------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "How much GPU memory does the KV cache take for Qwen2.5-72B at 32k context with 16 concurrent users?",
        "How much memory will Llama-3.1-8B use on one A10G at 8k context with 4 users?",
        "Qwen2.5-72B 32k 上下文 16 并发，KV cache 要占多少显存？",
    ],
)
def test_memory_take_asked(question: str) -> None:
    a = _json(question)
    assert a["request"]["memory_asked"] is True
    head = _text(question).splitlines()[0]
    assert "GiB" in head.split("—")[0]  # the memory leads, not a GPU count


@pytest.mark.parametrize(
    "question",
    [
        "How long does it take to serve 1M requests of Llama-3.1-8B on one H100?",
        "用一张 H100 部署 Llama-3.1-8B，处理 100 万个请求要多久？",
    ],
)
def test_time_take_not_memory(question: str) -> None:
    """Must not misread: 'how long does it take' asks time, not memory."""
    assert not _json(question)["request"].get("memory_asked")
