"""The memory a serving question asks with no GPU count ('需要多少显存', 'how much vram for …'; trial s35 #3):
the headline leads with the memory, then the cards. With no load stated (the concurrency assumed), the
figure asked is one sequence's at the context (weights + its KV cache + each GPU's runtime on the fewest GPUs
that hold it, :attr:`estimator.models.Inference.min_gpus`); the assumed load's figure follows, named as
assumed (trial s38 fixm #1: '≈ 53.3 GB per GPU on 3 GPUs' from 16 assumed concurrent at 128K)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.render.plan_text import gpus_text

if TYPE_CHECKING:
    from bot.render.fmt import Fmt
    from estimator.models import Inference, SizingReport


def mem_first(report: SizingReport, inf: Inference, f: Fmt) -> dict[str, str]:
    """The weights, the KV cache of the sized load (the KV line's figure) and each serving GPU's runtime
    workspace and CUDA context, summed in GiB, the card's own unit (s38 fixs #5); first each GPU's share
    (the sum ÷ the serving GPUs, the fewest that hold the load: 'memory per gpu?' with no count; s37 fixh).
    ``one_*``: the same for one sequence at the context on ``min_gpus``, set when the context is stated and
    the load assumed (with neither stated, 16 × 4K adds little: the sized load stays the figure)."""
    each_gpu = inf.workspace_bytes_per_gpu + inf.context_bytes_per_gpu
    runtime = each_gpu * inf.serving_gpus
    total = inf.weights_bytes + inf.kv_bytes_total + runtime
    each = total / max(inf.serving_gpus, 1)  # each GPU's share on the fewest that hold the load (s37 fixh #1)
    out = {"per_gpu": f.gib(each), "total": f.gib(total), "weights": f.gib(inf.weights_bytes),
           "kv": f.gib(inf.kv_bytes_total), "runtime": f.gib(runtime),
           "n": f.int(inf.serving_gpus), "gpus": gpus_text(f.lang, inf.serving_gpus)}  # fmt: skip
    assumed = {a.field for a in report.assumptions}
    if inf.concurrency > 1 and "concurrency" in assumed and "context" not in assumed:  # a stated context
        n1 = max(inf.min_gpus, 1)
        one = inf.weights_bytes + inf.kv_bytes_per_sequence + each_gpu * n1
        out |= {"one_per_gpu": f.gib(one / n1), "one_total": f.gib(one), "one_gpus": gpus_text(f.lang, n1),
                "one_kv": f.gib(inf.kv_bytes_per_sequence), "one_runtime": f.gib(each_gpu * n1)}  # fmt: skip
    return out
