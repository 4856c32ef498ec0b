"""An embedding or reranker model served (session 38 embed): 'serve bge-reranker-v2-m3 on one T4 for 200
QPS, 512 tokens per pair', '用 bge-m3 做向量检索服务，一张 L4，每秒 300 个请求'.

One forward pass a request (:mod:`estimator.encoders`): no decode and no KV cache, so the answer is the
QPS one card serves (peak × MFU / FLOPs a request), the cards a stated QPS needs, the compute time a
request, and the memory a card (weights + one batch's activations + the CUDA context). Before, such a
question was sized as a chat model (a KV cache for 16 sequences, a decode speed; the QPS and the tokens
named as not used), or, the model unknown, answered 'Did you mean Gemma-3-4B'.

Asked when the message names a catalog embedder/reranker (bge, gte, e5, Qwen3-Embedding/Reranker), or an
unknown model beside an embedding/rerank word, or no model but a size, such a word and a QPS; never for a
catalog chat model ('serve Llama-3-8B … the embeddings' memory' stays a chat question) nor for training."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core.embedding_job import EMBED_RE

if TYPE_CHECKING:
    from bot.parse import ParseResult
    from estimator.request import SizingRequest

RERANK_RE = re.compile(r"\brerank(?:s|er|ers|ing)?\b|重排|精排")
"""A reranking word: rerank(er), 重排(序), 精排."""
_RATES = frozenset({"qps_needs_output", "per_user_rate", "current_load"})
"""The request-rate readings of the parse (bot.parse.rate_forms): the QPS of an encoder served."""
_RATE_NUMBER_RE = re.compile(r"(\d+(?:\.\d+)?)\s*([kK千万]?)")
_QPS_RE = re.compile(
    r"(\d+(?:\.\d+)?)\s*([k千万]?)\s*(?:qps|rps|req/s|requests?\s*(?:/\s*s|per\s+sec(?:ond)?|a\s+second)\b"
    r"|queries\s+per\s+second)|每秒\s*约?\s*(\d+(?:\.\d+)?)\s*([千万]?)\s*(?:个|次|条)?\s*(?:请求|查询)"
)
"""A request rate in the (normalized, lower-case) text, once the parse's reading of it is used."""
_TOKENS_RE = re.compile(r"(\d[\d,]*)\s*(?:tokens?\b|词元|个\s*token)")
"""'512 tokens per pair', '每条 256 token': the tokens of one request (or pair)."""
_SCALE = {"": 1.0, "k": 1e3, "K": 1e3, "千": 1e3, "万": 1e4}


@dataclass(frozen=True, slots=True)
class EmbeddingServe:
    """The served encoder on the user's figures (module doc); ``params`` None: its size unknown (not in
    the catalog, none said); ``gpu`` None: no card named (or not in the GPU catalog)."""

    model: str
    kind: str  # 'embedder', 'reranker' or '' (a model not in the catalog)
    params: float | None
    tokens: int
    tokens_stated: bool
    qps: float | None
    gpu: str | None
    gpu_count: int | None
    source: str | None = None
    shape: tuple[int, int, int, int, int] | None = (
        None  # layers, hidden, heads, vocab, max_position_embeddings
    )
    flops: float = 0.0
    attention_flops: float = 0.0
    mfu: float = 0.0
    mfu_stated: bool = False
    peak_tflops: float = 0.0
    per_card_qps: float = 0.0
    cards: int = 0
    per_copy: int = 1
    ms: float = 0.0
    weights: float = 0.0
    activations: float = 0.0
    context: float = 0.0
    total: float = 0.0
    card_bytes: float = 0.0
    sustained: tuple[float, str] | None = None  # a power-limited card's sustained TFLOPS and source (s39)


def is_embedding_serve(parsed: ParseResult) -> bool:
    """An encoder served (module doc). Called by :func:`bot.core.embedding_job.is_embedding_job` once
    the message holds an unknown model or one of its cues (``SERVE_CUES``, C ``in`` tests)."""
    req = parsed.request
    if req.num_samples or (req.stage not in (None, "inference") and not _request_tokens(parsed)):
        return False
    text = parsed.normalized or ""  # its cues (bot.core.embedding_job.SERVE_CUES) asked by the caller
    from estimator.encoders import find

    if (enc := find(text)) is None and req.model and req.requests_per_hour:  # a follow-up of one (s38 embfix)
        return find(req.model) is not None
    if enc is not None:  # a chat model named on its own beside it: a chat question
        return not _chat_beside(text, parsed.model_typed if parsed.request.model else None, enc)
    worded = EMBED_RE.search(text) is not None or RERANK_RE.search(text) is not None
    if parsed.unknown_model is not None:  # an unknown model beside 'embedding', '向量', 'rerank': one of them
        return worded
    rate = any(why in _RATES for _, why in parsed.unused_numbers) or _QPS_RE.search(text) is not None
    return worded and req.model is None and req.params_total is not None and rate


