"""The reply to an embedding job (:mod:`bot.core.embedding_job`, session 32 fixk #1): the corpus, the
model as typed, and the prefill-bound time with the tokens a document assumed — or, the model's size
unknown, what is needed to size it. Formats only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.i18n import N_, translate

if TYPE_CHECKING:
    from bot.core.embedding_job import EmbeddingJob
    from bot.core.embedding_serve import EmbeddingServe
    from bot.render.dialect import Dialect, Format

CORPUS = N_("Embedding job: %(docs)s documents encoded with “%(model)s”%(on)s (inference, no training).")
"""What was understood: the corpus, the model as typed, the card."""
ON_GPU = N_(" on %(gpus)s × %(gpu)s")
"""The card named."""
TIME = N_(
    "≈ %(hours)s hours: %(docs)s documents × %(per_doc)s tokens = %(tokens)s tokens, one forward pass each "
    "(prefill-bound: 2 × %(params)s parameters × tokens ÷ (peak × prefill MFU × GPUs))."
)
"""The time on a sized model and card."""
ASSUMED = N_("Assumed: %(per_doc)s tokens a document (a typical retrieval chunk); say yours to rescale.")
"""The tokens a document assumed."""
UNKNOWN = N_(
    "I don't know the size of “%(model)s”, so I can't time it: say its parameter count (e.g. “568M”) — "
    "time ≈ 2 × parameters × %(tokens)s tokens (%(docs)s × %(per_doc)s) ÷ (card peak × prefill MFU)."
)
"""The model's size unknown: what is needed, never another model's answer."""
NO_GPU = N_("Name the GPU (and how many) to get the time.")
"""No card named."""


def _params(n: float) -> str:
    """'568M', '7B'."""
    return f"{n / 1e9:.3g}B" if n >= 1e9 else f"{n / 1e6:.3g}M"


def embedding_text(job: EmbeddingJob | EmbeddingServe, lang: str, fmt: Format | Dialect = "html") -> str:
    """The reply's lines (module doc); the same words in every dialect (no markup). An encoder served
    (s38 embed): :func:`bot.render.embedding_serve_text.embedding_serve_text`."""
    if not hasattr(job, "docs"):  # served: QPS, no corpus
        from bot.render.embedding_serve_text import embedding_serve_text

        return embedding_serve_text(job, lang, fmt)  # type: ignore[arg-type]
    on = translate(lang, ON_GPU, gpus=job.gpus, gpu=job.gpu) if job.gpu else ""
    tokens = job.docs * job.tokens_per_doc
    model = job.model or (_params(job.params) if job.params else "?")
    lines = [translate(lang, CORPUS, docs=f"{job.docs:,}", model=model, on=on)]
    figures = {"docs": f"{job.docs:,}", "per_doc": job.tokens_per_doc, "tokens": f"{tokens:,}"}
    if job.params is None:
        lines.append(translate(lang, UNKNOWN, model=model, **figures))
    elif job.hours is None:
        lines.append(translate(lang, NO_GPU))
    else:
        hours = f"{job.hours:.1f}" if job.hours < 100 else f"{job.hours:,.0f}"
        lines.append(translate(lang, TIME, hours=hours, params=_params(job.params), **figures))
    if not job.per_doc_stated:  # their tokens a document: used, not assumed
        lines.append(translate(lang, ASSUMED, per_doc=job.tokens_per_doc))
    return "\n".join(lines)
