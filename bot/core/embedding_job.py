"""An embedding job: a corpus encoded by an embedding model (session 32 fixk #1).

'embed 2 million documents with bge-m3 on one L4', '用 bge-m3 给 200 万篇文档做向量化': inference over a
corpus, not serving a chat model nor training on samples. One forward pass per token, no decode, so
the job is prefill-bound: time = 2·N·tokens / (peak × prefill MFU × GPUs) (docs/design.md §3.4,
:func:`estimator.serving_speed.prefill_seconds`), at an assumed :data:`TOKENS_PER_DOC` tokens a
document unless one is said. The model is named as typed; with no size known (not in the catalog, none
said) the reply
says so and what is needed — never another model's headline. Before, the reply was the card's largest
chat model, 'Did you mean Gemma-3-4B', and the documents 'a training setting'."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.embedding_serve import EmbeddingServe
    from bot.parse import ParseResult

EMBED_RE = re.compile(
    r"(?<![a-z0-9_])(?:embed(?:s|ding|dings)?|encod(?:e|es|ing)|vectori[sz](?:e|es|ing|ation))(?![a-z0-9_])"
    r"|向量化|嵌入(?!式)|(?:编码|转|转换)(?:成|为)向量|做向量"
)
"""The job's verb: embedding, encoding or vectorising (a corpus); not '嵌入式' (embedded systems) nor a
bare '编码器' (an encoder being trained). An English verb is bounded by Latin word characters only, so
one glued to Chinese ('做embedding', s42 trial #2) is read: ``\\b`` in a Unicode pattern sees no edge
between 做 and e."""
SERVE_CUES = ("embed", "rerank", "bge", "gte-", "e5-", "向量", "嵌入", "重排", "精排")
"""The words and name parts of an encoder served (bot.core.embedding_serve), asked before it is imported."""
TOKENS_PER_DOC = 512
"""Tokens a document or chunk when none is said: a typical retrieval chunk (512 is the input limit of
BERT-sized embedding models such as bge-large and e5-large)."""


@dataclass(frozen=True, slots=True)
class EmbeddingJob:
    """``docs`` documents encoded by ``model`` (as typed) on ``gpus`` × ``gpu``; ``params`` its size
    (None: unknown) and ``hours`` the prefill-bound time (None: not sized)."""

    model: str
    docs: int
    tokens_per_doc: int
    gpu: str | None
    gpus: int
    params: float | None
    hours: float | None
    per_doc_stated: bool = False


def is_embedding_job(parsed: ParseResult) -> bool:
    """A corpus to encode (documents or chunks read as samples) beside an embedding verb, in a question
    not about training ('fine-tune bge-m3 on 1M pairs' trains the embedding model)."""
    req = parsed.request
    if not req.num_samples:  # no corpus: an embedder or reranker served, perhaps (s38 embed)
        if parsed.unknown_model is None and not (req.model and req.requests_per_hour):  # cues in C first
            text = parsed.normalized or ""
            for cue in SERVE_CUES:
                if cue in text:
                    break
            else:
                return False
        from bot.core.embedding_serve import is_embedding_serve

        return is_embedding_serve(parsed)
    own_tokens = req.tokens and not req.tokens_per_sample  # a token count of its own: not docs × tokens each
    if own_tokens or req.stage not in (None, "inference"):  # training one: not this
        return False
    return EMBED_RE.search(parsed.normalized or "") is not None


def figures_used(parsed: ParseResult) -> ParseResult:
    """An encoder served: ``parsed`` with its QPS and tokens a request out of the unused numbers
    (:func:`bot.core.embedding_serve.encoder_read`); any other message unchanged."""
    if parsed.request.num_samples:
        return parsed
    from bot.core.embedding_serve import encoder_read

    return encoder_read(parsed)


def embedding_job(parsed: ParseResult) -> EmbeddingJob | EmbeddingServe | None:
    """The job on the user's figures (module doc), an encoder served (:mod:`bot.core.embedding_serve`,
    s38), or None when the message is neither."""
    if not is_embedding_job(parsed):
        return None
    req = parsed.request
    if not req.num_samples:  # served: QPS, not a corpus
        from bot.core.embedding_serve import embedding_serve

        return embedding_serve(parsed)
    name = parsed.unknown_model or parsed.model_typed or req.model or ""
    params = req.params_total
    if params is None and req.model:
        from estimator import catalog

        params = catalog.model(req.model).params_total
    if params is None:  # s42 trial #3: an encoder of the catalog ('bge-m3': 568M, its config.json)
        from estimator.encoders import find

        enc = find(parsed.normalized or "")
        params = enc.params if enc is not None else None
    gpus = req.gpu_count or 1
    stated = req.tokens_per_sample or req.seq_len  # 'chunks of 256 tokens', '每篇约 300 token'
    per_doc = int(stated) if stated else TOKENS_PER_DOC
    hours = label = None
    if req.gpu:
        from bot.core.actions import gpu_label
        from estimator import catalog
        from estimator.serving_speed import prefill_seconds

        gpu = catalog.resolve_gpu(req.gpu)
        label = gpu_label(req.gpu)
        if params and gpu is not None:
            hours = prefill_seconds(float(params), int(req.num_samples) * per_doc, gpu, gpus) / 3600
    return EmbeddingJob(str(name), int(req.num_samples), per_doc, label, gpus, params, hours, bool(stated))
