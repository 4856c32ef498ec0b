"""s44 batchfix (review B2, issue 24 item 4): a period's tokens and an offline batch's time at the GPUs'
capacity (estimator.batch_work).

'How many tokens per day can 16 H100 generate serving Llama-3.1-70B?' priced the layout sized for the
default load (16 sequences; 1 on a GeForce card): ≈ 46.1M tokens a day at 24 sequences, while the same
GPUs under a stated TP 4 gave 829M, and 8 RTX 4090 said '1 sequences' beside 'up to 216 concurrent
sequences'. Now each TP that divides the count is laid out as copies filling the GPUs, each at the most
sequences it holds, timed by the serving speed model at that load, and the most tokens/s is kept."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.core.pipeline import answer
from bot.render.batch_head import batch_head
from bot.render.renderer import render
from estimator.batch_work import BatchWork


def _work(q: str):  # (answer, its BatchWork)
    a = answer(q)
    work = a.report.batch_work if a.report is not None else None
    assert work is not None, q
    return a, work


@pytest.mark.parametrize(
    ("q", "period", "head"),
    [
        ("How many tokens per day can 16 H100 generate serving Llama-3.1-70B?", 86400, "tokens a day"),
        ("16 张 H100 部署 Llama-3.1-70B，一天最多能生成多少 token？", 86400, "一天约"),
        ("How many tokens can 8 H100 generate an hour with Llama 3.1 70B?", 3600, "tokens an hour"),
        ("8 张 H100 跑 Llama 3.1 70B，每小时能输出多少 token？", 3600, "一小时约"),
        ("How many tokens a day can 8 RTX 4090 generate with Qwen2.5-7B?", 86400, "tokens a day"),
        ("8张4090跑Qwen2.5-7B，一天能生成多少token？", 86400, "一天约"),
    ],
)
def test_period_at_capacity_agrees(q: str, period: int, head: str) -> None:
    """The period's tokens are the report's own tokens/s × the period; the headline says those figures,
    the layout and the sequences; the sequences are the most the layout holds, never the default load."""
    a, work = _work(q)
    assert work.period_s == period and work.most_held
    assert work.tokens_in_period == pytest.approx(work.tokens_per_s * period)
    assert work.tp * work.pp * work.replicas == work.gpus
    assert work.sequences > 16  # the default load (16; 1 on a GeForce card) was priced before (B2)
    first = render(a, "text").splitlines()[0]
    assert first.startswith(("≈", "一")) and head in first
    assert f"{round(work.tokens_per_s):,}" in first and f"{work.sequences:,}" in first
    assert f"TP={work.tp}" in first
    zh = a.lang == "zh"
    assert ("这些卡最多能放下的条数" if zh else "the most these GPUs hold") in first


def test_review_b2_figures_and_order() -> None:
    """16 H100 bf16 Llama-3.1-70B: no fewer tokens than the same GPUs under a stated TP 4 (which is kept,
    4 copies), nor than 8 H100; the 8 RTX 4090 answer holds more than 1 sequence (was '1 sequences')."""
    _, free = _work("How many tokens per day can 16 H100 generate serving Llama-3.1-70B?")
    _, tp4 = _work(
        "How many tokens per day can 16 H100 generate serving Llama-3.1-70B with vLLM "
        "--tensor-parallel-size 4?"
    )
    _, eight = _work("How many tokens per day can 8 H100 generate serving Llama-3.1-70B?")
    assert (tp4.tp, tp4.replicas) == (4, 4)  # stated TP kept
    assert free.gpus == tp4.gpus == 16 and eight.gpus == 8
    assert free.tokens_per_s >= tp4.tokens_per_s >= eight.tokens_per_s
    assert free.tokens_in_period > 18 * 46.1e6  # the review's 46.1M was ≥ 18× too low
    _, rtx = _work("How many tokens a day can 8 RTX 4090 generate with Qwen2.5-7B?")
    assert rtx.sequences > 1 and rtx.gpus == 8


def test_more_gpus_never_fewer_tokens_fp8() -> None:
    """FP8 70B: 16 H100 give at least what 8 give (twice the copies of the best layout at most)."""
    _, eight = _work("How many tokens per day can 8 H100 generate serving Llama-3.1-70B in FP8?")
    _, sixteen = _work("16 张 H100 用 FP8 部署 Llama-3.1-70B，一天能生成多少 token？")
    assert sixteen.tokens_per_s >= eight.tokens_per_s
    assert sixteen.tokens_in_period == pytest.approx(sixteen.tokens_per_s * 86400)


@pytest.mark.parametrize(
    "q",
    [
        "Offline batch inference: we need to process 1B tokens with Llama 3.1 8B. How long on 8xH100?",
        "离线批量推理，Qwen2.5-7B，总共10亿token要处理，8张H100大概要跑多久？",
    ],
)
def test_batch_time_at_capacity(q: str) -> None:
    a, work = _work(q)
    assert work.batch_tokens == 1e9 and work.most_held
    assert work.batch_seconds == pytest.approx(1e9 / work.tokens_per_s)
    assert work.sequences > 16
    first = render(a, "text").splitlines()[0]
    assert f"{round(work.tokens_per_s):,}" in first and f"TP={work.tp}" in first


@pytest.mark.parametrize(
    "q",
    [
        "Serve Llama 3.1 70B on 8 H100 for 100 users: how many tokens per second each?",  # no period asked
        "部署 Qwen2.5-7B 要几张 4090？一天大概 100 个用户",  # a day, no tokens asked
        "We process 50 million tokens per day through Llama 3.1 70B. How many H100 do we need?",  # a load
    ],
)
def test_other_questions_no_batch_work(q: str) -> None:
    a = answer(q)
    assert a.report is None or a.report.batch_work is None


def _head(work: BatchWork, lang: str) -> str:
    fake = SimpleNamespace(report=SimpleNamespace(batch_work=work), lang=lang)
    return batch_head("rest", fake).splitlines()[0]  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_sequence_singular_and_most_only_when_true(lang: str) -> None:
    """'1 sequence' in the singular; 'the most these GPUs hold' only when ``most_held``."""
    one = BatchWork(tokens_per_s=30.0, sequences=1, gpus=1, tp=1, pp=1, replicas=1, period_s=86400,
                    tokens_in_period=30.0 * 86400, most_held=False)  # fmt: skip
    text = _head(one, lang)
    if lang == "en":
        assert "at 1 sequence at once (TP=1)" in text and "sequences" not in text and "most" not in text
    else:
        assert "同时跑 1 条序列（TP=1）" in text and "最多" not in text
    many = one.model_copy(update={"sequences": 2, "most_held": True})
    text = _head(many, lang)
    assert (
        "2 sequences at once (the most these GPUs hold; TP=1)"
        if lang == "en"
        else "同时跑 2 条序列（这些卡最多能放下的条数；TP=1）"
    ) in text
