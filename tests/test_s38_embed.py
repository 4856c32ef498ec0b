"""Embedding and reranker models served (session 38 embed): one forward pass a request, no decode and no
KV cache; QPS a card = peak × MFU / FLOPs a request; a stated QPS gives the cards (estimator.encoders,
bot.core.embedding_serve). Values worked by hand below each test."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.core.embedding_serve import EmbeddingServe
from bot.core.pipeline import answer
from bot.render.renderer import render
from estimator import catalog, encoders
from estimator.serving_speed import FITTED


def test_the_catalog_holds_each_embedder_with_its_config_json_shape():
    """bge-m3's config.json (XLMRobertaModel): 24 layers, hidden 1024, 16 heads, intermediate 4096, vocab
    250002, max_position_embeddings 8194; bge-base-en-v1.5 (BertModel): 12, 768, 12, 3072, 30522, 512."""
    ids = {e.id for e in encoders.catalog()}
    wanted = ["bge-m3", "bge-reranker-v2-m3", "bge-large-zh-v1.5", "bge-base-en-v1.5"]
    wanted += ["multilingual-e5-large"]
    wanted += ["gte-Qwen2-7B-instruct", "Qwen3-Embedding-0.6B", "Qwen3-Embedding-4B", "Qwen3-Embedding-8B"]
    assert set(wanted) | {"Qwen3-Reranker-0.6B"} <= ids
    m3 = encoders.find("serve bge-m3 on l4")
    assert m3 is not None and m3.kind == "embedder"
    shape = (m3.layers, m3.hidden, m3.heads, m3.intermediate, m3.vocab, m3.max_position_embeddings)
    assert shape == (24, 1024, 16, 4096, 250002, 8194)
    base = encoders.find("bge-base-en-v1.5")
    assert base is not None and (base.layers, base.hidden, base.heads, base.vocab) == (12, 768, 12, 30522)
    assert base.max_position_embeddings == 512
    assert all(e.source.startswith("https://huggingface.co/") and e.source.endswith("config.json")
               for e in encoders.catalog())  # fmt: skip
    # the longest name wins: the reranker, not bge-m3 inside its name
    rr = encoders.find("bge-reranker-v2-m3 on a t4")
    assert rr is not None and rr.kind == "reranker"


def test_bge_m3_flops_a_request_and_qps_on_an_l4_by_hand():
    """2 × 567,754,752 × 512 = 581,380,866,048 FLOPs of weight matmuls; attention (bidirectional)
    4 × 24 × 512² × 1024 = 25,769,803,776; total 607,150,669,824. L4 dense bf16 peak 121 TFLOPS (datasheet)
    × the prefill MFU 0.675 = 8.1675×10¹³ FLOP/s → 134.52 QPS a card; 500 QPS → ceil(3.717) = 4 L4 at the
    boost-clock peak (the answer caps an L4 at its sustained 59.4 TFLOPS: tests/test_s39_fixs.py)."""
    m3 = encoders.find("bge-m3")
    linear, attn = encoders.request_flops(m3.params, 512, m3)
    assert linear == 581_380_866_048
    assert attn == 25_769_803_776
    l4 = catalog.resolve_gpu("L4")
    assert l4.peak_flops_16bit == 121e12
    qps = encoders.qps_per_card(linear + attn, l4.peak_flops_16bit, FITTED.prefill_mfu)
    assert qps == pytest.approx(8.1675e13 / 607_150_669_824)
    assert qps == pytest.approx(134.52, abs=0.01)
    assert encoders.cards_for(500, qps) == 4
    assert encoders.cards_for(200, 100) == 2 and encoders.cards_for(201, 100) == 3


def test_a_causal_embedder_counts_half_the_attention_at_its_own_width():
    """Qwen3-Embedding-0.6B: 16 heads × head_dim 128 = 2048 (wider than hidden 1024), causal:
    2 × 28 × 512² × 2048 = 30,064,771,072."""
    q = encoders.find("qwen3-embedding-0.6b")
    assert q.attention_width == 2048
    assert encoders.request_flops(q.params, 512, q)[1] == 30_064_771_072


def test_the_memory_a_card_is_weights_one_batch_and_the_context():
    """bge-m3 fp16: weights 2 × 567,754,752 = 1,135,509,504 B; activations 16,384 (TEI's
    --max-batch-tokens default) × 2 B × (2·1024 + 3·1024 + 2·4096 = 13,312) = 436,207,616 B; + 1 GiB."""
    m3 = encoders.find("bge-m3")
    act = encoders.activation_bytes(m3, m3.hidden, encoders.MAX_BATCH_TOKENS, 2.0)
    assert encoders.MAX_BATCH_TOKENS == 16_384
    assert act == 436_207_616
    weights, _, ctx, total = encoders.memory_bytes(m3.params, 2.0, act)
    assert weights == 1_135_509_504 and ctx == 2**30
    assert total == 1_135_509_504 + 436_207_616 + 2**30


def test_the_trial_reranker_on_a_t4_is_sized_as_one_pass_with_its_numbers_used():
    """'(568M)' is the user's size: 2 × 568e6 × 512 = 581,632,000,000 + 25,769,803,776 attention;
    a T4 sustains 24 TFLOPS (fp16) of its 65 under its 70 W cap (s39 fixs #2; 65 × 0.675 = 43.9 was
    assumed before) → 39.51 QPS a card; 200 QPS → ceil(5.06) = 6 T4."""
    a = answer("serve bge-reranker-v2-m3 (568M) on one T4 for 200 QPS, 512 tokens per pair")
    job = a.embedding
    assert isinstance(job, EmbeddingServe) and a.report is None
    assert (job.kind, job.params, job.tokens, job.qps, job.gpu, job.gpu_count) == (
        "reranker", 568e6, 512, 200.0, "T4", 1)  # fmt: skip
    assert job.per_card_qps == pytest.approx(24e12 / 607_401_803_776)
    assert job.cards == 6
    assert a.parsed.unused_numbers == []  # 200 QPS and 512 used, not 'not used'
    text = render(a, "text")
    assert "200 QPS" in text and "6 × T4" in text and "short of 200" in text
    assert "KV cache ×" not in text and "Decode" not in text and "Not used" not in text
    assert "(query, passage) pair" in text


def test_bge_m3_on_an_l4_is_answered_not_did_you_mean():
    a = answer("serve bge-m3 on one L4 for 500 QPS")
    assert isinstance(a.embedding, EmbeddingServe) and a.embedding.cards == 6  # 59.4 TFLOPS sustained (s39)
    text = render(a, "text")
    assert "Did you mean" not in text and "Gemma" not in text
    assert "500 QPS" in text and "6 × L4" in text
    assert "Assumed: 512 tokens a request" in text  # the tokens assumed, said so
    assert "--max-batch-tokens" in text and "67.5%" in text  # the batch and the MFU assumed, named


def test_the_cli_exits_zero_and_the_json_says_embedding():
    out = subprocess.run(
        [sys.executable, "-m", "bot", "ask", "--format", "json", "serve bge-m3 on one L4 for 500 QPS"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["answered"] == "embedding"
    assert data["embedding"]["gpus_needed"] == 6 and data["embedding"]["kind"] == "embedder"
    assert data["embedding"]["flops_per_request"] == 607_150_669_824
    assert "500 qps" not in json.dumps(data["interpretation"]).lower()


def test_a_zh_question_is_answered_in_zh_with_its_own_tokens():
    """bge-large-zh-v1.5 (BertModel 24 × 1024, 326M) at 256 tokens on a T4: 2 × 326e6 × 256 =
    166,912,000,000 + 4 × 24 × 256² × 1024 = 6,442,450,944 → 173,354,450,944 FLOPs; a T4's sustained
    24 TFLOPS (s39 fixs #2) / that = 138.4 QPS a card; 300 QPS → ceil(2.17) = 3 T4."""
    a = answer("用 bge-large-zh-v1.5 做向量检索，一张 T4，每秒 300 个请求，每条 256 token")
    job = a.embedding
    assert isinstance(job, EmbeddingServe)
    assert (job.tokens, job.qps, job.cards) == (256, 300.0, 3)
    assert job.per_card_qps == pytest.approx(24e12 / 173_354_450_944)
    text = render(a, "text")
    assert "需要 3 张" in text and "向量模型" in text and "假设：每个请求" not in text


def test_a_zh_reranker_pair_total_is_used_not_read_as_pretraining():
    a = answer("用 bge-reranker-v2-m3 做重排，一张 L4，每秒 50 个请求，每对 query+passage 共 400 token")
    job = a.embedding
    assert isinstance(job, EmbeddingServe) and job.kind == "reranker"
    assert (job.tokens, job.qps, job.cards) == (400, 50.0, 1)
    assert a.parsed.unused_numbers == []  # nor the model's name read as a runtime
    assert "够 50" in render(a, "text")


def test_an_embedder_inside_a_chat_name_uses_the_catalog_size():
    """gte-Qwen2-7B-instruct (read as Qwen2-7B inside its name): the catalog's 7.61B, not the name's 7B."""
    a = answer("部署 gte-Qwen2-7B-instruct 做嵌入服务，2 张 A10，100 qps")
    job = a.embedding
    assert isinstance(job, EmbeddingServe) and job.params == 7.613e9 and job.gpu_count == 2
    assert "不够 100" in render(a, "text")


def test_a_stated_mfu_is_used():
    """Qwen3-Embedding-8B, 2000 tokens, H100 989.4 TFLOPS × 0.40: 2 × 7,567,295,488 × 2000 +
    2 × 36 × 2000² × 4096 (causal) = 31,448,829,952,000 → 12.58 QPS."""
    a = answer("serve Qwen3-Embedding-8B on an H100, 2000 tokens per request, MFU 40%")
    job = a.embedding
    assert job.mfu == 0.4 and job.mfu_stated
    assert job.per_card_qps == pytest.approx(989.4e12 * 0.4 / 31_448_829_952_000)


def test_an_unknown_embedder_is_named_as_typed_and_its_size_asked():
    a = answer("部署 acme-embedding-large 向量模型，一张 T4，每秒 100 个请求")
    job = a.embedding
    assert isinstance(job, EmbeddingServe) and job.model == "acme-embedding-large" and job.params is None
    text = render(a, "text")
    assert "acme-embedding-large" in text and "参数量" in text and "你是不是指" not in text


@pytest.mark.parametrize(
    "question",
    [
        "serve Llama-3-8B on one A100, how much memory do the embeddings take?",
        "嵌入式设备上跑 Qwen2.5-7B 推理，一张 4090",
        "Qwen2.5-7B 做 RAG，向量库用 bge-m3，部署在 2 张 A100 上，100 并发",
        "Serve Qwen2.5-7B with 100 concurrent users, its embedding layer tied, on A100",
    ],
)
def test_a_chat_model_beside_embedding_words_stays_a_chat_question(question: str):
    a = answer(question)
    assert a.embedding is None and a.report is not None


def test_training_an_embedder_is_not_serving_it():
    a = answer("fine-tune bge-m3 on 1M pairs on one A100")
    assert not isinstance(a.embedding, EmbeddingServe)


def test_a_corpus_to_embed_stays_the_corpus_job():
    a = answer("embed 2 million documents with bge-m3 on one L4")
    assert a.embedding is not None and hasattr(a.embedding, "docs")
