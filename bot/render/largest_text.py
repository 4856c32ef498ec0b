"""The "which model fits these GPUs" section: serving per weight format (:mod:`estimator.largest`) and
fine-tuning per method (:mod:`estimator.largest_trained`), split from :mod:`bot.render.serving_text`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.notes import context_len
from estimator import catalog
from estimator.models import SizingReport

if TYPE_CHECKING:
    from bot.render.contexts import LargestContext

LARGEST_FORMATS = {
    "bf16": N_("16-bit"),
    "int8": N_("8-bit (W8A16 / FP8)"),
    "int4": N_("4-bit (GPTQ/AWQ)"),
    "q8_0": N_("8-bit (GGUF Q8_0)"),
    "q4_k_m": N_("4-bit (GGUF Q4_K_M)"),
}
"""How the weight formats of :mod:`estimator.largest` are named in a reply."""
LARGEST_METHODS = {
    "full": N_("full fine-tuning"),
    "lora": N_("LoRA"),
    "qlora": N_("QLoRA (4-bit base)"),
}
"""How the methods of :mod:`estimator.largest_trained` are named in a reply (others: their value)."""


def largest_section(report: SizingReport, f: Fmt) -> LargestContext | None:
    """'一张4090能跑多大的模型' / '8张4090最大能全参微调多大的模型': per weight format or method, the
    largest size that fits and catalog examples."""
    served, trained = report.largest_served, report.largest_trained
    if not served and not trained:
        return None
    req = report.request
    labelled = (
        [(LARGEST_FORMATS.get(r.precision.value, r.precision.value), r) for r in served]
        if served
        else [(LARGEST_METHODS.get(r.method.value, r.method.value), r) for r in trained or ()]
    )
    rows = []
    for label, row in labelled:
        names = [catalog.model(m).name for m in row.examples]
        size = float(f"{row.params_max:.2g}") if row.params_max else None  # a 2 % search: two digits
        tight = getattr(row, "params_tight", None)  # fine-tuning rows: the borderline bound
        rows.append({"format": translate(f.lang, label), "params": f.params(size) if size else None,
                     "tight": f.params(float(f"{tight:.2g}")) if tight else None,
                     "examples": ("、" if f.lang == "zh" else ", ").join(names)})  # fmt: skip
    rows_fit = [r for r in rows if r["params"]]
    best = (rows_fit[-1] if served else rows_fit[0]) if rows_fit else None  # 4-bit last; full first
    return {
        "trained": not served,
        "gpus": f.int(req.gpu_count or 1),
        "context": context_len(req.seq_len or 0),
        "concurrency": f.int(req.concurrency or 1),
        "rows": rows,
        "best": best,
    }
