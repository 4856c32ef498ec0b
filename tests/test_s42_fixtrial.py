"""s42 fixtrial: the s42 fresh-user trial's findings (/work/notes/s42/trial_report.md items 1-6, 9-16), each
read in both languages, with sentences that look alike but must not move."""

from __future__ import annotations

import pytest

from bot.cli import _ask
from bot.parse import parse


def _text(question: str) -> str:
    return _ask(question, None, "text")[0]


def _report(question: str):
    return _ask(question, None, "json")[2].report


# 1: a card name outside the catalog with a model number of letters + digits ('X9000', 'Foo X1') before a
# card word is named as typed, never a count of cards nor the default card in silence
@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("serve Qwen2.5-7B on an X9000 GPU, 5 users", "X9000"),
        ("部署 Qwen2.5-7B 到 X9000 显卡上，并发 5", "X9000"),
        ("serve Qwen2.5-7B on a Foo X1 GPU, 5 users", "Foo X1"),
        ("部署 Qwen2.5-7B 到 Foo X1 卡上，并发 5", "Foo X1"),
        ("serve MyLLM-13B on a <i>Foo X1</i> GPU, 5 users", "Foo X1"),
        ("用 2 张 Zeta Q7 显卡部署 Qwen2.5-7B", "Zeta Q7"),
    ],
)
def test_an_unknown_card_with_a_glued_model_number_is_named_as_typed(question: str, name: str) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu == name
    assert parsed.request.gpu_count in (None, 1, 2)  # never 9,000 cards from 'X9000'
    text = _text(question)
    assert f"“{name}”" in text and ("not in my catalog" in text or "不在我的目录中" in text)
    assert "9,000" not in text and "“9000”" not in text


def test_an_unknown_card_with_its_memory_is_sized_on_that_memory() -> None:
    for question, name in (
        ("I have an X9000 48GB GPU, serve Qwen2.5-7B", "X9000"),
        ("用 2 张 Foo X1 48G 显卡部署 Qwen2.5-7B", "Foo X1"),
    ):
        parsed = parse(question)
        assert parsed.unknown_gpu == name and parsed.request.gpu_memory_gib == 48
        assert parsed.request.gpu_count in (None, 1, 2)


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("serve Qwen2.5-72B on 2 nodes x8 GPUs", 16),
        ("serve Qwen2.5-7B on A100 x8 GPUs", 8),
        ("serve Qwen2.5-7B on H100 SXM x8 GPUs", 8),
        ("serve Qwen2.5-7B on A100 80GB x8 GPUs", 8),
        ("部署 Qwen2.5-7B，A100 x4 卡", 4),
    ],
)
def test_a_count_after_a_card_or_a_machine_word_stays_a_count(question: str, count: int) -> None:
    parsed = parse(question)
    assert parsed.unknown_gpu is None and parsed.request.gpu_count == count


# 2, 3: a corpus embedding job, its verb glued to Chinese ('做embedding') or not, with a catalog encoder:
# bge-m3 is 567,754,752 parameters (estimator/data/encoders.json, from BAAI/bge-m3's config.json), so
# 10M documents × 512 tokens take 2 × 567,754,752 × 5.12e9 FLOPs at the L20's prefill rate
@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("用bge-m3给1000万条文档做embedding，一张L20要跑多久", "约 20.0 小时"),
        ("用 bge-m3 给 1000 万条文档做 embedding，一张 L20 要跑多久", "约 20.0 小时"),
        ("用bge-m3给1000万条文档做向量化，一张L20要跑多久", "约 20.0 小时"),
        ("embed 10 million documents with bge-m3 on one L20, how long?", "≈ 20.0 hours"),
        ("Embedding 10 million documents with bge-m3 on one L20 — how long?", "≈ 20.0 hours"),
    ],
)
def test_a_corpus_embedding_job_is_timed_from_the_catalog_encoder(question: str, said: str) -> None:
    from bot.core.embedding_job import embedding_job
    from estimator import catalog
    from estimator.serving_speed import prefill_seconds

    job = embedding_job(parse(question))
    assert job is not None and job.docs == 10_000_000 and job.tokens_per_doc == 512
    assert job.params == 567_754_752
    hours = prefill_seconds(567_754_752.0, 10_000_000 * 512, catalog.resolve_gpu("L20"), 1) / 3600
    assert job.hours == pytest.approx(hours) and round(hours, 1) == 20.0
    text = _text(question)
    assert said in text and "568M" in text
    assert "Gemma" not in text and "45B" not in text


@pytest.mark.parametrize(
    "question",
    [
        "fine-tune bge-m3 on 1 million pairs on one L20",
        "用 100 万条数据微调 bge-m3，一张 L20",
        "在嵌入式设备上部署 Qwen2.5-7B，1 万条请求",
        "encoder-decoder T5 训练 100 万条样本，8 张 A100",
    ],
)
def test_training_or_embedded_systems_are_no_embedding_job(question: str) -> None:
    from bot.core.embedding_job import EmbeddingJob, embedding_job

    assert not isinstance(embedding_job(parse(question)), EmbeddingJob)


def test_a_model_name_ending_in_embedding_is_no_embedding_verb() -> None:
    from bot.core.embedding_job import EMBED_RE

    assert EMBED_RE.search("serve qwen2.5-7b_embedding on a t4") is None
    assert EMBED_RE.search("用 bge-m3 做embedding") is not None
    assert EMBED_RE.search("embedding 10m docs") is not None
