"""A first-token target compared with the estimated time to first token (s37 fixb #1).

'首token 500ms 内', 'TTFT under 500 ms': the parser names the target (``time_to_first_token: 500 ms``,
:func:`bot.parse.prose_forms.serving_targets`); the reply says beside the estimate whether it is met, and
when it is not, what meets it. The estimate is one prompt's prefill alone, compute-bound (2·N FLOPs a
token at the prefill MFU: :func:`estimator.serving_speed.prefill_seconds`), so it falls as 1 ÷ the GPUs of a
copy (tensor parallel splits each matmul) and about linearly with the prompt (the attention term grows
faster, so a shorter prompt is said as an upper bound). Under load, prefills queue behind each other and
share steps with the decodes: vLLM's chunked prefill (the V1 default) caps the prefill tokens of a step so
the decodes keep running, which bounds, but does not remove, the wait (vLLM docs, 'Chunked Prefill').
"""

from __future__ import annotations

import math
import re
from typing import Any

from bot.render.i18n import N_, translate
from estimator.models import SizingReport

_TARGET_RE = re.compile(r"time_to_first_token: (?P<v>\d+(?:\.\d+)?) (?P<u>ms|s)")

MET = N_("Your first-token target of %(target)s: met (one prompt alone; queueing under load adds to it)")
BINDS = N_(
    "Your first-token target of %(target)s sets the count: %(per)s GPUs a copy (tensor parallel splits the "
    "prefill) bring one prompt to ≈ %(seconds)s s; the memory and the load alone need fewer"
)
MISSED = N_(
    "Your first-token target of %(target)s: missed on %(per)s GPUs a copy — it takes ≈ %(gpus)s GPUs a copy "
    "(tensor parallel splits the prefill) or prompts under ≈ %(prompt)s tokens; chunked prefill keeps the "
    "decodes from delaying it, but does not shorten one prompt's prefill"
)


def target_seconds(unused: list[tuple[str, str]]) -> tuple[float, str] | None:
    """(seconds, as typed) of the first-token target named in ``unused``, or None."""
    for text, _why in unused:
        m = _TARGET_RE.fullmatch(text)
        if m:
            value = float(m["v"])
            return (value / 1000.0 if m["u"] == "ms" else value), f"{m['v']} {m['u']}"
    return None


def ttft_target(
    unused: list[tuple[str, str]], report: SizingReport, f: Any, lang: str, binds: bool = False
) -> str | None:
    """The line comparing the target of ``unused`` with the report's time to first token, or None; ``binds``:
    the target set the GPUs of a copy (s38, :mod:`bot.core.ttft_bind`)."""
    inf, said = report.inference, target_seconds(unused)
    if said is None or inf is None or not inf.prefill_seconds:
        return None
    target, typed = said
    per = inf.tp * inf.pp
    if binds and inf.prefill_seconds <= target:
        return translate(lang, BINDS, target=typed, per=f.int(per), seconds=f"{inf.prefill_seconds:.2f}")
    if inf.prefill_seconds <= target:
        return translate(lang, MET, target=typed)
    gpus = 2 ** math.ceil(math.log2(per * inf.prefill_seconds / target))  # TP sizes are powers of two
    prompt = math.floor(inf.prompt_tokens * target / inf.prefill_seconds)
    return translate(lang, MISSED, target=typed, per=f.int(per), gpus=f.int(gpus), prompt=f.int(prompt))
