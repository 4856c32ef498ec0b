"""Training steps ("for 1000 steps", "训练1000步", "2k iterations"): optimizer steps, each of one global
batch. A time needs the data in tokens: steps × global batch (sequences) × sequence length, so with both
stated the steps become the sample count (steps × global batch, said by the estimator's "data converted
to tokens" note); without them the number is named as not used, saying what it needs."""

from __future__ import annotations

from typing import Any

from bot.parse.normalize import mask
from bot.parse.regex import rc

STEPS_RE = rc(
    r"(?<![\w.])(?P<n>\d{1,3}(?:,\d{3})+|\d+)\s*(?P<k>[kK](?![a-zA-Z])|千|万)?\s*"
    r"(?:(?:training|train|optimi[sz]er|gradient|update)\s+)?(?:steps?|iterations?|iters?)\b"
    r"|(?P<zn>\d+)\s*(?P<zk>千|万)?\s*步"
)
"""A count of steps; 'k' / 千 = ×1,000, 万 = ×10,000."""
_SCALE = {"k": 1000, "K": 1000, "千": 1000, "万": 10_000}


def read_steps(s: str) -> tuple[str, int | None, str | None]:
    """(``s`` with the first step count masked, the steps, the text as typed); None when none."""
    m = STEPS_RE.search(s)
    if m is None:
        return s, None, None
    digits, scale = (m.group("n"), m.group("k")) if m.group("n") else (m.group("zn"), m.group("zk"))
    steps = int(digits.replace(",", "")) * _SCALE.get(scale or "", 1)
    return mask(s, m.start(), m.end(), " "), steps or None, m.group(0).strip()


def apply_steps(f: dict[str, Any], steps: int | None, raw: str | None, named_unused: list) -> None:
    """Steps × global batch = samples when the global batch and the sequence length are stated and no
    data size is; else the steps are named as not used ('steps_need_batch')."""
    if not steps or not raw:
        return
    if any(f.get(k) for k in ("tokens", "num_samples")):
        named_unused.append((raw, "repeated"))
    elif f.get("global_batch") and (f.get("seq_len") or f.get("tokens_per_sample")):
        f["num_samples"] = steps * f["global_batch"]
    else:
        named_unused.append((raw, "steps_need_batch"))
