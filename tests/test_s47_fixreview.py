"""Session 47 fixreview: the review's blocking findings on the merged tree (/work/notes/s47/review/report.md).

B1: :func:`estimator.search_keep.kept_runtime` keeps a serving runtime's
:class:`estimator.runtimes.memo.MemoRuntime` across answers, so every memo key must hold every input its
value reads. The room (:meth:`MemoRuntime.room`) was filed under (PP, workspace key); vLLM's workspace key
drops the weights' precision, while DP attention's replicated bytes read it
(:meth:`estimator.runtimes.base.ServingRuntime.replicated_bytes`): an int4 question's room was reused for a
bf16 one ('24 GPUs needed' asked fresh, 'at least 16' after the int4 question). Each pair below asks A then
B in one process and compares B's JSON with B asked after :func:`forget_searches` (a fresh process's)."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from bot.cli import main
from estimator.search_keep import forget_searches


def _ask(question: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main(["ask", "--format", "json", "--", question])
    return json.loads(out.getvalue())


PAIRS = {
    "precision, DP attention, en": (
        "Serve Llama-3-70B int4 AWQ with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
        "Serve Llama-3-70B with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
    ),
    "precision, DP attention, zh": (
        "用 vllm 在 8 张 H100 上部署 Llama-3-70B int4 AWQ，dp attention，data parallel 8，64 并发",
        "用 vllm 在 8 张 H100 上部署 Llama-3-70B，dp attention，data parallel 8，64 并发",
    ),
    "DP attention or not, en": (
        "Serve Llama-3-70B with vllm on 8 H100, dp attention, data parallel 8, 64 concurrent",
        "Serve Llama-3-70B with vllm on 8 H100, 64 concurrent",
    ),
    "share, zh": (
        "用 vllm 在 2 张 H100 上部署 Llama-3-70B，gpu_memory_utilization 0.8，64 并发",
        "用 vllm 在 2 张 H100 上部署 Llama-3-70B，gpu_memory_utilization 0.95，64 并发",
    ),
    "max_num_batched_tokens, en": (
        "Serve Llama-3.1-8B with vllm on one L40S, max_num_batched_tokens 16384, 32 concurrent",
        "Serve Llama-3.1-8B with vllm on one L40S, 32 concurrent",
    ),
    "card, zh": (
        "用 vllm 在 2 张 A100 上部署 Qwen2.5-72B，32 并发",
        "用 vllm 在 2 张 H100 上部署 Qwen2.5-72B，32 并发",
    ),
    "model and runtime, en": (
        "Serve Qwen2.5-72B-Instruct-AWQ with sglang on 2 H100, dp attention, 32 concurrent",
        "Serve Qwen2.5-72B with vllm on 2 H100, dp attention, 32 concurrent",
    ),
}


@pytest.mark.parametrize("pair", list(PAIRS))
def test_an_answer_does_not_depend_on_the_question_asked_before(pair: str) -> None:
    first, second = PAIRS[pair]
    forget_searches()
    fresh = _ask(second)
    forget_searches()
    _ask(first)
    after = _ask(second)
    forget_searches()
    assert after == fresh, (after["reply"][:300], fresh["reply"][:300])


def test_the_dp_attention_answer_asked_fresh_is_the_one_the_review_saw() -> None:
    """The fresh answer of the review's pair: 24 GPUs (PP 3) for 64 sequences of bf16 Llama 3 70B with DP
    attention over 8 ranks; the stale one said 'at least 16'."""
    forget_searches()
    reply = _ask(PAIRS["precision, DP attention, en"][1])["reply"]
    assert "24 GPUs needed" in reply.splitlines()[0]
