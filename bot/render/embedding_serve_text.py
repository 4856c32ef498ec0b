"""The reply to an embedding or reranker model served (:mod:`bot.core.embedding_serve`, session 38 embed):
the QPS a card serves and the cards a stated QPS needs, the compute time a request, the memory a card,
and every assumption (tokens a request, MFU, batch tokens, the shape's source). Formats only."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from bot.render.fmt import sci
from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.embedding_serve import EmbeddingServe
    from bot.render.dialect import Dialect, Format

KIND = {
    "embedder": N_("embedding model"),
    "reranker": N_("reranker"),
    "": N_("embedding/reranker model"),
}
"""What the model is."""
HEAD = N_("“%(model)s” (%(kind)s) served: one forward pass a request — no decode, no KV cache.")
"""What was understood."""
CARDS = N_("%(qps)s QPS at %(tokens)s tokens a request → %(cards)s × %(gpu)s (one: ≈ %(per_card)s QPS).")
"""A stated QPS: the cards it needs."""
THEIRS_SHORT = N_("Your %(count)s × %(gpu)s: ≈ %(theirs)s QPS, short of %(qps)s; %(cards)s are needed.")
THEIRS_OK = N_("Your %(count)s × %(gpu)s: ≈ %(theirs)s QPS, enough for %(qps)s.")
PER_CARD = N_("One %(gpu)s serves ≈ %(per_card)s QPS at %(tokens)s tokens a request.")
"""No QPS stated: the capacity a card."""
COMPUTE = N_(
    "Compute a request: ≈ %(ms)s ms — %(flops)s FLOPs (2 × %(params)s parameters × %(tokens)s tokens "
    "+ attention %(attn)s) at %(peak)s TFLOPS × MFU %(mfu)s."
)
MEMORY = N_(
    "Memory a card: weights %(weights)s GiB + activations of a %(batch)s-token batch %(act)s GiB "
    "+ CUDA context %(ctx)s GiB ≈ %(total)s GiB; each card has %(card)s GiB."
)
"""In GiB, what CUDA exposes of a card (``GpuSpec.addressable_bytes``, nvidia-smi memory.total: an L4's
23,034 MiB with ECC on = 22.5 GiB of its 24 GiB of GDDR6; s39 fixs #3), one unit a line, as the serving
answers write a card's memory (s38 embfix #2: not '共 25.8 GB', read as a total of all cards)."""
NO_FIT = N_("It does not fit on one %(gpu)s: %(per_copy)s cards a copy (tensor parallel).")
PAIR = N_("A reranker scores each (query, passage) pair in one pass: the %(tokens)s tokens are the pair's.")
TOO_LONG = N_("%(tokens)s tokens pass its max_position_embeddings (%(limit)s): the input is truncated there.")
TOKENS_ASSUMED = N_("Assumed: %(tokens)s tokens a request (a typical retrieval chunk); say yours to rescale.")
MFU_ASSUMED = N_(
    "Assumed: MFU %(mfu)s, the prefill MFU fitted to vLLM's measured prefill (estimator.serving_speed); "
    "say yours (“MFU 40%%”) to rescale."
)
MFU_STATED = N_("MFU %(mfu)s: yours.")
MFU_CAPPED = N_(
    "Assumed: MFU %(mfu)s — the fitted prefill MFU %(fitted)s capped at the %(sustained)s TFLOPS one "
    "%(gpu)s sustains in a long 16-bit matmul under its power limit, of the %(peak)s at its boost clock "
    "(%(source)s); say yours (“MFU 40%%”) to rescale."
)
"""A power-limited card (L4, T4: estimator.serving_speed.SUSTAINED_TFLOPS_16BIT; s39 fixs #2)."""
BATCH = N_(
    "Batch: %(batch)s tokens, text-embeddings-inference's --max-batch-tokens default (its warm-up takes that "
    "memory at start-up); sentence-transformers batches 32 texts."
)
SHAPE = N_(
    "Shape: %(layers)s layers, hidden %(hidden)s, %(heads)s heads, vocab %(vocab)s, max_position_embeddings "
    "%(limit)s (%(source)s)."
)
NO_SHAPE = N_(
    "Shape unknown: no attention term; activations at a 1024-wide model (BERT-large's). "
    "Paste its config.json for its own."
)
UNKNOWN = N_(
    "I don't know the size of “%(model)s”: say its parameter count (e.g. “568M”) — QPS a card ≈ peak × MFU ÷ "
    "(2 × parameters × %(tokens)s tokens)."
)
NO_GPU = N_("Name the GPU (and how many) to get the QPS a card and the cards.")
FORMULA = N_("QPS a card = peak × MFU ÷ FLOPs a request; FLOPs = 2·N·s + 4·L·s²·d (Kaplan et al. 2020 §2.1).")


def _n(x: float) -> str:
    """'72.2', '1,234'."""
    return f"{x:.1f}" if x < 100 else f"{x:,.0f}"


def _pct(x: float) -> str:
    """'67.5%', '40%'."""
    return f"{x * 100:.1f}".rstrip("0").rstrip(".") + "%"


def _gib(b: float) -> str:
    """GiB to one decimal, '.0' dropped for a card's round size ('24', '2.4')."""
    return f"{b / 2**30:.1f}".removesuffix(".0")


def _params(n: float) -> str:
    """'568M', '7.61B'."""
    return f"{n / 1e9:.3g}B" if n >= 1e9 else f"{n / 1e6:.3g}M"


def embedding_serve_text(job: EmbeddingServe, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply's lines (module doc); the same words in every dialect (no markup)."""
    t = partial(translate, lang)
    model = job.model or (_params(job.params) if job.params else "?")  # 'an embedding model of 335M'
    lines = [t(HEAD, model=model, kind=t(KIND[job.kind]))]
    if job.params is None:
        lines.append(t(UNKNOWN, model=job.model, tokens=job.tokens))
    elif not job.per_card_qps:
        lines.append(t(NO_GPU))
    else:
        lines.extend(_sized_lines(job, t))
    if job.kind == "reranker":
        lines.append(t(PAIR, tokens=job.tokens))
    if job.shape and job.tokens > job.shape[4]:
        lines.append(t(TOO_LONG, tokens=job.tokens, limit=job.shape[4]))
    if not job.tokens_stated:
        lines.append(t(TOKENS_ASSUMED, tokens=job.tokens))
    if job.per_card_qps:
        lines.append(_mfu_line(job, t))
        lines.append(t(BATCH, batch="16,384"))
        lines.append(t(FORMULA))
    if job.shape and job.source:
        layers, hidden, heads, vocab, limit = job.shape
        lines.append(t(SHAPE, layers=layers, hidden=hidden, heads=heads, vocab=f"{vocab:,}", limit=limit,
                       source=job.source))  # fmt: skip
    elif job.per_card_qps:
        lines.append(t(NO_SHAPE))
    return "\n".join(lines)


def _mfu_line(job: EmbeddingServe, t: Any) -> str:
    """The MFU assumed: the user's, the fitted one, or the fitted one capped on a power-limited card."""
    if job.sustained is None:
        return t(MFU_STATED if job.mfu_stated else MFU_ASSUMED, mfu=_pct(job.mfu))
    from estimator.serving_speed import FITTED

    tflops, source = job.sustained
    return t(MFU_CAPPED, mfu=_pct(job.mfu), fitted=_pct(FITTED.prefill_mfu), sustained=f"{tflops:g}",
             gpu=job.gpu, peak=f"{job.peak_tflops:g}", source=source)  # fmt: skip


def _sized_lines(job: EmbeddingServe, tr: Any) -> list[str]:
    """The QPS, cards, compute and memory lines of a sized job (``tr``: translate in the reply's language)."""
    gpu, per_card = job.gpu, _n(job.per_card_qps)
    lines = []
    if job.qps:
        qps = f"{job.qps:,g}"
        lines.append(tr(CARDS, qps=qps, tokens=job.tokens, cards=job.cards, gpu=gpu, per_card=per_card))
        if job.gpu_count:
            copies = job.gpu_count // job.per_copy
            theirs = _n(job.per_card_qps * job.per_copy * copies)
            short = copies * job.per_copy * job.per_card_qps < job.qps
            msg = THEIRS_SHORT if short else THEIRS_OK
            lines.append(tr(msg, count=job.gpu_count, gpu=gpu, theirs=theirs, qps=qps, cards=job.cards))
    else:
        lines.append(tr(PER_CARD, gpu=gpu, per_card=per_card, tokens=job.tokens))
    lines.append(
        tr(
            COMPUTE,
            ms=f"{job.ms:.1f}",
            flops=sci(job.flops + job.attention_flops),
            params=_params(job.params or 0),
            tokens=job.tokens,
            attn=sci(job.attention_flops),
            peak=f"{job.peak_tflops:g}",
            mfu=_pct(job.mfu),
        )
    )
    lines.append(
        tr(
            MEMORY,
            weights=_gib(job.weights),
            batch="16,384",
            act=_gib(job.activations),
            ctx=_gib(job.context),
            total=_gib(job.total),
            card=_gib(job.card_bytes),
        )
    )
    if job.per_copy > 1:
        lines.append(tr(NO_FIT, gpu=gpu, per_copy=job.per_copy))
    return lines
