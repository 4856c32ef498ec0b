"""The weight formats a request names (:class:`Precision`), apart from :mod:`estimator.request` (which
re-exports it) so that module stays within the 500-line limit of tests/test_layout.py (s47: the GGUF K-quant
mixes added). Bits per weight of each: :data:`estimator.weights.BITS_PER_WEIGHT`."""

from enum import StrEnum


class Precision(StrEnum):
    """Numeric format of weights (training compute is bf16 unless fp8 is asked for)."""

    fp32 = "fp32"
    bf16 = "bf16"
    fp16 = "fp16"
    fp8 = "fp8"
    int8 = "int8"
    int4 = "int4"
    int3 = "int3"
    int2 = "int2"
    # llama.cpp GGUF weight formats (inference only)
    q8_0 = "q8_0"
    q5_k_m = "q5_k_m"
    q4_k_m = "q4_k_m"
    q4_0 = "q4_0"
    # s47: the other K-quant mixes of llama.cpp's quantize table, each at its own size (estimator.weights)
    q6_k = "q6_k"
    q3_k_l = "q3_k_l"
    q3_k_m = "q3_k_m"
    q3_k_s = "q3_k_s"
    q2_k = "q2_k"
    # OCP microscaling FP4: gpt-oss releases its MoE experts in it
    mxfp4 = "mxfp4"
    # NVIDIA NVFP4 (TensorRT Model Optimizer): 4-bit E2M1 weights in blocks of 16 with an FP8 scale
    nvfp4 = "nvfp4"
