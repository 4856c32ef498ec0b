"""A first-token target compared with the estimated time to first token (s37 fixb #1).

'首token 500ms 内', 'TTFT under 500 ms': the parser names the target (``time_to_first_token: 500 ms``,
:func:`bot.parse.prose_forms.serving_targets`); the reply says beside the estimate whether it is met, and
when it is not, what meets it. The estimate is one prompt's prefill alone, compute-bound (2·N FLOPs a
token at the prefill MFU: :func:`estimator.serving_speed.prefill_seconds`), so it falls as 1 ÷ the GPUs of a
copy (tensor parallel splits each matmul) and about linearly with the prompt (the attention term grows
faster, so a shorter prompt is said as an upper bound). Under load, prefills queue behind each other and
share steps with the decodes: vLLM's chunked prefill (the V1 default) caps the prefill tokens of a step so
the decodes keep running, which bounds, but does not remove, the wait (vLLM docs, 'Chunked Prefill').
With more than one sequence a copy, a target one prompt meets is judged under the load too (s46 trial #12):
the prompts queue for the prefill, an M/D/1 queue at the quantile the message names (P99, P95, P90, P50;
none: the mean), :func:`estimator.ttft_load.loaded_ttft`.
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
MET_LOAD = N_(
    "Your first-token target of %(target)s: met at %(at)s under the load — ≈ %(seconds)s s with %(n)s "
    "sequences a copy (prompts queue for the prefill, %(rho)s of each second; M/D/1), one prompt alone "
    "≈ %(one)s s"
)
MISSED_LOAD = N_(
    "Your first-token target of %(target)s: met by one prompt alone (≈ %(one)s s), not at %(at)s under the "
    "load — ≈ %(seconds)s s with %(n)s sequences a copy: prompts queue for the prefill (%(rho)s of each "
    "second; M/D/1, and the decodes sharing the GPUs add more)%(fix)s"
)
OVERLOADED = N_(
    "Your first-token target of %(target)s: met by one prompt alone (≈ %(one)s s), not under the load — "
    "%(n)s sequences a copy bring %(rate)s prompts a second whose prefill needs %(rho)s of each second: "
    "the queue grows without bound%(fix)s"
)
COPIES_MEET = N_("; ≈ %(copies)s copies of %(per)s GPUs (%(gpus)s GPUs) share the load enough to meet it")
QUANTILE_RE = re.compile(
    r"(?i)(?<![a-z0-9])p(50|90|95|99)(?![0-9])|(50|90|95|99)\s*(?:th percentile|分位|百分位)"
)
"""The quantile a latency target names ('P99 TTFT', '99th percentile', '99 分位'); none: the mean."""
MEAN = N_("the mean")
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


def ttft_target(parsed: Any, report: SizingReport, f: Any, lang: str) -> str | None:
    """The line comparing the target named in ``parsed.unused_numbers`` with the report's time to first
    token, or None; the note 'ttft_binds': the target set the GPUs of a copy (s38, :mod:`bot.core.ttft_bind`);
    ``parsed.normalized``: the quantile the target names, judged under the load (s46 #12)."""
    binds, text = "ttft_binds" in parsed.notes, parsed.normalized
    inf, said = report.inference, target_seconds(parsed.unused_numbers)
    if said is None or inf is None or not inf.prefill_seconds:
        return None
    target, typed = said
    per = inf.tp * inf.pp
    if binds and inf.prefill_seconds <= target:
        return translate(lang, BINDS, target=typed, per=f.int(per), seconds=f"{inf.prefill_seconds:.2f}")
    if inf.prefill_seconds <= target:
        return _under_load(inf, target, typed, f, lang, text) or translate(lang, MET, target=typed)
    gpus = 2 ** math.ceil(math.log2(per * inf.prefill_seconds / target))  # TP sizes are powers of two
    prompt = math.floor(inf.prompt_tokens * target / inf.prefill_seconds)
    return translate(lang, MISSED, target=typed, per=f.int(per), gpus=f.int(gpus), prompt=f.int(prompt))


def _under_load(inf: Any, target: float, typed: str, f: Any, lang: str, text: str) -> str | None:
    """The target judged under the load of ``inf`` (more than one sequence a copy): met, missed or
    overloaded (:func:`estimator.ttft_load.loaded_ttft` at the quantile ``text`` names), and when missed the
    copies that would meet it; None with one sequence a copy, no answer length or no decode rate."""
    copies = max(inf.replicas or 1, 1)
    n = (inf.priced_concurrency or inf.concurrency or 1) / copies
    out = (inf.context_tokens or 0) - (inf.prompt_tokens or 0)
    if n <= 1 or out <= 0 or not inf.priced_tokens_per_s:
        return None
    from estimator.ttft_load import loaded_ttft

    m = QUANTILE_RE.search(text)
    level = int(m.group(1) or m.group(2)) if m else None
    q = level / 100 if level else None
    got = loaded_ttft(inf.prefill_seconds, inf.priced_tokens_per_s / copies, out, q)
    if got is None:
        return None
    at = f"P{level}" if level else translate(lang, MEAN)
    one, rho, count = f"{inf.prefill_seconds:.2f}", f"{got.rho:.0%}", f.int(round(n))
    fix = _copies_meeting(inf, copies, out, q, target, f, lang) if got.seconds > target else ""
    if math.isinf(got.seconds):
        rate = f"{got.arrivals_per_s:.1f}"
        return translate(lang, OVERLOADED, target=typed, one=one, n=count, rate=rate, rho=rho, fix=fix)
    seconds = f"{got.seconds:.2f}"
    if got.seconds <= target:
        return translate(lang, MET_LOAD, target=typed, at=at, seconds=seconds, n=count, rho=rho, one=one)
    return translate(
        lang, MISSED_LOAD, target=typed, at=at, seconds=seconds, n=count, rho=rho, one=one, fix=fix
    )


def _copies_meeting(
    inf: Any, copies: int, out: int, q: float | None, target: float, f: Any, lang: str
) -> str:
    """'; ≈ k copies of … meet it': the fewest copies (up to 64) over which the whole load, spread evenly,
    queues its prompts short enough — each copy decodes 1 ÷ k of the tokens a second (the rate a sequence
    kept, a lower bound of the gain); "" when none does."""
    from estimator.ttft_load import loaded_ttft

    for k in range(copies + 1, 65):
        got = loaded_ttft(inf.prefill_seconds, inf.priced_tokens_per_s / k, out, q)
        if got is not None and got.seconds <= target:
            per = inf.tp * inf.pp
            return translate(lang, COPIES_MEET, copies=f.int(k), per=f.int(per), gpus=f.int(k * per))
    return ""
