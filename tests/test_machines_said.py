"""Machines without a card name (s15 trial #1): '用4台要多久', 'on 4 nodes' are machines × the GPUs per
machine said in the message, the finished run before the job, or the earlier turn (4 × 8 = 32 GPUs),
never 'not understood'."""

from __future__ import annotations

import pytest

from bot.core.conversation import Conversation
from bot.parse import parse
from tests.cli_run import ask_in_process, named

RUN_ZH = "上次用2台8卡H800跑Qwen2.5-72B的LoRA，10亿token跑了36小时，"
RUN_EN = "Last time: LoRA on Qwen2.5-72B, 1B tokens, 2 nodes of 8 H800, 36 hours. "
# 4 × 72.7e9 (Qwen2.5-72B) × 1e9 FLOPs ÷ (16 GPUs × 36 × 3,600 s) = 140.2 TFLOPS per GPU (14.2 % of 989)
RATE = 140.2


@pytest.mark.parametrize(
    "q",
    [
        RUN_ZH + "这次数据翻倍到20亿token，用4台要多久？",
        RUN_ZH + "这回20亿token，换成4个节点要多长时间？",
        RUN_EN + "This time 2B tokens on 4 nodes — how long?",
        RUN_EN + "Now 2B tokens on 4 machines: how long would it take?",
    ],
)
def test_machines_after_a_run_are_the_runs_machines(capsys, q: str) -> None:
    d = ask_in_process(capsys, q)
    req = d["request"]
    assert (req["gpu_count"], req["gpus_per_node"], req["tokens"]) == (32, 8, 2e9)
    assert req["achieved_tflops_per_gpu"] == pytest.approx(RATE)
    # twice the data on twice the GPUs at the run's rate: 1,152 H800-hours, 36 hours on 32
    assert d["report"]["gpu_hours"]["likely"] == pytest.approx(1152, rel=0.01)
    assert "4" not in named(d)
    assert any(v == "earlier_run_same_job" for v in named(d).values())


@pytest.mark.parametrize(
    "q",
    [
        "A100 8卡的机器，全参微调Llama-3-8B，100亿token，3台要多久？",
        "全参微调Llama-3-8B，100亿token，A100 8卡服务器，用3台要多久？",
    ],
)
def test_machines_of_a_size_said_in_the_message(q: str) -> None:
    p = parse(q)
    assert (p.request.gpu_count, p.request.gpus_per_node) == (24, 8)
    assert ("3", "unread") not in p.unused_numbers


def test_machines_alone_stay_unread() -> None:
    """No GPUs per machine anywhere: a machine may hold 1 to 16 cards, so the count is not guessed."""
    p = parse("LoRA on Qwen2.5-72B, 2B tokens on 4 nodes of H800, how long?")
    assert p.request.gpu_count != 4 * 8 or p.request.gpus_per_node is None


@pytest.mark.parametrize(
    ("first", "then"),
    [
        (
            "上次用2台8卡H800跑Qwen2.5-72B的LoRA，10亿token跑了36小时",
            "这次数据翻倍到20亿token，用4台要多久？",
        ),
        (
            "LoRA on Qwen2.5-72B, 1B tokens, 2 nodes of 8 H800, took 36 hours.",
            "And 2B tokens on 4 nodes, how long?",
        ),
    ],
)
def test_machines_in_a_followup_take_the_earlier_turns_machines(first: str, then: str) -> None:
    conv = Conversation()
    conv.ask("t:1", "t:2", first)
    turn = conv.ask("t:1", "t:2", then)
    assert turn.answer.followup
    req = turn.request
    assert (req.gpu_count, req.gpus_per_node, req.tokens, req.hours) == (32, 8, 2e9, None)
    assert req.achieved_tflops_per_gpu == pytest.approx(RATE)
    assert ("4", "unread") not in turn.answer.parsed.unused_numbers