def _chat_beside(text: str, typed: str | None, enc: Any) -> bool:
    """Whether the catalog chat model the parse read (``typed``) is named outside the encoder's name:
    'Qwen2.5-7B 做 RAG，向量库用 bge-m3' is the chat model's question; 'gte-Qwen2-7B-instruct' (read as
    Qwen2-7B inside the embedder's name) is the embedder's."""
    if not typed:
        return False
    for alias in enc.aliases:
        text = text.replace(alias, " ")
    return typed.lower() in text


def _qps(parsed: ParseResult) -> tuple[float | None, str | None]:
    """The request rate the parse named (its number, the text it named), else the text's (once used:
    :func:`encoder_read`), or (None, None)."""
    for said, why in parsed.unused_numbers:
        if why in _RATES and (m := _RATE_NUMBER_RE.search(said)):
            return float(m.group(1)) * _SCALE[m.group(2)], said
    if m := _QPS_RE.search(parsed.normalized or ""):
        number, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return float(number) * _SCALE[scale or ""], None
    hourly = parsed.request.requests_per_hour  # a follow-up: the answer before's (served_request)
    return (hourly / 3600, None) if hourly else (None, None)


REQUEST_TOKENS_MAX = 100_000
"""Above this, a bare token count is a corpus, not one request (the longest embedder window, gte-Qwen2's,
is 131,072; a request of 512–8,192 is the rule)."""


def _request_tokens(parsed: ParseResult) -> bool:
    """'… 共 400 token' with no stage word: the parse guessed pre-training from a token count alone; a
    count this small is one request's (a reranker pair's), not a corpus."""
    req = parsed.request
    return parsed.stage_word is None and req.tokens is not None and req.tokens <= REQUEST_TOKENS_MAX


def _tokens(parsed: ParseResult) -> tuple[int | None, str | None]:
    """The tokens a request: the parse's (a sequence length, tokens a sample or a request), else '512
    tokens' in the text (then the number the parse named unread)."""
    req = parsed.request
    stated = req.seq_len if "seq_len" in parsed.found else None  # a follow-up's new length first
    stated = stated or req.tokens_per_request or req.tokens_per_sample or req.seq_len
    stated = stated or (req.tokens if _request_tokens(parsed) else None)
    if stated:
        return int(stated), None
    if m := _TOKENS_RE.search(parsed.normalized or ""):
        return int(m.group(1).replace(",", "")), m.group(1)
    return None, None


def _found(text: str) -> Any:
    """The catalog encoder ``text`` names (estimator.encoders.find), or None."""
    from estimator.encoders import find

    return find(text)


def encoder_read(parsed: ParseResult) -> ParseResult:
    """``parsed`` with the QPS and the tokens a request this answer uses out of its unused numbers (an
    encoder served: they are used, not 'not used'); unchanged for any other message."""
    if not is_embedding_serve(parsed):
        return parsed
    _, rate = _qps(parsed)
    _, tokens = _tokens(parsed)
    used = {rate, tokens} - {None}
    enc = _found(parsed.normalized or "")
    names = enc.aliases if enc else ()  # 'runtime: bge-m3': the model, read as a runtime's name
    kept = [
        (said, why)
        for said, why in parsed.unused_numbers
        if said.strip() not in used and not (why == "runtime_not_modelled" and said.lower().endswith(names))
    ]
    return (
        parsed.model_copy(update={"unused_numbers": kept})
        if len(kept) != len(parsed.unused_numbers)
        else parsed
    )


_SIZE_RE = re.compile(r"\d(?:\.\d+)?\s*(?:[mb]\b|亿|百万|million|billion)")
"""A parameter count said beside a catalog name ('bge-reranker-v2-m3 (568M)'): the user's, used."""


