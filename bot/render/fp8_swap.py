"""The headline's words when the 16-bit weights are short of the user's GPUs and the answer is FP8 on them
(note ``released_weights_short``, estimator.serving_capacity.fp8_on_count), split from
:mod:`bot.render.serving_text` (500 lines): which precision, how many GPUs it needs, and why (s43: the
weights themselves, or one sequence's KV cache / the engine's workspace beside weights that fit)."""

from __future__ import annotations

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from estimator.models import SizingReport


def fp8_swap(report: SizingReport, f: Fmt) -> dict[str, str] | None:
    """The 16-bit weights that do not fit the user's count when the answer is FP8 on it (note
    ``released_weights_short``, estimator.serving_capacity.fp8_on_count): their precision and the GPUs
    they need, and ``cause``: "kv" or "workspace" when the weights themselves fit (else ""); None
    otherwise."""
    note = next((w for w in report.warnings if w.code == "released_weights_short"), None)
    if note is None:
        return None
    cause = "kv" if "kv_in_gib" in note.params else "workspace" if "workspace_in_gib" in note.params else ""
    # s43 (cause): the weights fit, one sequence's KV cache or the workspace beside them does not
    return {
        "released": str(note.params.get("precision")),
        "min": f.int(note.params.get("min_gpus") or 0),
        "cause": cause,
    }


UNSWAPPED = N_(
    "not in %(precision)s — its weights and one sequence need %(min)s GPUs (the figures below); only with "
    "FP8 weights on your %(n)s — standard on this GPU, check quality"
)
"""The 'fp8_only' verdict over 16-bit figures (:func:`fp8_unswapped`); params precision, min, n."""


def fp8_unswapped(report: SizingReport, f: Fmt, lang: str) -> str | None:
    """The headline's verdict when FP8 weights would fit the user's count (verdict 'fp8_only',
    estimator.serving_verdict.serving_verdict) but the answer stays in their 16-bit weights — one GeForce
    card with vLLM keeps its own sizing (estimator.serving_capacity.fits_only_in_fp8: a personal machine),
    so no ``released_weights_short`` swap: first what their precision does (the GPUs its weights and one
    sequence need: ``Inference.min_gpus``, the figures below), then what fits (FP8 on their count). Before,
    'only with FP8 weights' stood over bf16 details on 2 GPUs (s45 review #6: RTX 5060 Ti, RTX 4080). None
    when the answer was swapped to FP8 (:func:`fp8_swap` words it) or is not 16-bit."""
    inf = report.inference
    if inf is None or inf.weight_format not in ("bf16", "fp16") or fp8_swap(report, f) is not None:
        return None
    n = report.request.gpu_count or 1
    return translate(lang, UNSWAPPED, precision=inf.weight_format, min=f.int(inf.min_gpus), n=f.int(n))
