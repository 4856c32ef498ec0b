"""Session 45 fixread: reading and answer leftovers (issue 24 items 2–4), both languages.

1. An offline batch said as rows × tokens a row (bot.parse.row_batch) is timed: its tokens are rows × (input
   + output tokens a row), answered by estimator.batch_work at the GPUs' capacity.
"""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.parse.assemble import parse
from bot.render.renderer import render

# -- 1. rows × tokens a row as a batch --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("q", "tokens", "seq_len"),
    [
        (
            "how long to generate 500 tokens for each of 100k rows with Llama 3 8B on 2 H100",
            100_000 * 500,
            None,
        ),
        ("Qwen2.5-7B 在 2 张 H100 上，100,000 条 × 500 输出 token 要跑多久", 100_000 * 500, None),
        (
            "Llama 3 8B on 2 H100: 100k prompts, 1000 input tokens and 500 output tokens each, how long",
            100_000 * 1500,
            1500,
        ),
        (
            "batch inference Llama 3 8B on 2 H100: 100k prompts, 1000 input tokens and 500 output tokens "
            "each, how long",
            100_000 * 1500,
            1500,
        ),
        (
            "Llama 3 8B 在 2 张 H100 上，10 万条 prompt，每条输入 1000 token、输出 500 token，要跑多久",
            1.5e8,
            1500,
        ),
        (
            "Qwen2.5-7B on 4 A100, 2,000 documents, 3k input tokens each, how long will it take",
            2000 * 3000,
            None,
        ),
        ("用 Qwen2.5-7B 在 4 张 A100 上处理 5000 篇文档，每篇输入 2000 token，要多长时间", 5000 * 2000, None),
    ],
)
def test_rows_times_tokens_is_the_batch(q: str, tokens: float, seq_len: int | None) -> None:
    r = parse(q)
    assert r.request.batch_tokens == pytest.approx(tokens), q
    assert r.request.num_samples is None, q  # the rows are the batch, not a training set's samples
    if seq_len:
        assert r.request.seq_len == seq_len, q  # a row's input + output is its sequence, not the rows' count


@pytest.mark.parametrize(
    "q",
    [
        "fine-tune Llama 3 8B on 100k samples of 512 tokens on 2 H100, how long",  # training data
        "微调 Qwen2.5-7B，10 万条数据，每条 500 token，2 张 H100 要多久",
        "Llama 3 8B on 2 H100, 100k prompts per day of 500 tokens, how many GPUs",  # no duration asked
        "Qwen2.5-7B 2 张 H100，每天 10 万条请求，每条输出 500 token，需要几张卡",
        "serve Llama 3 8B on 2 H100 at 50 tokens/s for 200 requests, how long is the ttft",  # one request's
        "Qwen2.5-7B 2 张 H100，1000 个请求，每个输出 500 token，首 token 延迟多久",
    ],
)
def test_rows_not_a_batch(q: str) -> None:
    assert parse(q).request.batch_tokens is None, q


@pytest.mark.parametrize(
    ("q", "head"),
    [
        ("how long to generate 500 tokens for each of 100k rows with Llama 3 8B on 2 H100", "50M tokens ≈ "),
        ("Qwen2.5-7B 在 2 张 H100 上，100,000 条 × 500 输出 token 要跑多久", "5000万 token 约需 "),
    ],
)
def test_rows_batch_is_timed(q: str, head: str) -> None:
    a = answer(q)
    work = a.report.batch_work
    assert work is not None and work.batch_tokens == 5e7
    assert work.batch_seconds == pytest.approx(5e7 / work.tokens_per_s)
    first = render(a, "text").splitlines()[0]
    assert first.startswith(head) and f"{round(work.tokens_per_s):,}" in first, first
