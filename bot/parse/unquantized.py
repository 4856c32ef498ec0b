"""Weights kept unquantized in a serving question: 'no quantization', '不量化', 'without quantization',
'unquantized', 'full precision', '全精度' (s37 fixc #6).

On a personal card with no precision named the estimator runs the local runtimes' quantized formats
(:data:`estimator.serving.LOCAL_FORMATS`: Q8_0, then Q4_K_M) where the released 16-bit weights do not fit.
A user who says the weights stay unquantized has named the precision: the release format (bf16, 2 bytes
per weight, for most open models; FP8 for DeepSeek-V3/R1, whose '满血版' is its FP8 release). The verdict
is then for that setting first, and the lower-precision options follow it (design §8: "when the user's
setting makes the job not fit, the answer says so for that setting, then offers the alternative").
Before, '4060 Ti 16G 跑 Qwen2.5-7B，不量化' was sized at Q8_0 and said 'fits'.

Not read: a KV cache left unquantized ('KV cache 不量化', 'no quantization of the KV cache') — the words
name the cache, not the weights — nor a training question ('不量化的 LoRA': LoRA rather than QLoRA, read
by :mod:`bot.parse.asked_method`). Imported only past its gate (bot.parse.stage_steps).
"""

from __future__ import annotations

from bot.parse.regex import rc

UNQUANTIZED_RE = rc(
    r"(?:不用|不要|不做|不开|不加|没有?用?|不|无|without|no|not\s+using|disable[ds]?|turn(?:ed)?\s+off)"
    r"\s*(?:any\s+)?(?:做\s*)?(?:量化|quantiz\w*)"
    r"|unquantized|non[\s\-]?quantized|非量化|未量化|全精度|原精度|full[\s\-]+precision"
)
"""The weights stay at their 16-bit release precision, in Chinese or English."""
_CACHE = ("kv", "cache", "缓存")


def release_precision(model: str | None) -> str:
    """The precision a model's weights were released in, from the catalog ('DeepSeek-R1': fp8, its
    '非量化的满血版'), else bf16 (a model outside the catalog, a bare size: the open models' 16 bits)."""
    from estimator import catalog

    spec = catalog.models().get(model) if model else None
    return spec.release_precision if spec is not None else "bf16"


def weights_unquantized(s: str) -> bool:
    """Whether the lower-cased message ``s`` says the model's weights stay unquantized (a KV cache left
    unquantized is not the weights: the words within 16 characters of the match name the cache)."""
    for m in UNQUANTIZED_RE.finditer(s):
        near = s[max(0, m.start() - 16) : m.end() + 16]
        if not any(w in near for w in _CACHE):
            return True
    return False
