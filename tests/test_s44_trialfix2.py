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
            ["lambda"],
        ),
        ("阿里云和AutoDL比，租A800训练Qwen2.5-14B全参微调，数据10亿token，哪个便宜？", ["阿里云", "autodl"]),
        ("Is RunPod or Vast.ai cheaper to serve Qwen2.5-7B on one 4090?", ["runpod", "vast.ai"]),
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


# Finding 7: Llama 4 Scout/Maverick: 3 of 4 layers use chunked local attention (attention_chunk_size 8192,
# no_rope_layers in config.json); vLLM holds their KV for one chunk (vllm/v1/kv_cache_interface.py
# ChunkedLocalAttentionSpec.max_memory_usage_bytes). Sized as sliding-window layers of 8192.
_PER_LAYER = 8 * 128 * 2 * 2  # 8 KV heads × head_dim 128 × (K, V) × bf16 bytes = 4 KiB a token a layer


@pytest.mark.parametrize("model", ["Llama-4-Scout-17B-16E", "Llama-4-Maverick-17B-128E"])
def test_llama4_chunked_layers_hold_one_chunk(model: str) -> None:
    from estimator.catalog import model as get_model
    from estimator.weights import kv_bytes_per_sequence

    spec = get_model(model)
    assert (spec.sliding_window, spec.sliding_window_layers) == (8192, 36)
    # 1M tokens: 12 global layers hold all of them, 36 chunked layers one chunk: 50.4 GB, not 197 GB
    want = _PER_LAYER * (12 * 1_000_000 + 36 * 8192)
    assert kv_bytes_per_sequence(spec, 1_000_000) == pytest.approx(want)
    # within one chunk every layer holds the whole context (48 layers × 4 KiB = 192 KiB a token)
    assert kv_bytes_per_sequence(spec, 4096) == pytest.approx(48 * _PER_LAYER * 4096)


@pytest.mark.parametrize(
    ("q", "gpus"),
    [
        ("Llama 4 Scout 跑 100 万 token 上下文，单用户，要几张 H100？", 4),  # the trial's q12_zh (8 before)
        ("Serve Llama 4 Scout with a 1M token context for one user: how many H100?", 4),
    ],
)
def test_llama4_million_context_answer(q: str, gpus: int) -> None:
    """218 GB of bf16 weights + 50.4 GB of KV on H100s of 71.3 GiB usable: 4 (TP 4), not 8."""
    report = answer(q).report
    assert report is not None and report.inference is not None
    assert report.inference.min_gpus == gpus


def _llama4_config(**extra: object) -> dict:
    text = {
        "model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48, "num_attention_heads": 40,
        "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
        "num_local_experts": 16, "num_experts_per_tok": 1, "interleave_moe_layer_step": 1,
        "vocab_size": 202048, "max_position_embeddings": 10485760, "attention_chunk_size": 8192,
    }  # fmt: skip
    text.update(extra)
    return {"architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4", "text_config": text}


def test_llama4_config_json_reads_chunked_layers() -> None:
    """A user's Llama 4 config.json: the chunk is the window, the RoPE layers (no_rope_layers 1) are chunked;
    without the list every 4th layer (no_rope_layer_interval 4) is global: 36 of 48."""
    from estimator.hf_config import spec_from_config

    plain = spec_from_config(_llama4_config()).spec
    assert (plain.sliding_window, plain.sliding_window_layers) == (8192, 36)
    flags = [int((i + 1) % 4 != 0) for i in range(48)]
    listed = spec_from_config(_llama4_config(no_rope_layers=flags)).spec
    assert listed.sliding_window_layers == 36
    none = spec_from_config(_llama4_config(attention_chunk_size=None)).spec
    assert none.sliding_window is None  # no chunk: every layer global (must not invent one)


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
