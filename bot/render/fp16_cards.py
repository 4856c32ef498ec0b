"""A serving option on a card without bf16 (s33-left2 #4): said to run in fp16, never dropped silently.

vLLM runs cards of compute capability 7.0 and up (docs.vllm.ai, Installation › GPU › Requirements, v0.14.0:
"compute capability 7.0 or higher (e.g., V100, T4, RTX20xx, A100, L4, H100, etc.)"), so a V100 or a T4 stays
among the cheapest-card options. Those cards have no bf16 (Volta and Turing: NVIDIA V100 and T4 datasheets
list FP16 and FP32 tensor rates only; the catalog's ``peak_tflops_bf16`` is None), and vLLM refuses a bf16
model there unless it is served in fp16: "Bfloat16 is only supported on GPUs with compute capability of at
least 8.0 … You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example:
--dtype=half" (vllm/platforms/cuda.py ``check_if_supports_dtype``). The weights take the same 2 bytes and
the speed is sized at the fp16 peak (the estimator serves 16-bit weights as fp16 there), so the figures
stand; the row says fp16.
"""

from __future__ import annotations

from bot.render.i18n import N_, translate
from estimator.models import SizingReport

FP16_MARK = N_(" (in fp16: no bf16 on this card)")


def fp16_mark(report: SizingReport, lang: str) -> str:
    """The mark after a serving option's card when ``report`` serves fp16 weights (the estimator's 16-bit
    format on a card with no bf16: :attr:`estimator.gpu_spec.GpuSpec.peak_tflops_bf16` None), else ''."""
    inf, gpu = report.inference, report.gpu_spec
    if inf is None or gpu is None or gpu.peak_tflops_bf16 is not None or inf.weight_format != "fp16":
        return ""
    return translate(lang, FP16_MARK)
