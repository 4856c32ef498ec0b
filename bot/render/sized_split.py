"""The layout a serving answer's recommended count is sized on, when it is not the user's (s43 fixverdict #4).

A stated TP (``--tp 16`` of an SGLang command) that does not hold the model on the user's GPUs leaves the
fewest count to the search's own split: DeepSeek-V3 bf16 on Ascend 910B needs 40 cards as TP 8 × PP 5
(estimator.inference ``_layouts``, ``Inference.min_split``), and the reply said '40 recommended (TP=16)':
the count's label must be the layout sized, with the user's TP named as theirs.
"""

from __future__ import annotations

from bot.render.i18n import N_, translate
from estimator.models import Inference, SizingReport

YOURS = N_("; your TP=%(tp)s is %(n)s GPUs")
"""The user's tensor-parallel group after the split the recommended count is sized on."""


def sized_split(report: SizingReport, inf: Inference, lang: str) -> str:
    """'TP=8 × PP=5; your TP=16 is 16 GPUs' when the recommended count is the fewest's split and not the
    shown layout's (TP × PP × replicas of the user's stated group); '' otherwise. Called only where
    ``inf.min_split`` is set and the counts differ (the caller's cheap test)."""
    split = inf.min_split
    if split is None or inf.recommended_gpus != inf.min_gpus or split[0] * split[1] != inf.min_gpus:
        return ""
    if report.request.tp is None or split == (inf.tp, inf.pp):
        return ""
    text = f"TP={split[0]}" + (f" × PP={split[1]}" if split[1] > 1 else "")
    return text + translate(lang, YOURS, tp=inf.tp, n=inf.tp * inf.pp)