def _size_said(text: str, enc: Any) -> bool:
    """Whether ``text`` states a size outside the encoder's name ('Qwen3-Embedding-8B' alone: the
    catalog's 7.57B, not the name's 8B; 'gte-Qwen2-7B-instruct' misread as Qwen2-7B: the catalog's)."""
    for alias in enc.aliases:
        text = text.replace(alias, " ")
    return _SIZE_RE.search(text) is not None


def embedding_serve(parsed: ParseResult) -> EmbeddingServe:
    """The served encoder sized on the user's figures (module doc); the model named as typed."""
    from estimator import catalog, encoders

    req = parsed.request
    enc = encoders.find(parsed.normalized or "") or (encoders.find(req.model) if req.model else None)
    name = enc.id if enc else (parsed.unknown_model or parsed.model_typed or "")
    params = req.params_total if enc is None or _size_said(parsed.normalized or "", enc) else enc.params
    stated, _ = _tokens(parsed)
    tokens = stated or encoders.DEFAULT_TOKENS
    qps, _ = _qps(parsed)
    gpu = catalog.resolve_gpu(req.gpu) if req.gpu else None
    from bot.core.actions import gpu_label

    label = gpu_label(req.gpu) if req.gpu else None
    kind = enc.kind if enc else ("reranker" if RERANK_RE.search(parsed.normalized or "") else "")
    shape = (enc.layers, enc.hidden, enc.heads, enc.vocab, enc.max_position_embeddings) if enc else None
    source = enc.source if enc else None
    base = EmbeddingServe(
        str(name), kind, params, tokens, stated is not None, qps, label, req.gpu_count, source, shape
    )
    if params is None or gpu is None or not gpu.peak_flops_16bit:
        return base
    return _sized(base, enc, float(params), gpu, req.mfu)


def _sized(
    base: EmbeddingServe, enc: object, params: float, gpu: object, mfu: float | None
) -> EmbeddingServe:
    """``base`` with its FLOPs, QPS a card, cards and memory (estimator.encoders)."""
    import math
    from dataclasses import replace

    from estimator import encoders
    from estimator.serving_speed import FITTED, SUSTAINED_TFLOPS_16BIT, power_capped_mfu

    linear, attn = encoders.request_flops(params, base.tokens, enc)
    rate = mfu or power_capped_mfu(gpu, FITTED.prefill_mfu)  # an L4 holds 59.4 of 121 TFLOPS (s39 fixs #2)
    sustained = None if mfu or rate == FITTED.prefill_mfu else SUSTAINED_TFLOPS_16BIT.get(gpu.id)
    peak = gpu.peak_flops_16bit
    hidden = enc.hidden if enc else 1024
    act = encoders.activation_bytes(enc, hidden, encoders.MAX_BATCH_TOKENS, 2.0)
    weights, act, ctx, total = encoders.memory_bytes(params, 2.0, act)
    card = gpu.addressable_bytes  # what CUDA exposes: an L4 23,034 MiB with ECC on (s39 fixs #3)
    per_copy = max(1, math.ceil(total / card)) if total > card else 1
    per_card = encoders.qps_per_card(linear + attn, peak, rate)
    cards = encoders.cards_for(base.qps, per_card * per_copy) * per_copy if base.qps else per_copy
    ms = (linear + attn) / (peak * rate * per_copy) * 1000
    return replace(
        base, flops=linear, attention_flops=attn, mfu=rate, mfu_stated=bool(mfu), peak_tflops=peak / 1e12,
        per_card_qps=per_card, cards=cards, per_copy=per_copy, ms=ms, weights=weights, activations=act,
        context=ctx, total=total, card_bytes=card, sustained=sustained,
    )  # fmt: skip


def served_request(request: SizingRequest, job: Any) -> SizingRequest:
    """``request`` with what a follow-up needs to re-size the same encoder ('那换成A10呢', 'what about on
    L40S?'; s38 embfix): the catalog id as ``model``, the QPS (as ``requests_per_hour``, QPS × 3600), the
    tokens a request when said; the card is the request's own."""
    from estimator import encoders

    if (
        not isinstance(job, EmbeddingServe)
        or job.kind == ""
        or job.qps is None
        or encoders.find(job.model) is None
    ):
        return request
    update: dict[str, Any] = {"model": job.model, "requests_per_hour": job.qps * 3600}
    if job.tokens_stated:
        update["tokens_per_request"] = job.tokens
    return request.model_copy(update=update)
