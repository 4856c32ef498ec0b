"""s44 trialfix2: the rest of the s44 fresh-user trial (/work/notes/s44/trial_report.md).

Finding 5: a provider comparison ('AWS p5.48xlarge vs Lambda H100', '阿里云和AutoDL比') got one market range
and ``interpretation.ignored: []``. The catalog (estimator/data/prices.toml) has no provider's own price:
each provider named is now named as typed (``provider_price``); a bare 'lambda' (a loss weight) is not."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.ignored_texts import IGNORED_TEXTS
from bot.render.serving_load_texts import SERVING_LOAD_TEXTS


def _provider_names(q: str) -> list[str]:
    report = answer(q)
    return [i.text for i in report.interpretation.ignored if i.reason == "provider_price"]


@pytest.mark.parametrize(
    ("q", "names"),
    [
        # the trial's sentences (q13_en, q13_zh)
        (
            "Compare cost: AWS p5.48xlarge vs Lambda H100 for fine-tuning Llama 3 8B full on 2B tokens",
            ["AWS", "Lambda"],  # s45 fixread #3: as typed, and the instance's provider named too
        ),
        ("阿里云和AutoDL比，租A800训练Qwen2.5-14B全参微调，数据10亿token，哪个便宜？", ["阿里云", "AutoDL"]),
        ("Is RunPod or Vast.ai cheaper to serve Qwen2.5-7B on one 4090?", ["RunPod", "Vast.ai"]),
        ("腾讯云和火山引擎哪个便宜？Qwen2.5-7B 全参微调 1亿 token，8 张 H800", ["腾讯云", "火山引擎"]),
    ],
)
def test_provider_named(q: str, names: list[str]) -> None:
    assert _provider_names(q) == names


@pytest.mark.parametrize(
    "q",
    [
        "DPO on Llama 3 8B with lambda 0.1, 8 H100",  # a loss weight, not the GPU cloud
        "Fine-tune Qwen2.5-7B on 1B tokens with 8 H100, cost?",  # no provider
        "云端部署 Qwen2.5-7B，要几张 4090？",  # 云 without a provider's name
        "Qwen2.5-7B 全参微调 1亿 token，用 Cloud TPU v5e 还是 H100？",
    ],
)
def test_no_provider_misread(q: str) -> None:
    assert _provider_names(q) == []


def test_provider_reason_words_and_price_still_used() -> None:
    """The reason is worded in both languages; a price per GPU-hour given beside a provider is used
    ($2.99, the Lambda H100 list price quoted in prices.toml's H100 source, × 129 GPU-hours = $386)."""
    report = answer("Fine-tune Llama 3 8B on Lambda H100 at $2.99 per GPU-hour, 2B tokens")
    assert [i.reason for i in report.interpretation.ignored] == ["provider_price"]
    from bot.render.i18n import translate

    assert "which provider is cheaper is not answered" in translate("en", IGNORED_TEXTS["provider_price"])
    assert "哪家更便宜" in translate("zh", IGNORED_TEXTS["provider_price"])


def test_split_keeps_every_serving_load_reason() -> None:
    """The split of bot/render/ignored_texts.py: every serving-load reason is still worded."""
    assert set(SERVING_LOAD_TEXTS) <= set(IGNORED_TEXTS)
    assert "volume_not_load" in IGNORED_TEXTS and "cap_only" in IGNORED_TEXTS


# Findings 3 and 4: a period's tokens and a batch's time asked (estimator.batch_work): the deployment's
# total output throughput at the most sequences its GPUs hold (report.inference.priced_tokens_per_s) ×
# 86,400 s or 3,600 s, and a batch's tokens ÷ it.


def _work(q: str):  # (answer, its BatchWork or None)
    a = answer(q)
    return a, (a.report.batch_work if a.report is not None else None)


@pytest.mark.parametrize(
    ("q", "period"),
    [
        ("How many tokens per day can a cluster of 16 H100 generate serving Llama-3.1-70B in FP8?", 86400),
        ("How many tokens can 8 H100 generate an hour with Llama 3.1 70B?", 3600),
        ("32张A100部署DeepSeek-R1-Distill-Qwen-32B，一天最多能生成多少token？", 86400),
        ("8 张 H100 跑 Llama 3.1 70B，每小时能输出多少 token？", 3600),
    ],
)
def test_tokens_in_a_period(q: str, period: int) -> None:
    a, work = _work(q)
    assert work is not None and work.period_s == period
    inf = a.report.inference
    # s44 batchfix: the best layout at capacity, never below the layout priced (which is one it tries)
    assert work.tokens_per_s >= inf.priced_tokens_per_s * 0.999 and work.sequences >= inf.priced_concurrency
    assert work.tokens_in_period == pytest.approx(work.tokens_per_s * period)
    assert (work.tp * work.pp * work.replicas) == work.gpus == inf.serving_gpus
    assert a.report.request.deadline_days is None  # '一天' is the period asked, not a one-day deadline
    assert not [i for i in a.interpretation.ignored if i.reason == "training_only"]


def test_tokens_a_day_trial_figures() -> None:
    """q03_en: 16 H100, Llama 3.1 70B FP8 — s44 batchfix: the best layout at capacity, TP 8 × 2 copies at
    758 sequences, ≈ 15,008 tokens/s (was TP 2 × 8 copies at 432, 9,518 tokens/s: the layout sized for the
    default load): ≈ 1.3B tokens a day, said before the headline in both languages."""
    from bot.render.renderer import render

    a, work = _work("How many tokens per day can a cluster of 16 H100 generate serving Llama-3.1-70B in FP8?")
    assert (work.tp, work.replicas, work.sequences) == (8, 2, 758)
    assert work.tokens_in_period == pytest.approx(15008 * 86400, rel=1e-3)
    first = render(a, "text").splitlines()[0]
    assert first.startswith("≈ 1.3B tokens a day") and "TP=8 × 2 copies" in first
    zh = answer("16 张 H100 用 FP8 部署 Llama-3.1-70B，一天能生成多少 token？")
    assert render(zh, "text").splitlines()[0].startswith("一天约 13亿 token")


@pytest.mark.parametrize(
    ("q", "tokens"),
    [
        (
            "Offline batch inference: we need to process 1B tokens (~200 output tokens per request, 2k "
            "prompt) with Llama 3.1 8B. How long on 8xH100?",
            1e9,
        ),
        ("离线批量推理，Qwen2.5-7B，总共10亿token要处理，8张H100大概要跑多久？", 1e9),
        ("We have to generate 500M tokens with Qwen2.5-7B on 4 A100. How long will it take?", 5e8),
    ],
)
def test_batch_time(q: str, tokens: float) -> None:
    a, work = _work(q)
    assert work is not None and work.batch_tokens == tokens
    assert work.batch_seconds == pytest.approx(tokens / work.tokens_per_s)  # at capacity (s44 batchfix)
    assert work.tokens_per_s >= a.report.inference.priced_tokens_per_s * 0.999
    assert not [i for i in a.interpretation.ignored if i.text in ("1b", "10亿", "500m")]


@pytest.mark.parametrize(
    "q",
    [
        "We process 50 million tokens per day through Llama 3.1 70B. How many H100 do we need?",  # a load
        "Serve Llama 3.1 70B on 8 H100 for 100 users: how many tokens per second each?",  # no period asked
        "Llama 3.1 8B pre-training on 1B tokens, how long on 8 H100?",  # training data, not a batch
        # s43 fixjob's distillation: the teacher's generated tokens are the student's data
        "Distill Llama-3.1-70B into Llama-3.2-3B: the teacher generates 50M tokens, then full SFT of the "
        "student on 8 A100s. How long?",
        "用 Qwen2.5-72B 蒸馏 Qwen2.5-1.5B，先生成总共 5000万 token，要多久？",
        "部署 Qwen2.5-7B 要几张 4090？一天大概 100 个用户",  # a day, no tokens asked
    ],
)
def test_no_batch_work_misread(q: str) -> None:
    assert _work(q)[1] is None
