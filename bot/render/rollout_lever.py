"""RL rollouts that TRL's trainer decodes itself (``use_vllm`` False, its GRPOConfig default:
trl/trainer/grpo_config.py, ``use_vllm: bool = field(default=False, …)``) and that take most of the
GPU-hours: the headline says its time includes them, and the body names ``use_vllm: true`` as the lever
with its figure (s40-fixh #6: the decode dominated the time, said only in a ⚠ line).

The figure is the estimator's own: eager ``model.generate`` is timed at the compiled engine's decode
speed ÷ :data:`estimator.trainer_decode.EAGER_SLOWDOWN` (transformers' "up to a 4x speed up" of a static
cache with ``torch.compile``), so a vLLM engine at the same batch decodes the same tokens in ÷ 4 the
GPU-hours; vLLM's larger batches (paged KV cache, continuous batching) are faster still, so it is the
lever's conservative end. Imported by :func:`bot.render.sections.training_section` only for such a run.
"""

from __future__ import annotations

from typing import Any

from bot.render.fmt import Fmt
from bot.render.i18n import N_, translate
from bot.render.plan_text import gpus_text
from estimator.models import SizingReport
from estimator.shown_cost import quoted_gpu_hours
from estimator.trainer_decode import EAGER_SLOWDOWN

HEAD = N_(" — rollouts included: %(hours)s of the %(gh)s GPU-hours are model.generate (use_vllm off)")
"""The headline's note when the trainer's own decode is most of the GPU-hours."""

LEVER = N_(
    "use_vllm: true decodes them in vLLM (TRL's GRPOConfig default is False): ≈ %(fast)s instead of "
    "%(hours)s GPU-hours at the same batch, ≈ %(total)s GPU-hours in all (%(time)s on %(gpus)s)"
)
"""The lever and its figure, under the rollouts' line."""


def rollout_lever(report: SizingReport, t: dict[str, Any], f: Fmt) -> None:
    """Add :data:`HEAD` to the headline's clause keys ``t`` holds (``tight``: the user's count,
    ``within``: the deadline's, ``years``: a yes/no question's) and :data:`LEVER` to ``t['rollout']``,
    when the rollouts decoded in the trainer are over half of the likely GPU-hours."""
    ro, gh = report.rollout, report.gpu_hours
    if ro is None or gh is None or not ro.in_trainer or ro.gpu_hours <= 0.5 * gh.likely or "rollout" not in t:
        return
    lang = f.lang
    head = translate(lang, HEAD, hours=f.hours(quoted_gpu_hours(ro.gpu_hours)), gh=t.get("gh", ""))
    for key in ("tight", "within", "years"):
        if key in t:
            t[key] += head
    fast = ro.gpu_hours / EAGER_SLOWDOWN
    total = gh.likely - ro.gpu_hours + fast
    n = report.days.gpus if report.days is not None else report.gpus_for_deadline or 1
    hours = total / n
    time = (
        translate(lang, N_("≈ %(n)s hours"), n=f.hours(hours))
        if hours < 24
        else translate(lang, N_("≈ %(n)s days"), n=f.days(hours / 24))
    )
    t["rollout"]["lever"] = translate(
        lang,
        LEVER,
        fast=f.hours(quoted_gpu_hours(fast)),
        hours=f.hours(quoted_gpu_hours(ro.gpu_hours)),
        total=f.hours(quoted_gpu_hours(total)),
        time=time,
        gpus=gpus_text(lang, n),
    )
