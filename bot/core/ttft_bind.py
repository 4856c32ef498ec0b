"""A first-token target that sets the GPU count (s38 left item 4).

'首 token 500ms 内', 'TTFT under 500 ms' (:func:`bot.parse.prose_forms.serving_targets`: named as
``time_to_first_token: 500 ms``). The time to first token of one prompt is its prefill, compute-bound
(2·N FLOPs a token at the prefill MFU: :func:`estimator.serving_speed.prefill_seconds`), so it falls as
1 ÷ the GPUs of one copy: tensor parallelism splits every matmul of the prefill over the copy's GPUs
(Shoeybi et al. 2019, Megatron-LM §3). When the count the memory and the load need leaves one prompt's
prefill above the target and no count or TP was stated, the answer is sized again with TP = the smallest
power of two (vLLM's TP sizes divide the heads) that brings it under the target, within one node (8 GPUs:
TP across nodes runs over the network, design §3.5); the headline is then that count, and the reply says
the target binds (:data:`TTFT_BINDS`, bot.render.ttft_target). A target one node cannot meet keeps the
count and says what would meet it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.parse.result import ParseResult
    from estimator.models import SizingReport, SizingRequest

TTFT_BINDS = "ttft_binds"
"""ParseResult note: the first-token target, not the memory or the load, set the GPUs of a copy."""
NODE_GPUS = 8
"""The most GPUs one tensor-parallel copy spans: one HGX/DGX node (design §3.5: TP inside a node)."""
_TARGET_RE = re.compile(r"time_to_first_token: (?P<v>\d+(?:\.\d+)?) (?P<u>ms|s)")

Sized = tuple["SizingReport", dict[str, str]]


def target_seconds(parsed: ParseResult) -> float | None:
    """The first-token target the message states, in seconds, or None."""
    for text, _why in parsed.unused_numbers:
        m = _TARGET_RE.fullmatch(text)
        if m:
            return float(m["v"]) / (1000.0 if m["u"] == "ms" else 1.0)
    return None


Sizer = Callable[["SizingRequest"], "Sized | None"]


def ttft_bound(
    request: SizingRequest, parsed: ParseResult, sized: Sized | None, size: Sizer
) -> tuple[Sized | None, ParseResult]:
    """``sized`` again at the TP that meets the stated first-token target when it binds (module doc), with
    :data:`TTFT_BINDS` on ``parsed``; else both unchanged."""
    target = target_seconds(parsed)
    inf = sized[0].inference if sized is not None else None
    if target is None or inf is None or not inf.prefill_seconds or inf.prefill_seconds <= target:
        return sized, parsed
    if request.gpu_count or request.tp or request.stage != "inference":
        return sized, parsed  # the user's own count or TP: the reply says what would meet the target
    per = inf.tp * inf.pp
    need = 2 ** math.ceil(math.log2(per * inf.prefill_seconds / target))
    if need <= per or need > NODE_GPUS:
        return sized, parsed
    again = size(request.model_copy(update={"tp": need}))
    fast = again[0].inference if again is not None else None
    if fast is None or not fast.prefill_seconds or fast.prefill_seconds > target:
        return sized, parsed
    report = again[0]  # the TP is the target's, not the user's: no 'with your TP' note (estimator.serving)
    kept = [n for n in report.warnings if n.code != "stated_layout_needs_more"]
    again = (report.model_copy(update={"warnings": kept}), again[1])
    return again, parsed.model_copy(update={"notes": [*parsed.notes, TTFT_BINDS]})
