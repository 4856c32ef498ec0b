"""The catalog card an accelerator family typed without a model is sized on ('华为的卡', 'AMD GPUs', 'Intel
Gaudi', 'TPUs'; trial s27b #2): its flagship datacenter member in the catalog, said as the assumption
(:attr:`estimator.reasons.Why.gpu_family_flagship`), never the reference A100 of another vendor.

Sources: Huawei's Ascend 910B is the Ascend part sold for LLM training and serving in China (MindIE and
vLLM-Ascend document it first, hiascend.com); AMD's Instinct MI300X is its datacenter GPU that vLLM and
SGLang document for ROCm (docs.vllm.ai, "ROCm installation"); Intel's Gaudi 3 is the current Gaudi
(intel.com Gaudi 3 product brief); Google's TPU v5p is its training flagship of the v5 generation
(cloud.google.com/tpu/docs/v5p).
"""

from __future__ import annotations

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
    return next((gpu for words, gpu in FAMILY_FLAGSHIPS if any(w in lower for w in words)), None)
