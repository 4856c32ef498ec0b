"""Unsloth named as the maker of a quantized file, not as the training tool (s34 fixa).

Unsloth publishes quantized checkpoints as well as its fine-tuning library: 'unsloth/DeepSeek-R1-GGUF',
its "dynamic" 1.58-bit quants (unsloth.ai blog "Run DeepSeek R1 Dynamic 1.58-bit", 2025) are run by
llama.cpp or Ollama. 'DeepSeek-R1 1.58-bit unsloth dynamic GGUF on llama.cpp', "unsloth's dynamic quant",
'GGUF from unsloth', '用 unsloth 的 1.58bit 动态量化 GGUF 在 llama.cpp 上跑' name who made the file: the word
is blanked so that neither the stage (fine-tuning) nor the training tool is read from it. The word stays
the tool when the message speaks of training anywhere ('QLoRA with unsloth's dynamic 4-bit', 'fine-tune with
unsloth, then export to GGUF', '用 unsloth 微调后导出 GGUF'), and when no file word follows it in the same
clause ('unsloth qlora llama3 8b').
"""

from __future__ import annotations

import re

from bot.parse.regex import rc

_FILE_WORDS = r"(?:dynamic|动态|gguf|quants?\b|量化|imatrix|\bud[\-_]|\biq\d|\bq\d_k)"
MAKER_RE = rc(
    r"\bunsloth\b(?=(?:(?!\band\b|\bthen\b|export|convert|\bsav(?:e|ing)\b|导出|转)[^,，。;；!?！？\n]){0,40}?"
    + _FILE_WORDS
    + r")|(?:gguf|quants?|量化)\s*(?:(?:made\s+)?by|from|of|来自)\s*unsloth\b"
)
"""'unsloth' before a file word in the same clause, or after 'GGUF by / from' ('quants from unsloth')."""
_TRAINING_RE = rc(r"lora|fine[\s\-_]?tun|finetun|微调|训练|\btrain|\bsft\b|\bgrpo\b|\bdpo\b|精调")
"""Any training word: then Unsloth is the tool, whatever file it loads."""


def quant_maker(s: str) -> str:
    """``s`` with each 'unsloth' that names a quantized file's maker blanked (a message without a
    training word only); the caller's gate: 'unsloth' in ``s``."""
    if _TRAINING_RE.search(s):
        return s
    return MAKER_RE.sub(lambda m: re.sub(r"unsloth", " " * 7, m.group(0)), s)
