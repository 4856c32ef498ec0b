"""EXL2/EXL3 weights at a stated bits per weight (s32: '4.65bpw' was named as not used and the weights
were sized at bf16, 3.4× too large).

ExLlamaV2's converter quantizes each layer to the parameters that reach a target *average* bits per
weight over the quantized layers (convert.py ``-b / --bits``: "Target average number of bits per
weight"), and the output head at its own width (``-hb``, default 6, "a mixed-precision quantization of
about 6.3 bits"; turboderp/exllamav2 doc/convert.md @02e2cb4). The token embedding table is not a linear
layer and is not quantized: kept at 16 bits here (an upper bound where the runtime keeps it in CPU memory).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from estimator.models import ModelSpec

HEAD_BITS = 6.3
"""Bits per weight of the output head at convert.py's default ``-hb 6`` (doc/convert.md: "about 6.3 bits")."""


def exl2_weight_bytes(spec: ModelSpec, params: float, bpw: float) -> float:
    """Bytes of an EXL2 checkpoint of ``params`` parameters at ``bpw`` average bits per weight: the
    decoder's layers at ``bpw``, the head (vocab × hidden) at :data:`HEAD_BITS`, the embedding table at
    16 bits. Llama-3-70B at 4.65 bpw: 68.5B × 4.65/8 + 1.05B × 6.3/8 + 1.05B × 2 ≈ 42.7 GB."""
    matrix = min(float(spec.vocab * spec.hidden), params / 2)
    body = params - 2 * matrix
    return body * bpw / 8.0 + matrix * HEAD_BITS / 8.0 + matrix * 2.0


def exl2_name(bpw: float) -> str:
    """The weight format as the report names it: '4.65bpw' (EXL2 or EXL3, as stated)."""
    return f"{bpw:g}bpw"
