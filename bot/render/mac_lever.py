"""One Mac that cannot hold the model in the GPU's default share of its unified memory (s39 fixm #1): the
lever that makes it fit — ``sudo sysctl iogpu.wired_limit_mb=N`` with N worked out — or, where N would
leave macOS too little, the lighter GGUF weights that fit with the share raised. A Mac is one chip: its
answer never moves to a count of more than one (the '2 GPUs that hold it' of the s39 trial).

Imported lazily by :func:`bot.render.serving_text._one_mac`, only when one Mac does not hold the model."""

from __future__ import annotations

import math

from bot.render.fmt import Fmt
from estimator.models import Inference
from estimator.request import Precision
from estimator.units import GIB
from estimator.weights import BITS_PER_WEIGHT

MACOS_RESERVE_GIB = 4
"""GiB of unified memory left to macOS and its apps when the GPU's wired limit is raised. macOS's own
default leaves a third (2/3 share below 64 GB: Metal ``recommendedMaxWorkingSetSize``, the share this tool
already uses); users who raise ``iogpu.wired_limit_mb`` for a model commonly leave a few GB: a 48 GB
MacBook Pro set to 40,960 MB leaves 8 GB (thinkdifferent.blog, 'The MacBook Pro setting that doubles your
AI performance'), exo PR #1672 wires model + 4 GB on a 16 GB M4 Mac mini because macOS 15 itself wires
several GB. 4 GiB is the floor kept here: past it the lever is not offered (an assumption, said in the
reply)."""

GGUF_STEPS = (Precision.q8_0, Precision.q5_k_m, Precision.q4_k_m, Precision.q4_0)
"""The GGUF weights this tool sizes, heaviest first (bits per weight: estimator.weights.BITS_PER_WEIGHT,
llama.cpp PR #1684 'k-quants')."""


def wired_lever(inf: Inference, ram_gib: float, f: Fmt, labels: dict[str, str]) -> dict[str, str] | None:
    """{'mb': N, 'gib': N/1024, 'left': RAM − N} when raising the GPU's wired limit to N MiB holds the
    weights, the KV cache and the workspace and leaves macOS :data:`MACOS_RESERVE_GIB`: N is that
    need rounded up to a whole GiB (24 GiB Mac, 19.4 GiB needed → 20,480 MiB, 4 GiB left). Otherwise
    {'left': reserve, 'lighter': the heaviest lighter GGUF format that fits RAM − reserve, or '',
    'bits': the most bits per weight that fit}. None without the Mac's memory."""
    if not ram_gib:
        return None
    need = inf.weights_bytes + inf.kv_bytes_total + inf.workspace_bytes_per_gpu
    wired_gib = math.ceil(need / GIB)
    if ram_gib - wired_gib >= MACOS_RESERVE_GIB:
        left = f.gib((ram_gib - wired_gib) * GIB)
        return {"mb": str(wired_gib * 1024), "gib": f.gib(wired_gib * GIB), "left": left}
    room = (ram_gib - MACOS_RESERVE_GIB) * GIB - inf.kv_bytes_total - inf.workspace_bytes_per_gpu
    params = inf.weights_bytes / inf.bytes_per_param if inf.bytes_per_param else 0.0
    bits = room * 8 / params if params and room > 0 else 0.0
    now = inf.bytes_per_param * 8
    fits = [p for p in GGUF_STEPS if BITS_PER_WEIGHT[p] <= bits and BITS_PER_WEIGHT[p] < now]
    return {
        "left": f.gib(MACOS_RESERVE_GIB * GIB),
        "lighter": labels.get(fits[0].value, fits[0].value.upper()) if fits else "",
        "bits": f"{bits:.1f}" if bits > 0 else "",
    }
