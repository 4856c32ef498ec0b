"""Session 32 fixk #1: an embedding job is inference over a corpus — the model named as typed, the
documents the corpus (not training samples), the prefill-bound time when the model's size is known, and
what is needed when it is not; never another model's headline."""

from __future__ import annotations

import pytest

from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog
from estimator.serving_speed import PREFILL_MFU, power_capped_mfu


def _reply(text: str) -> tuple[object, str]:
    result = answer(text)
    return result, render(result, "text")


@pytest.mark.parametrize(
    ("text", "model", "docs"),
    [
        ("encode 5M chunks with e5-large on an A10G, how long", "e5-large", 5_000_000),
        ("vectorize 300k passages using gte-large-zh on one T4", "gte-large-zh", 300_000),
        ("用 m3e-base 给 200 万篇文档做向量化，一张 L4 要多久", "m3e-base", 2_000_000),
        ("用 bce-embedding-base 把 50 万篇文档做嵌入，需要多久，一张 A10", "bce-embedding-base", 500_000),
    ],
)
def test_unknown_embedding_model_named_and_size_asked(text: str, model: str, docs: int) -> None:
    result, out = _reply(text)
    job = result.embedding
    assert job is not None and job.model == model and job.docs == docs and job.params is None
    assert result.report is None  # no chat model's headline
    assert f"“{model}”" in out and f"{docs:,}" in out
    assert "Did you mean" not in out and "你是不是指" not in out
    assert "training setting" not in out and "训练设置" not in out
    assert f"{docs * 512:,}" in out  # the corpus in tokens at the stated assumption
    assert ("parameter count" in out) or ("参数量" in out)


@pytest.mark.parametrize(
    ("text", "gpu", "gpus", "lang_word"),
    [
        ("embed 2 million documents with Qwen2.5-7B on 2 L4", "L4", 2, "hours"),
        ("用 Qwen2.5-7B 给 200 万篇文档做向量化，4 张 H100 要多久", "H100", 4, "小时"),
    ],
)
def test_known_model_timed_prefill_bound(text: str, gpu: str, gpus: int, lang_word: str) -> None:
    result, out = _reply(text)
    job = result.embedding
    assert job is not None and job.docs == 2_000_000 and job.gpus == gpus and job.params
    card = catalog.resolve_gpu(gpu)
    # an L4 at its sustained 59.4 of 121 TFLOPS (s39 fixs #2: estimator.serving_speed.power_capped_mfu)
    mfu = power_capped_mfu(card, PREFILL_MFU)
    expected = 2 * job.params * 2_000_000 * 512 / (card.peak_flops_16bit * mfu * gpus) / 3600
    assert job.hours == pytest.approx(expected, rel=1e-6)
    assert f"{expected:.1f}" in out and lang_word in out


def test_serving_question_unchanged() -> None:
    result, _ = _reply("serve Qwen2.5-7B on one L4")
    assert result.embedding is None and result.report is not None


@pytest.mark.parametrize(
    "text",
    ["fine-tune bge-m3 on 1M pairs on 8 A100", "用 100 万条样本微调 bge-m3 嵌入模型，8 张 A100"],
)
def test_training_an_embedding_model_is_not_an_embedding_job(text: str) -> None:
    result, _ = _reply(text)
    assert result.embedding is None and result.parsed.request.stage == "finetune"


@pytest.mark.parametrize(
    ("text", "per_doc"),
    [
        ("embed 1M chunks of 256 tokens with Qwen2.5-7B on an H100", 256),
        ("用 Qwen2.5-7B 给 100 万篇文档做向量化，每篇 300 token，一张 H100 要多久", 300),
    ],
)
def test_stated_tokens_per_document_used(text: str, per_doc: int) -> None:
    result, out = _reply(text)
    job = result.embedding
    assert job is not None and job.tokens_per_doc == per_doc and job.per_doc_stated
    assert f"{1_000_000 * per_doc:,}" in out
    assert "a typical retrieval chunk" not in out and "典型检索分块" not in out
