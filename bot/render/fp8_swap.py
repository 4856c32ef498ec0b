"""The headline's words when the 16-bit weights are short of the user's GPUs and the answer is FP8 on them
(note ``released_weights_short``, estimator.serving_capacity.fp8_on_count), split from
:mod:`bot.render.serving_text` (500 lines): which precision, how many GPUs it needs, and why (s43: the
weights themselves, or one sequence's KV cache / the engine's workspace beside weights that fit)."""

from __future__ import annotations

from bot.render.fmt import Fmt
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
