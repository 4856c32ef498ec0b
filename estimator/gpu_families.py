"""The catalog card an accelerator family typed without a model is sized on ('华为的卡', 'AMD GPUs', 'Intel
Gaudi', 'TPUs'; trial s27b #2): its flagship datacenter member in the catalog, said as the assumption
(:attr:`estimator.reasons.Why.gpu_family_flagship`), never the reference A100 of another vendor.

Sources: Huawei's Ascend 910B is the Ascend part sold for LLM training and serving in China (MindIE and
vLLM-Ascend document it first, hiascend.com); AMD's Instinct MI300X is its datacenter GPU that vLLM and
SGLang document for ROCm (docs.vllm.ai, "ROCm installation"); Intel's Gaudi 3 is the current Gaudi
(intel.com Gaudi 3 product brief); Google's TPU v5p is its training flagship of the v5 generation
(cloud.google.com/tpu/docs/v5p). NVIDIA's H100 is the Hopper datacenter GPU its H800/H20 export parts are cut
from (nvidia.com H100 datasheet), the card people mean by "H 卡" / "H cards" (s28).
"""

from __future__ import annotations

import re

FAMILY_FLAGSHIPS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("huawei", "ascend", "华为", "昇腾"), "Ascend-910B"),
    (("gaudi", "intel"), "Gaudi3"),
    (("amd", "instinct", "radeon"), "MI300X"),
    (("tpu",), "TPUv5p"),
)
"""(words of a family, the catalog id it is sized on), first match wins ('Intel Gaudi' → Gaudi 3)."""


def family_flagship(name: str) -> str | None:
    """The catalog id to size a family ``name`` on ('华为的卡' → 'Ascend-910B'), or None: a name with a
    digit names a model ('Ascend 920'), not a family, and is never swapped for a catalog card."""
    lower = name.lower()
    if any(map(str.isdigit, lower)):
        return None
    if H_FAMILY_RE.match(lower):  # 'H 卡', '8 H cards': the Hopper line, H100 for reference (s28)
        return "H100-SXM5-80GB"
    if TITAN_FAMILY_RE.match(lower):  # '4 块 Titan': the TITAN line without a model letter (s32)
        return "Titan-RTX"
    if "npu" in lower and not any(w in lower for w in FAMILY_FLAGSHIPS[0][0]):  # s37-rev: 'Intel NPU'
        return None  # a laptop's or a phone's NPU: no datacenter card of its vendor stands for it
    return next((gpu for words, gpu in FAMILY_FLAGSHIPS if any(w in lower for w in words)), None)


H_FAMILY_RE = re.compile(r"h[\s\-]*(?:系列)?[\s\-]*(?:的\s*)?(?:cards?|gpus?|显卡|卡)$")
"""NVIDIA's H line typed by its letter alone, lower case ('h卡', 'h cards', 'h 系列的卡'): a family, as
``bot.parse.lexicon.UNKNOWN_GPU_RE`` names it (s28: '1 node of 8 H cards' lost its count, '8张H卡' was
sized as the reference A100 silently)."""


TITAN_FAMILY_RE = re.compile(r"(?:nvidia[\s\-]*)?titans?(?:[\s\-]*(?:的\s*)?(?:cards?|gpus?|显卡|卡))?$")
"""NVIDIA's TITAN line typed without its model letter ('4 块 Titan', '2 Titans'): sized on the TITAN RTX,
the line's last and largest-memory member (24 GB GDDR6, nvidia.com TITAN RTX product page) and the only TITAN
in the catalog, said as the assumption (s32: '4 块 Titan' was sized on the reference A100 80G and said
"fits"). A model letter ('Titan X', 'Titan V', 'Titan Xp': 12 GB cards not in the catalog) names a model,
which stays unknown as typed."""
