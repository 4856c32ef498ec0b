"""Precision words: the weight and compute formats people write ("bf16", "NF4", "GPTQ-Int8", "W4A16",
llama.cpp's GGUF types "Q4_K_M", "IQ3_XXS", "Q6_K") and the format the estimator sizes each as."""

from __future__ import annotations

from bot.parse.regex import rc

PRECISION_RE = rc(
    r"(?<![a-z0-9])(?:(?<!\d\.)|(?=i?q[1-8]_[0-9a-z]))(?P<p>(?:bf16|bfloat16|fp16|float16)\s*[=:]?\s*false|bf16|bfloat16|fp16|float16|半精度|fp8|float8|fp32|float32|int8|int4|int3|int2|nf4|(?:bitsandbytes|bnb)-(?:fp4|nf4)|"
    r"[2-8][\s\-]?bits?|gptq[\s\-_]*int[48]|gptq|awq[\s\-_]*(?:int[48]|[48][\s\-]?bit)|awq|w8a8|w8a16|w4a16|w4a8|wint[248]|w4afp8|iq[1-4]_(?:xxs|xs|nl|s|m)|tq[12]_0|"
    r"q[034]f(?:16|32)(?:_[01])?|q[2-6]_k(?:_(?:xl|[sml]))?|q[45]_[01]|q[2-68]k|q4|q5|q6|q8_0|q8|"
    r"(?<!in )(?<!by )(?<!of )(?<!until )(?<!during )(?<!before )(?<!after )q[23](?!\s*(?:20\d\d|'\d\d|fy)))"
    r"(?![a-z0-9])"
)
"""s50 round 46: a GGUF/ggml type right after a version's digit and a dot (TheBloke's file names:
'mistral-7b-instruct-v0.2.Q4_K_M.gguf', 'llama-2-7b-chat.ggmlv3.q4_0.bin') is read; before, the guard
against '2.5'-style numbers (no digit and dot before) dropped it and the weights were sized in bf16. Only
the typed forms with an underscore pass the guard ('Qwen2.5' and '3.q4' stay unread).
Round 24: a mixed-precision flag turned off ('fp16=False', 'bf16: false'; HF TrainingArguments) is matched
whole, so it is never read as that format: with no format on, the job trains in fp32 (bot.parse.assemble)."""
BPW_RE = rc(
    r"(?<![\d.])(?P<b>\d\.\d{1,2}(?=\s*-?\s*(?:bits?(?![a-z])|比特))"
    r"|\d(?:\.\d{1,2})?(?=\s*-?\s*(?:bpw|bits?\s*(?:per|/)\s*weight)))"
    r"\s*-?\s*(?:bpw|bits?(?:\s*(?:per|/)\s*weight)?|比特)(?![a-z])"
)
"""EXL2/EXL3 bits per weight ('5.0 bpw', '6.0bpw'; ExLlamaV2 convert.py -b), also written as a fractional
width or in words (round 14: '2.5-bit EXL3', '4.65 bits per weight'; before, '2.5-bit' was read as 5-bit): a
mixed width the sizing has no weight format for, named as not used (bot.parse.prose_vocab)."""
BIT_WIDTHS = {
    **{
        f"{n}bit{s}": fmt
        for n, fmt in (("8", "int8"), ("4", "int4"), ("3", "int3"), ("2", "int2"))
        for s in ("", "s")
    }
}
"""Weight widths written in bits ('4-bit', '3bit', round 21: '13B 4bits 的模型'); 5, 6 and 7 bits have no
format in the sizing (named)."""
TERNARY_FORMATS = dict.fromkeys(("tq1_0", "tq2_0"), "q2_k")
"""s49 round 45: llama.cpp's ternary types (tools/quantize/quantize.cpp QUANT_OPTIONS: 'TQ1_0 : 1.69 bpw
ternarization', 'TQ2_0 : 2.06 bpw ternarization'; Unsloth's 'UD-TQ1_0' 1.8-bit Kimi-K2 and DeepSeek files)
sized as the next wider format the estimator has, Q2_K, as IQ1_S's 1.56 bits are: an upper bound on the
weights, named as typed (before, 'TQ1_0' was not read and the weights were sized in bf16)."""
IQ_FORMATS = {
    f"iq{n}_{kind}": fmt
    for n, fmt in ((4, "q4_k_m"), (3, "q3_k_m"), (2, "q2_k"), (1, "q2_k"))
    for kind in ("xxs", "xs", "nl", "s", "m")
}
"""llama.cpp's i-quants (IQ4_XS 4.25 bits per weight, IQ4_NL 4.5, IQ3_XXS 3.06 … IQ3_M 3.66, IQ2_XXS 2.06 …
IQ2_M 2.7, IQ1_S 1.56, IQ1_M 1.75; tools/quantize/quantize.cpp QUANT_OPTIONS) sized as the next wider format
the estimator has (Q4_K_M; s47: Q3_K_M's 4.0 and Q2_K's 3.17 bits, GGUF types sized on llama.cpp, no longer
GPTQ int4/int3 on vLLM): an upper bound, named as typed (round 6)."""
GGUF_FORMATS = {
    "q2_k_s": "q2_k",
    "q2_k_xl": "q3_k_m",
    **dict.fromkeys(("q3_k_xl", "q4_k"), "q4_k_m"),
    **dict.fromkeys(("q4_1", "q5_0", "q5_k", "q4_k_xl"), "q5_k_m"),
    **dict.fromkeys(("q5_1", "q5_k_xl"), "q6_k"),
    "q6_k_xl": "q8_0",
    # bartowski's _L files (Qn_K_M with Q8_0 embedding and output weights): one step above their Qn_K_M
    "q2_k_l": "q3_k_m",
    "q4_k_l": "q5_k_m",
    "q5_k_l": "q6_k",
    "q6_k_l": "q8_0",
    "q4k": "q4_k_m",
    "q5k": "q5_k_m",
    "q8k": "q8_0",
}
"""The other GGUF types of llama.cpp's quantize table (tools/quantize/quantize.cpp QUANT_OPTIONS; Llama-3-8B:
Q2_K 2.96G, Q3_K_S 3.41G, Q3_K_M 3.74G, Q3_K_L 4.03G, Q4_1 4.78G, Q5_0 5.21G, Q5_1 5.65G, Q6_K 6.14G, against
Q4_K_M 4.58G and Q5_K_M 5.33G; Q3_K/Q4_K/Q5_K alias the _M types) and Unsloth's ``UD-Qn_K_XL`` files (some
layers kept wider), each sized as the next wider format the estimator has (an _XL one step above its Qn_K_M):
an upper bound on the weights, named as typed (round 9; before, 'Q6_K' was sized as bf16 in silence).
Round 13: a bare 'Q6' is Q6_K, as a bare 'Q4'/'Q5'/'Q8' is Q4_K_M/Q5_K_M/Q8_0 (Ollama's and Hugging Face's
tags). Round 14: bare 'Q2'/'Q3' ('in Q3', 'Q3 2026' are quarters, left alone) and the glued k-quants of
mistral.rs's ISQ and candle ('Q4K', 'Q6K', 'Q8K'), each sized as its Qn_K, named. s47: Q6_K, Q3_K_L, Q3_K_M,
Q3_K_S and Q2_K are sized as themselves (estimator.weights.QUANTIZE_TABLE_GIB), on llama.cpp like every GGUF
type; the others as the next wider GGUF type (Q5_1 5.65G as Q6_K), never as a GPTQ format on vLLM."""
MLC_FORMATS = {
    **dict.fromkeys(("q4f16_1", "q4f32_1", "q4f16_0", "q4f32_0", "q4f16", "q4f32"), "q4_k_m"),
    "q3f16_1": "int4",
    "q3f16_0": "int4",
}
"""s44-workmiss (en39-030): MLC-LLM's group-quantized weight formats (mlc_llm/quantization/quantization.py:
q4f16_1 and q4f32_1 store 4-bit weights with one 16- or 32-bit scale per group of 32, 4 + 16/32 = 4.5 bits a
weight; q3f16_1 3-bit weights with one 16-bit scale per group of 40, 3.4 bits), each sized as the next wider
format the estimator has, as IQ4_NL's 4.5 bits are (Q4_K_M, 4.85 bits; int4 above 3.4 bits): an upper bound
on the weights, named as typed. Their unquantized q0f16 / q0f32 are fp16 / fp32 (:data:`PRECISION_MAP`)."""
GGUF_EXACT = {
    **dict.fromkeys(("q6_k", "q6", "q6k"), "q6_k"),
    **dict.fromkeys(("q3_k_m", "q3_k", "q3", "q3k"), "q3_k_m"),
    "q3_k_s": "q3_k_s",
    "q3_k_l": "q3_k_l",
    **dict.fromkeys(("q2_k", "q2", "q2k"), "q2_k"),
}
"""s47: the K-quant mixes sized at their own size (estimator.weights.QUANTIZE_TABLE_GIB) and their aliases
(quantize.cpp: 'Q3_K: alias for Q3_K_M'; round 14: a bare 'Q2'/'Q3'/'Q6' is Ollama's and Hugging Face's tag
for Q2_K/Q3_K/Q6_K, 'Q6K' mistral.rs's and candle's): used, not named."""
NEAREST_FORMAT = (
    frozenset({"q4_k_s", "q5_k_s"})
    | frozenset(IQ_FORMATS)
    | frozenset(TERNARY_FORMATS)
    | frozenset(GGUF_FORMATS)
    | frozenset(MLC_FORMATS)
)
"""GGUF formats sized as the next larger one the estimator has (Q4_K_M, Q5_K_M): llama.cpp's quantize
table gives Llama-3-8B at 4.37 GB in Q4_K_S vs 4.58 GB in Q4_K_M and 5.21 vs 5.33 GB in Q5_K_S vs Q5_K_M
(tools/quantize/quantize.cpp QUANT_OPTIONS), so the memory is an upper bound by 2–5 %; named, never
silently replaced."""
PRECISION_MAP: dict[str, str] = {
    **IQ_FORMATS,
    **TERNARY_FORMATS,
    **GGUF_FORMATS,
    **GGUF_EXACT,
    **MLC_FORMATS,
    "q0f16": "fp16",  # MLC-LLM's unquantized formats (s44)
    "q0f32": "fp32",
    "bf16": "bf16",
    "bfloat16": "bf16",
    "fp16": "fp16",
    "float16": "fp16",
    "半精度": "fp16",
    "fp8": "fp8",
    "float8": "fp8",
    "fp32": "fp32",
    "float32": "fp32",
    "int8": "int8",
    "int4": "int4",
    "int3": "int3",
    "int2": "int2",
    "nf4": "int4",
    **dict.fromkeys(("bitsandbytesfp4", "bitsandbytesnf4", "bnbfp4", "bnbnf4"), "int4"),  # r23: 4-bit
    "gptq": "int4",
    "gptqint8": "int8",  # "GPTQ-Int8" (Qwen's 8-bit GPTQ releases): the bits written after GPTQ
    "gptq_int8": "int8",
    "gptqint4": "int4",
    "gptq_int4": "int4",
    "awq": "int4",
    # round 20: an 8-bit AWQ release ('Qwen3-Next-80B-A3B-Thinking-AWQ-8bit'): the bits written after AWQ
    **dict.fromkeys(("awq8bit", "awq_8bit", "awqint8", "awq_int8"), "int8"),
    **dict.fromkeys(("awq4bit", "awq_4bit", "awqint4", "awq_int4"), "int4"),
    # W8A8 / W8A16 (llm-compressor, vLLM): 8-bit weights; W4A16 / W4A8: 4-bit weights
    "w8a8": "int8",
    "w8a16": "int8",
    "w4a16": "int4",
    "w4a8": "int4",
    # s35 round 31: FastDeploy's weight-only names ('--quantization wint4', 'WINT4 量化'; its quantization
    # docs: WINT8 / WINT4 weights in INT8 / INT4, WINT2 in 2 bits, W4Afp8 INT4 weights), as launchers.QUANT
    "wint8": "int8",
    "wint4": "int4",
    "wint2": "int2",
    "w4afp8": "int4",
    # GGUF: "Q4" means Q4_K_M, Ollama's default; "Q8" Q8_0; "Q5" Q5_K_M
    "q4_k_m": "q4_k_m",
    "q4_k_s": "q4_k_m",
    "q4": "q4_k_m",
    "q4_0": "q4_0",
    "q5_k_m": "q5_k_m",
    "q5_k_s": "q5_k_m",
    "q5": "q5_k_m",
    "q8_0": "q8_0",
    "q8": "q8_0",
}


AS_INT = {
    word: f" ({value})"
    for word, value in PRECISION_MAP.items()
    if value in ("int4", "int8") and not any(ch.isdigit() for ch in word)
}
"""s34: a format word with no digit named as not used with the integer width it stands for ('precision: awq
(int4)', 'gptq (int4)'): the format asked about is sized, the other named, and a method's name alone does
not say its width (bot.parse.assemble; a dict look-up, no Python call a parse)."""
