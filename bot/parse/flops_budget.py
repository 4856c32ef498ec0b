"""A training budget stated in FLOPs ('a compute budget of 1e23 FLOPs', '算力预算3e22 FLOPs', '5e21 FLOPs
compute-optimal'): the request's ``compute_budget_flops`` (C). Read before the numbers' roles, whose
absurd-magnitude rule (bot.parse.assemble, > 1e18) would otherwise drop it as 'far larger than any real
model' — 1e23 FLOPs is a 7B model on ~2T tokens (Llama 2 7B ≈ 8e22, Touvron et al. 2023 Table 2).

A FLOPs figure is a budget when it is a count, not a rate: no 'T'/'P' prefix (312 TFLOPS is a peak) and
no '/s', 'per second' or '每秒' after it; the stated bounds of the field (estimator.request_compute) keep a
small figure out.
"""

from __future__ import annotations

from bot.parse.normalize import mask
from bot.parse.regex import rc
from estimator.request_compute import COMPUTE_BUDGET_RANGE

_NUM = r"(?<![\w.])(?P<{name}>\d+(?:\.\d+)?(?:e\+?\d{{1,2}})?)(?![\d.])(?!e\+?\d)"
FLOPS_BUDGET_RE = rc(
    _NUM.format(name="n")
    + r"\s*(?:total\s+|training\s+)?flops?(?![a-z/])(?!\s*(?:/\s*s\b|per\s+sec|每秒))"
    + r"|(?:compute|flops?|training)\s+budget\s*(?:of|is|=|:|：)?\s*(?:about\s+|~\s*|≈\s*)?"
    + _NUM.format(name="b")
    + r"(?!\s*(?:[a-z$¥%]|元|块|美元|万|亿))"
    + r"|(?:算力|计算量|计算)预算\s*(?:为|是|有|:|：)?\s*(?:约|大约)?\s*"
    + _NUM.format(name="z")
    + r"(?!\s*(?:[a-z$¥%]|元|块|美元|万|亿))"
)
"""A FLOPs count: '1e23 flops', '3e22 flop', 'compute budget of 1e23', '算力预算3e22' (text as normalized:
lower case, powers of ten as e-notation)."""


def read_flops_budget(s: str) -> tuple[str, float | None, str]:
    """(``s`` with the first FLOPs budget masked, C in FLOPs, the figure as read); (``s``, None, "") when
    there is none or it is outside the stated bounds (left to the ordinary number rules)."""
    low, high = COMPUTE_BUDGET_RANGE
    for m in FLOPS_BUDGET_RE.finditer(s):
        name = next(g for g in ("n", "b", "z") if m.group(g))
        value = float(m.group(name))
        if low <= value <= high:
            return mask(s, m.start(), m.end(), " "), value, m.group(name)
    return s, None, ""
